// `mcptriage bundle OUTPUT.tar.gz [OPTIONS] PATH...` (docs/bundle.md): one archive to attach to a
// bug report: the records (JSON Lines), the HTML report, the inputs redacted and converted to one
// HAR 1.2 file, the version and command line, the spec links of every reason in it, and a
// README.txt that says what is inside and what was redacted.
#pragma once

#include <string>
#include <string_view>

namespace mcptriage::cli {

/// `argv[0]` is "bundle" (main passes its argv from 1), `argv[1]` the archive to write (a name
/// ending in `.tar.gz` or `.tgz`), the rest triage options and inputs as `mcptriage` takes them
/// (`--session`, `--request FILE`, `--tools FILE`, ...); `--no-redact`, `--format`, `--report-*`,
/// `--export-har`, `--follow` and `--events` are refused (usage error, 2): a bundle is redacted
/// and holds its own outputs. The run is a triage run (run()) with the records, the HTML report
/// and the HAR written into a temporary folder, then packed with libarchive (a gzip-compressed
/// POSIX tar, every member under `mcptriage-bundle/`). Exit status: the run's (0, 1 for a broken
/// `--expect`/`--fail-on`, 3 when an input could not be read: the archive is written all the
/// same and says so); 2 for a usage error (no archive); 4 when the archive cannot be written.
int bundle_main(int argc, char** argv);

/// The text of the bundle's `README.txt`: what each member holds and what was redacted.
/// `records`: the number of records, `reasons`: of distinct reasons.
std::string bundle_readme(std::size_t records, std::size_t reasons);

}  // namespace mcptriage::cli
