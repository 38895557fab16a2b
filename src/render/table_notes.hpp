// The lines the table prints under a record's row (docs/output.md "Table"): shared by the table
// sink and the proxy's live table, so that -v and --explain read the same in both.
#pragma once

#include <string>

#include "mcptriage/record.hpp"

namespace mcptriage {

/// What `-v` (`verbose`: the record's warnings, redacted and escaped) and `--explain` (`explain`:
/// the reason's paragraph, next step and spec link from the catalogue) print under the row of
/// `r`, wrapped at 100 columns, each line ending in '\n'; "" when neither is asked for.
std::string table_row_notes(const Record& r, bool explain, bool verbose);

}  // namespace mcptriage
