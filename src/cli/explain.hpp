// `mcptriage explain`: prints the catalogue entry of a reason code, an outcome or a skipped
// record's reason (verdict.hpp ReasonEntry, OutcomeEntry, SkipReasonEntry).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcptriage::cli {

/// `mcptriage explain NAME...`, `mcptriage explain --list`, `mcptriage explain --help`.
/// `argv[0]` is "explain" (main passes its argv from 1). Prints each NAME's entries on standard
/// output; a code shared by several outcomes prints each of its reasons. Exit status: 0; 2 (usage
/// error: no NAME, an unknown option, or a NAME that is none of the names, with the nearest names
/// suggested on standard error, nothing printed); 4 when standard output cannot be written (a
/// closed pipe, EPIPE, ends it quietly with 0; docs/exit-codes.md). Expects SIGPIPE ignored, as main() sets it.
int explain_main(int argc, char** argv);

/// The text `explain_main` prints: with `list`, every name (reasons under their outcome), then
/// the entries of `names` (each known). Pure, for tests.
std::string explain_text(const std::vector<std::string_view>& names, bool list);

}  // namespace mcptriage::cli
