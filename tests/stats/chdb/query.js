// Runs mcptriage's row mode inside ClickHouse (chdb, embedded): the log is read with file(),
// piped through `mcptriage stats --rows --key-field id` by the executable() table function (the
// binary in the session's user_scripts folder), and the rows grouped by tool, layer and outcome.
// Usage: node query.js SESSION_DIR LOG  -> JSON on stdout: {groups: [[tool, layer, outcome, n]...],
// skipped: {reason: n}, rows: N, keyed: N, seconds: S}
'use strict';
const { Session } = require('chdb');
const [dir, log] = process.argv.slice(2);
const session = new Session(dir);
const rows = `executable('mcptriage stats --rows --key-field id', 'TabSeparatedRaw', 'row String',
                        (SELECT line FROM file('${log}', 'LineAsString', 'line String')))`;
const started = Date.now();
const query = `
  SELECT JSONExtractString(row, 'tool') AS tool, JSONExtractString(row, 'layer') AS layer,
         JSONExtractString(row, 'outcome') AS outcome, JSONExtractString(row, 'skipped') AS skipped,
         count() AS n, countIf(JSONExtractString(row, 'key') != '') AS keyed
  FROM ${rows}
  GROUP BY tool, layer, outcome, skipped ORDER BY tool, layer, outcome, skipped`;
const out = session.query(query, 'JSONCompact');
const seconds = (Date.now() - started) / 1000;
const data = JSON.parse(out).data;
const result = { groups: [], skipped: {}, rows: 0, keyed: 0, seconds };
for (const [tool, layer, outcome, skipped, n, keyed] of data) {
  result.rows += Number(n);
  result.keyed += Number(keyed);
  if (skipped) result.skipped[skipped] = (result.skipped[skipped] || 0) + Number(n);
  else result.groups.push([tool, layer, outcome, Number(n)]);
}
process.stdout.write(JSON.stringify(result) + '\n');
