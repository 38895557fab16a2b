// Property checks shared by the fuzz targets (see fuzz_checks.hpp).
#include "fuzz_checks.hpp"

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "json/rfc8259.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace fuzzcheck {

using mcptriage::BodyState;
using mcptriage::Outcome;

namespace {

constexpr long long kNow = 1796083200;  // fixed clock: determinism across runs

/// True when `text` is JSON by RFC 8259: simdjson parses it, or the exact grammar check reads it
/// (big integers, numbers beyond the double range, unpaired surrogate escapes: mcptriage judges
/// those, docs/classification.md) and simdjson parses its rewrite (UTF-8 is still simdjson's).
bool parses_as_json(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(simdjson::padded_string(text)).get(root) == simdjson::SUCCESS) return true;
  const auto rewritten = mcptriage::json::rfc8259::rewrite(text, 1024);
  return rewritten && parser.parse(simdjson::padded_string(rewritten->text)).get(root) == simdjson::SUCCESS;
}

/// The stream delivered (at least) one complete event whose data is a JSON-RPC response
/// object (a `result` or `error` member and no `method`) or a batch array.
bool stream_has_response(std::string_view body) {
  const mcptriage::sse::Stream stream = mcptriage::sse::parse(body);
  simdjson::dom::parser parser;
  for (const auto& ev : stream.events) {
    simdjson::padded_string padded(ev.data);
    simdjson::dom::element root;
    if (parser.parse(padded).get(root) != simdjson::SUCCESS) continue;
    if (root.is_array()) return true;
    simdjson::dom::object obj;
    if (root.get(obj) != simdjson::SUCCESS) continue;
    simdjson::dom::element ignored;
    const bool has_method = obj.at_key("method").get(ignored) == simdjson::SUCCESS;
    const bool has_result = obj.at_key("result").get(ignored) == simdjson::SUCCESS;
    if (!has_method && has_result) return true;
  }
  return false;
}

bool all_space(std::string_view s) {
  for (char ch : s) {
    if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') return false;
  }
  return true;
}

}  // namespace

void fail(std::string_view what, std::string_view detail) {
  std::string shown = mcptriage::escape_terminal(detail.substr(0, 400));
  std::fprintf(stderr, "\n*** fuzz property violated: %.*s\n    %s\n", static_cast<int>(what.size()),
               what.data(), shown.c_str());
  std::abort();
}

void check_classification(const mcptriage::Exchange& ex, const mcptriage::Classification& c) {
  const std::string_view reason = to_string(c.reason);
  if (mcptriage::outcome_of(c.reason) != c.outcome) fail("the reason belongs to another outcome", reason);
  if (c.layer != mcptriage::layer_of(c.outcome)) fail("layer does not match the outcome", reason);
  // A leg of MCP authorization that broke no rule (auth_leg_ok, auth_probe_miss) has no advice of
  // its own either: its flow's auth_flow record gives it (docs/auth.md).
  const bool passed_leg = c.reason == mcptriage::Reason::auth_leg_ok || c.reason == mcptriage::Reason::auth_probe_miss;
  if ((mcptriage::is_success(c.outcome) || passed_leg) != (c.retry.advice == mcptriage::Advice::none)) {
    fail("retry advice 'none' must go with success (or a passed authorization leg) and only with it", reason);
  }
  if (!mcptriage::is_success(c.outcome)) return;

  const mcptriage::Response& r = ex.response;
  const std::string what = std::string(to_string(c.outcome)) + " (" + std::string(reason) + ")";
  if (r.status < 200 || r.status > 299) fail("success on a non-2xx status", what);
  if (r.body_state == BodyState::absent || r.body_state == BodyState::not_captured) {
    fail("success without a captured body", what);
  }
  if (c.outcome == Outcome::ACCEPTED) {
    if (r.status != 202) fail("ACCEPTED on a status other than 202", what);
    if (!all_space(r.body)) fail("ACCEPTED with a body", r.body);
    if (r.body_state != BodyState::complete) fail("ACCEPTED although the capture was cut short", what);
    return;
  }
  const std::string media = mcptriage::http::media_type(c.content_type);
  const bool sse_route = r.transport_captured ? media == "text/event-stream" : ex.format == mcptriage::CaptureFormat::bare_sse;
  if (sse_route) {
    // A stream cut short after it delivered its response is classified by that response
    // (shared/classification.md, SSE); without a delivered response it never succeeds.
    if (!stream_has_response(r.body)) fail("success on a stream without a delivered response", what);
    return;
  }
  if (r.body_state == BodyState::truncated) fail("success on a body that was cut short", what);
  if (!parses_as_json(r.body)) fail("success on a body that does not parse as JSON", r.body);
}

void check_jsonl_line(std::string_view line) {
  if (!simdjson::validate_utf8(line.data(), line.size())) fail("JSONL line is not valid UTF-8", line);
  if (line.find('\n') != std::string_view::npos) fail("JSONL line holds a raw newline", line);
  // By RFC 8259: a record carries a big-integer id as it was written (valid JSON, refused by simdjson).
  if (!parses_as_json(line)) fail("JSONL line is not valid JSON", line);
  if (line.empty() || line.front() != '{' || line.back() != '}') fail("JSONL line is not an object", line);
}

void check_table(std::string_view table, bool color) {
  // The colour codes removed in one pass (erasing each in place was quadratic: a 600-row table
  // took 23 s under the sanitizers and timed out as a finding of its own).
  std::string text;
  text.reserve(table.size());
  for (std::size_t i = 0; i < table.size();) {
    bool code_here = false;
    if (color && table[i] == '\x1b') {
      for (std::string_view code : {"\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"}) {
        if (table.substr(i, code.size()) == code) {
          i += code.size();
          code_here = true;
          break;
        }
      }
    }
    if (!code_here) text += table[i++];
  }
  if (!simdjson::validate_utf8(text.data(), text.size())) fail("table is not valid UTF-8", text);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if ((u < 0x20 && u != '\n') || u == 0x7f) fail("table holds a control byte", text.substr(i, 40));
    if (u == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0) {
      fail("table holds a C1 control", text.substr(i, 40));
    }
  }
}

std::vector<mcptriage::Record> classify_checked(const mcptriage::Exchange& ex,
                                                const mcptriage::ContextFlags& flags) {
  const auto first = mcptriage::classify(ex, flags, kNow);
  const auto second = mcptriage::classify(ex, flags, kNow);
  if (first.empty()) fail("classify returned no record", ex.source);
  if (first.size() != second.size()) fail("classify is not deterministic (record count)", ex.source);
  std::vector<mcptriage::Record> records;
  for (std::size_t i = 0; i < first.size(); ++i) {
    check_classification(ex, first[i]);
    const mcptriage::SourceRef where{0, 1, first.size() > 1 ? std::optional<std::size_t>(i) : std::nullopt};
    mcptriage::Record a{where, ex.format, first[i]};
    mcptriage::Record b{where, ex.format, second[i]};
    const std::string line = mcptriage::render_jsonl(a, "fuzz");
    if (line != mcptriage::render_jsonl(b, "fuzz")) fail("classify is not deterministic (JSONL differs)", line);
    check_jsonl_line(line);
    records.push_back(std::move(a));
  }
  return records;
}

}  // namespace fuzzcheck
