// The sinks of `mcptriage stats` (sinks.hpp).
#include "stats/sinks.hpp"

#include <fmt/format.h>

#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::stats {

StatsSink::StatsSink(Output& out, StatsSinkOptions options) : out_(out), options_(std::move(options)) {}

void StatsSink::begin_input(const InputInfo&) { summary_.add_input(); }

void StatsSink::record(const Record& r, const Check&, std::string_view) {
  summary_.add(r);
  // A replay is an entry's: counted on its first record only.
  if (r.session && r.session->replay && (!r.source.element || *r.source.element == 0))
    summary_.add_replay(r.session->replay->same_id);
}

void StatsSink::skipped(const SkippedEntry& entry) { summary_.add_skipped(to_string(entry.skip.reason)); }

void StatsSink::input_failed(std::string_view, std::string_view) { summary_.add_input_error(); }

void StatsSink::write() {
  out_.buffer() += options_.format == Format::json ? to_json(summary_, options_.write)
                                                   : to_table(summary_, options_.color, options_.write);
  out_.flush();
}

void StatsSink::flush() {
  if (!options_.interval) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < *options_.interval) return;
  last_ = now;
  if (options_.format == Format::table) out_.buffer() += "\n";
  write();
}

void StatsSink::finish() { write(); }

namespace {

void append_row_head(std::string& out, const Record* r) {
  out += fmt::format("{{\"line\":{}", r ? r->line : 0);
  if (r && r->key) {
    out += ",\"key\":";
    append_json_string(out, *r->key);
  } else {
    out += ",\"key\":null";
  }
}

}  // namespace

void RowSink::record(const Record& r, const Check&, std::string_view) {
  if (r.source.element && *r.source.element > 0) return;  // a batch reply: one row, its first element
  std::string& out = out_.buffer();
  append_row_head(out, &r);
  out += fmt::format(",\"outcome\":\"{}\",\"layer\":\"{}\",\"reason\":\"{}\",\"failed\":{},\"method\":", to_string(r.c.outcome),
                     to_string(r.c.layer), to_string(r.c.reason), is_success(r.c.outcome) ? "false" : "true");
  append_json_string(out, redact(r.c.method));
  out += ",\"tool\":";
  append_json_string(out, redact(r.c.tool));
  out += ",\"server\":";
  append_json_string(out, r.facts ? redact(r.facts->server) : std::string());
  out += fmt::format(",\"http_status\":{},\"error_code\":", r.c.http_status);
  out += r.c.error_code ? std::to_string(*r.c.error_code) : "null";
  out += ",\"latency_ms\":";
  const std::optional<double> ms = r.time.duration_ms ? r.time.duration_ms : r.timing ? r.timing->final_ms : std::nullopt;
  out += ms ? fmt::format("{}", *ms) : "null";
  out += "}\n";
  out_.commit();
}

void RowSink::skipped(const SkippedEntry& entry) {
  std::string& out = out_.buffer();
  append_row_head(out, entry.record);
  out += fmt::format(",\"skipped\":\"{}\",\"input_error\":{},\"detail\":", to_string(entry.skip.reason),
                     entry.skip.not_json ? "true" : "false");
  append_json_string(out, redact(entry.skip.detail));
  out += "}\n";
  out_.commit();
}

}  // namespace mcptriage::stats
