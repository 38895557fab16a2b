// Property checks shared by the fuzz targets: each aborts (a libFuzzer crash) on a violation.
#pragma once

#include <string_view>
#include <vector>

#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"
#include "mcptriage/render.hpp"

namespace fuzzcheck {

/// Prints `what` (and a short escaped `detail`) and aborts.
[[noreturn]] void fail(std::string_view what, std::string_view detail = {});

/// TOOL_SUCCESS, RPC_SUCCESS or ACCEPTED: the outcomes that claim the call worked.
bool is_success(mcptriage::Outcome o);

/// The classification of `ex` obeys "never success on incomplete evidence"
/// (shared/classification.md): no success for a body that was cut short, that did not parse,
/// or for an SSE stream without a delivered response; ACCEPTED only for 202 with no body.
/// One documented allowance: an SSE body cut short after the stream delivered a complete
/// response event is classified by that response (the contract's "stream that broke" rule).
void check_classification(const mcptriage::Exchange& ex, const mcptriage::Classification& c);

/// One render_jsonl line: valid UTF-8, parses as a single JSON object, no raw newline.
void check_jsonl_line(std::string_view line);

/// render_table output: valid UTF-8, no control bytes but LF, no C1 controls, and no ESC
/// except the outcome colours when `color` is set.
void check_table(std::string_view table, bool color);

/// classify + render_jsonl for every exchange, with the property checks, twice (the two runs
/// must give the same text); returns the records for a table.
std::vector<mcptriage::Record> classify_checked(const mcptriage::Exchange& ex,
                                                const mcptriage::ContextFlags& flags);

}  // namespace fuzzcheck
