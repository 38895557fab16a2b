// Session output (render.hpp, "Sessions"): the `session` member of exchange records, skipped records, the summary
// record, and the table's summary lines (docs/output.md "Sessions").
#include <fmt/format.h>

#include <charconv>
#include <string>

#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

std::string jstr(std::string_view s) { return "\"" + json_escape(redact(s)) + "\""; }

std::string jstr_or_null(std::string_view s) { return s.empty() ? std::string("null") : jstr(s); }

std::string jopt(std::optional<std::size_t> v) { return v ? std::to_string(*v) : std::string("null"); }

std::string replay_json(const Replay& r) {
  return fmt::format(
      "{{\"source\":{},\"after\":\"{}\",\"safety\":\"{}\",\"decided_by\":{},\"who_retried\":{},\"same_id\":{}}}",
      jstr(r.of_source), to_string(r.after), to_string(r.safety), jstr(r.decided_by), jstr(r.who_retried), r.same_id);
}

std::string line_text(std::string_view s) { return escape_terminal(redact(s)); }

}  // namespace

void append_session_member(std::string& out, const SessionAnnotation& a) {
  out.reserve(out.size() + 256 + 6 * a.http_statuses.size());
  // Once per exchange record: appended in place, no temporary strings but for rare parts.
  auto num = [&out](std::size_t v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, end);
  };
  out += "\"session\":{\"entry\":";
  num(a.entry + 1);
  out += ",\"post_index\":";
  if (a.post_index) num(*a.post_index);
  else out += "null";
  out += ",\"http_statuses\":[";
  // Up to 32 statuses per record: written into one stack buffer, appended once.
  char buf[16 * SessionTracker::kMaxStatuses];
  char* p = buf;
  for (std::size_t i = 0; i < a.http_statuses.size() && i < SessionTracker::kMaxStatuses; ++i) {
    if (i) *p++ = ',';
    const int status = a.http_statuses[i];
    if (status >= 100 && status <= 999) {  // a status code: three digits (RFC 9110 §15)
      *p++ = static_cast<char>('0' + status / 100);
      *p++ = static_cast<char>('0' + status / 10 % 10);
      *p++ = static_cast<char>('0' + status % 10);
    } else {
      p = std::to_chars(p, buf + sizeof buf, status).ptr;
    }
  }
  out.append(buf, p);
  out += "],\"http_statuses_omitted\":";
  num(a.http_statuses_omitted);
  out += ",\"replay_of\":";
  out += a.replay ? replay_json(*a.replay) : std::string("null");
  out += ",\"schema_checked\":";
  out += a.schema_checked ? "true" : "false";
  out += ",\"findings\":[";
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    if (i) out += ',';
    out += fmt::format("{{\"code\":\"{}\",\"detail\":{}}}", a.findings[i].code, jstr(a.findings[i].detail));
  }
  out += "]}";
}

std::string render_session_member(const SessionAnnotation& a) {
  std::string out;
  append_session_member(out, a);
  return out;
}

void append_with_session_member(std::string& out, std::string_view record_json, const SessionAnnotation& a) {
  while (!record_json.empty() && (record_json.back() == '\n' || record_json.back() == ' ')) record_json.remove_suffix(1);
  if (record_json.empty() || record_json.back() != '}') {
    out.append(record_json);
    return;
  }
  out.append(record_json.substr(0, record_json.size() - 1));
  out += ',';
  append_session_member(out, a);
  out += '}';
}

std::string with_session_member(std::string record_json, const SessionAnnotation& a) {
  std::string out;
  out.reserve(record_json.size() + 256);
  append_with_session_member(out, record_json, a);
  return out;
}

std::string render_skipped_jsonl(std::string_view source, std::string_view format, const Skip& skip) {
  return fmt::format(
      "{{\"schema\":{},\"kind\":\"skipped\",\"skipped\":true,\"source\":{},\"format\":{},\"reason\":{},\"detail\":{}}}",
      kSchemaVersion, jstr(source), jstr(format), jstr(to_string(skip.reason)), jstr(skip.detail));
}

