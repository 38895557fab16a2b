// The JSON Lines output (render.hpp, make_jsonl_sink): one record per line, skipped records in
// their place, a session summary after a session's records (docs/output.md).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

void append_ms(std::string& out, const std::optional<double>& v) {
  if (v) out += fmt::format("{:.3f}", *v);
  else out += "null";
}

class JsonLinesSink final : public RecordSink {
 public:
  explicit JsonLinesSink(Output& out) : out_(out) {}

  bool prepares() const override { return true; }

  void prepare(const Record& r, std::string& text) const override {
    // Rendered in place into room for the largest tail this thread has rendered so far: one
    // allocation per record, no copy (a tail is about half the size of its log line).
    thread_local std::size_t room = 1024;
    text.reserve(room);
    append_jsonl_tail(text, r);
    room = std::max(room, std::min<std::size_t>(text.size() + 64, 4096));  // bounded: blocks hold their texts
  }

  void begin_input(const InputInfo& input) override { name_ = input.name; }

  void record(const Record& r, const Check&, std::string_view prepared) override {
    std::string& out = out_.buffer();
    append_jsonl_head(out, r, name_);
    if (prepared.empty()) append_jsonl_tail(out, r);
    else out += prepared;  // the worker's text, not rendered again
    if (r.session) {
      // The member goes before the closing brace, the last byte of the record.
      out.pop_back();
      out += ',';
      append_session_member(out, *r.session);
      out += '}';
    }
    if (r.auth) {
      out.pop_back();
      out += ',';
      append_auth_member(out, *r.auth);
      out += '}';
    }
    if (r.timing) {
      // Read live (docs/output.md "timing"): milliseconds from the exchange's first byte, as the
      // proxy writes its timing (3 decimals, null for what did not come).
      out.pop_back();
      out += ",\"timing\":{\"first_byte_ms\":";
      append_ms(out, r.timing->first_byte_ms);
      out += ",\"first_event_ms\":";
      append_ms(out, r.timing->first_event_ms);
      out += ",\"final_ms\":";
      append_ms(out, r.timing->final_ms);
      out += "}}";
    }
    if (r.live_members && !r.live_members->empty()) {
      out.pop_back();
      out += ',';
      out += *r.live_members;
      out += '}';
    }
    out += '\n';
    out_.commit();
  }

  void skipped(const SkippedEntry& e) override {
    std::string& out = out_.buffer();
    out += render_skipped_jsonl(source_text(name_, e.source), to_string(e.format), e.skip);
    out += '\n';
  }

  void auth_flow(const AuthFlow& flow, const Check&) override {
    std::string& out = out_.buffer();
    out += render_auth_flow_jsonl(flow);
    out += '\n';
  }

  void event(const StreamEvent& e) override {
    std::string& out = out_.buffer();
    out += render_event_jsonl(source_text(name_, e.source), e);
    out += '\n';
  }

  void note(const Note& n) override {
    std::string& out = out_.buffer();
    out += n.jsonl;
    out += '\n';
  }

  void end_session(const SessionEnd& end) override {
    if (end.summary == nullptr) return;
    std::string& out = out_.buffer();
    out += render_summary_jsonl(end.name, to_string(end.format), *end.summary);
    out += '\n';
  }

  void flush() override { out_.flush(); }
  void finish() override { out_.flush(); }

 private:
  Output& out_;
  std::string name_;
};

}  // namespace

std::unique_ptr<RecordSink> make_jsonl_sink(Output& out) { return std::make_unique<JsonLinesSink>(out); }

}  // namespace mcptriage
