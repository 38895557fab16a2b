// Renderers: JSON Lines records and the human table. Pure functions from records to text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mcptriage/classify.hpp"

namespace mcptriage {

/// One output row: where it came from plus the verdict.
struct Record {
  std::string source;  ///< "file#N" (and "[i]" for batch elements)
  std::string format;  ///< detected capture format
  Classification c;
};

/// JSON Lines schema version written in every record as `schema` (docs/output.md).
inline constexpr int kSchemaVersion = 1;

/// One JSON object, no newline. Schema: docs/output.md. Strings are escaped per RFC 8259;
/// bytes that are not UTF-8 become U+FFFD; secrets are redacted (see redact()).
std::string render_jsonl(const Record& r);

/// Aligned table (header + one row per record, then an indented detail line each).
/// `color` adds ANSI colours to the outcome column. Untrusted text is escaped (escape_terminal).
std::string render_table(const std::vector<Record>& records, bool color);

/// RFC 8259 string escaping (without the quotes); invalid UTF-8 bytes become U+FFFD.
std::string json_escape(std::string_view s);

/// Replaces every byte sequence that is not valid UTF-8 (RFC 3629) with U+FFFD.
std::string to_valid_utf8(std::string_view s);

/// Makes untrusted text safe for a terminal: control characters (C0, DEL, C1) and ESC
/// become visible escapes (`\x1b`), invalid UTF-8 bytes become `\xNN`.
std::string escape_terminal(std::string_view s);

/// Hides credentials in free text: `Bearer <token>` and `Basic <creds>` become `Bearer [REDACTED]`,
/// `access_token=`/`refresh_token=`/`id_token=`/`api_key=`/`apikey=`/`token=` query values too.
std::string redact(std::string_view s);

}  // namespace mcptriage