std::string render_summary_jsonl(std::string_view input, std::string_view format, const SessionSummary& s) {
  std::string out = fmt::format(
      "{{\"schema\":{},\"kind\":\"session_summary\",\"source\":{},\"format\":{},\"entries\":{},\"exchanges\":{},"
      "\"skipped\":{},\"records\":{},\"posts\":{},\"outcomes\":{{",
      kSchemaVersion, jstr(input), jstr(format), s.entries, s.entries - s.skipped, s.skipped, s.records, s.posts);
  bool first = true;
  for (const auto& [name, n] : s.outcomes) {
    out += fmt::format("{}\"{}\":{}", first ? "" : ",", name, n);
    first = false;
  }
  out += "},\"skipped_reasons\":{";
  first = true;
  for (const auto& [name, n] : s.skipped_reasons) {
    out += fmt::format("{}{}:{}", first ? "" : ",", jstr(name), n);
    first = false;
  }
  out += "},\"first_failure\":";
  if (s.first_failure) {
    const auto& f = *s.first_failure;
    out += fmt::format(
        "{{\"source\":{},\"post_index\":{},\"method\":{},\"outcome\":\"{}\",\"reason\":{},\"http_status\":{}}}",
        jstr(f.source), jopt(f.post_index), jstr_or_null(f.method), to_string(f.outcome), jstr(f.reason),
        f.http_status);
  } else {
    out += "null";
  }
  out += ",\"never_answered\":[";
  for (std::size_t i = 0; i < s.never_answered.size(); ++i) {
    const Unanswered& u = s.never_answered[i];
    out += fmt::format("{}{{\"source\":{},\"method\":{},\"id\":{},\"outcome\":\"{}\",\"http_status\":{}}}",
                       i ? "," : "", jstr(u.source), jstr_or_null(u.method), jstr(u.id), to_string(u.outcome),
                       u.http_status);
  }
  out += fmt::format("],\"never_answered_omitted\":{},\"methods_never_answered\":[", s.never_answered_omitted);
  for (std::size_t i = 0; i < s.methods_never_answered.size(); ++i) {
    out += (i ? "," : "") + jstr(s.methods_never_answered[i]);
  }
  out += "],\"replays\":[";
  for (std::size_t i = 0; i < s.replays.size(); ++i) {
    const auto& [source, r] = s.replays[i];
    out += fmt::format("{}{{\"source\":{},\"replay_of\":{}}}", i ? "," : "", jstr(source), replay_json(r));
  }
  out += fmt::format("],\"replays_omitted\":{},\"findings\":{{", s.replays_omitted);
  first = true;
  for (const auto& [code, n] : s.findings) {
    out += fmt::format("{}\"{}\":{}", first ? "" : ",", code, n);
    first = false;
  }
  out += "},\"notes\":[";
  for (std::size_t i = 0; i < s.notes.size(); ++i) out += (i ? "," : "") + jstr(s.notes[i]);
  out += "]}";
  return out;
}

std::string render_summary_table(std::string_view input, const SessionSummary& s,
                                 const std::vector<std::pair<std::string, Skip>>& skipped,
                                 const std::vector<std::pair<std::string, SessionAnnotation>>& notable,
                                 std::size_t skipped_omitted, std::size_t notable_omitted) {
  std::string counts;
  for (const auto& [name, n] : s.outcomes) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, name);
  std::string out = fmt::format("session {}: {} entr{} ({} exchange{}, {} skipped), {} POST{}{}{}\n", line_text(input),
                                s.entries, s.entries == 1 ? "y" : "ies", s.entries - s.skipped,
                                s.entries - s.skipped == 1 ? "" : "s", s.skipped, s.posts, s.posts == 1 ? "" : "s",
                                counts.empty() ? "" : ": ", counts);
  if (!s.methods_never_answered.empty()) {
    std::string list;
    for (const auto& m : s.methods_never_answered) list += (list.empty() ? "" : ", ") + m;
    out += "  never answered: " + line_text(list) + "\n";
  }
  for (const auto& note : s.notes) out += "  " + line_text(note) + "\n";
  for (const auto& [source, skip] : skipped) {
    out += fmt::format("  skipped {}: {}: {}\n", line_text(source), line_text(to_string(skip.reason)), line_text(skip.detail));
  }
  if (skipped_omitted > 0) out += fmt::format("  ... and {} more skipped entries\n", skipped_omitted);
  for (const auto& [source, a] : notable) {
    if (a.replay) {
      out += fmt::format("  replay {} of {} (after {}): {}, {}; who retried: {}\n", line_text(source),
                         line_text(a.replay->of_source), to_string(a.replay->after), to_string(a.replay->safety),
                         line_text(a.replay->decided_by), line_text(a.replay->who_retried));
    }
    for (const auto& f : a.findings) {
      out += fmt::format("  {} {}: {}\n", line_text(f.code), line_text(source), line_text(f.detail));
    }
  }
  if (notable_omitted > 0) {
    out += fmt::format("  ... and {} more entries with replays or findings (--format jsonl shows each on its record)\n",
                       notable_omitted);
  }
  return out;
}

}  // namespace mcptriage
