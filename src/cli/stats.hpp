// `mcptriage stats` (docs/stats.md): the run core's records counted into one summary (table or
// JSON, docs/stats.schema.json), summaries merged (`--merge`), and row mode for distributed
// engines (`--rows`, docs/scale.md).
#pragma once

namespace mcptriage::cli {

/// `mcptriage stats [OPTIONS] INPUTS...`: argv from "stats" on.
int stats_main(int argc, char** argv);

/// `mcptriage diff [OPTIONS] BEFORE AFTER` (docs/stats.md "diff"): argv from "diff" on.
int diff_main(int argc, char** argv);

}  // namespace mcptriage::cli
