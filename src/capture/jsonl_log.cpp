// JSON Lines readers: gateway exchange logs (one object per line with status, headers or media
// type, and a body or a parsed JSON-RPC message) and plain JSON-RPC message streams (the stdio
// framing), paired by id. Shapes accepted: docs/formats.md "JSON Lines". The reader's parts:
// jsonl_reader.hpp; what a line says: jsonl_lines.cpp; pairing: jsonl_pairing.cpp.
#include "capture/jsonl_reader.hpp"

namespace mcptriage::capture::jsonl {

std::expected<std::vector<Exchange>, CaptureError> JsonLinesReader::read(std::string_view text, bool padded,
                                                        bool more_follows,
                                                        std::span<const std::size_t> skip_lines) {
  padded_ = padded;
  std::size_t pos = 0;
  std::size_t line_no = first_line_;  // lines of the log before this text
  std::size_t next_skip = 0;
  std::vector<std::size_t> line_starts;  // byte offset of each line of `text`
  // The last point where no line waited for a later one: its line and the entries up to it.
  std::size_t quiet_line = first_line_;
  std::size_t quiet_entries = 0;
  while (pos < text.size()) {
    const std::size_t lf = text.find('\n', pos);
    std::string_view line = text.substr(pos, lf == npos ? npos : lf - pos);
    line_starts.push_back(pos);
    pos = lf == npos ? text.size() : lf + 1;
    ++line_no;
    while (next_skip < skip_lines.size() && skip_lines[next_skip] < line_no) ++next_skip;
    const bool skipped = next_skip < skip_lines.size() && skip_lines[next_skip] == line_no;
    if (!skipped) read_line(line, line_no);
    if (waiting()) continue;
    quiet_line = line_no;
    quiet_entries = pending_.size();
  }
  self_contained_ = !waiting();
  if (!self_contained_ && more_follows) {
    // The simple cut at the first waiting exchange, else after the last line after which
    // nothing waited (everything after it is read again).
    std::optional<Cut> at = cut_at_first_waiting(skip_lines);
    if (!at && quiet_entries > 0 && quiet_line - first_line_ < line_starts.size()) {
      at = Cut{quiet_entries, quiet_line + 1, {}};
      for (std::size_t line : skip_lines) {
        if (line > quiet_line) at->skip.push_back(line);
      }
    }
    if (at) keep_until(*at, line_starts);
  }
  finish();
  // Lines of a wrap recording that are no entry (the end of the host's input, the server's exit)
  // are no damage: a block of them alone holds no exchange.
  if (pending_.empty() && !stdio_events_) return std::unexpected(CaptureError{"JSON Lines: no line holds a JSON object"});
  if (pending_.empty()) return std::vector<Exchange>{};
  // A log of another shape: no line from the start of the log is a message or a logged
  // exchange (docs/formats.md "JSON Lines": an input error that says how to remap it).
  if (first_line_ == 0 && first_unknown_line_ &&
      std::all_of(pending_.begin(), pending_.end(),
                  [](const Pending& p) { return p.skip && p.skip->reason == SkipReason::invalid_line; })) {
    return std::unexpected(CaptureError{unrecognised_log_message()});
  }
  return to_exchanges();
}

std::expected<std::vector<Exchange>, CaptureError> JsonLinesReader::read_more(std::string_view text, bool padded,
                                                                               bool last,
                                                                               std::span<const std::size_t> skip_lines) {
  padded_ = padded;
  if (!more_started_) {
    more_started_ = true;
    line_no_ = first_line_;
  }
  const bool from_start = pending_.base() == 0;  // nothing was handed out yet
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t lf = text.find('\n', pos);
    const std::string_view line = text.substr(pos, lf == npos ? npos : lf - pos);
    pos = lf == npos ? text.size() : lf + 1;
    ++line_no_;
    while (!skip_lines.empty() && skip_lines.front() < line_no_) skip_lines = skip_lines.subspan(1);
    if (!skip_lines.empty() && skip_lines.front() == line_no_) continue;
    if (!is_blank(line)) any_line_ = true;
    read_line(line, line_no_);
  }
  server_answers_.clear();  // only a cut reads them (read())
  if (last) finish();
  // A log of another shape: no line from its start is a message or a logged exchange (read()).
  if (from_start && first_line_ == 0 && first_unknown_line_ && !pending_.empty() &&
      std::all_of(pending_.begin(), pending_.end(),
                  [](const Pending& p) { return p.skip && p.skip->reason == SkipReason::invalid_line; })) {
    return std::unexpected(CaptureError{unrecognised_log_message()});
  }
  if (last && from_start && pending_.empty() && any_line_ && !stdio_events_) {
    return std::unexpected(CaptureError{"JSON Lines: no line holds a JSON object"});
  }
  // What no later line changes: the entries before the first one still open (a reply, the
  // events before it, a server's exit only ever change an open entry; a stream flushed without
  // one makes a new entry at the end).
  const std::size_t end = (last || open_.empty()) ? pending_.size() : *open_.begin();
  std::vector<Exchange> out = to_exchanges(end);
  if (!line_keys_.empty()) {
    std::size_t keep_from = pending_.empty() ? line_no_ + 1 : pending_[pending_.base()].first_line;
    if (!stream_.empty()) keep_from = std::min(keep_from, stream_first_line_);
    if (!join_.lines.empty()) keep_from = std::min(keep_from, join_.lines.front().line);
    line_keys_.erase(line_keys_.begin(), line_keys_.lower_bound(keep_from));
  }
  return out;
}

std::string JsonLinesReader::jq_path(std::initializer_list<std::string_view> words, std::string_view placeholder) const {
  for (std::string_view w : words) {
    for (const std::string& key : first_unknown_keys_) {
      if (http::lower(key).find(w) == npos) continue;
      const bool ident = !key.empty() && key.find_first_not_of(
                                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == npos &&
                         !(key[0] >= '0' && key[0] <= '9');
      if (ident) return "." + key;
      std::string quoted = ".\"";
      for (char c : key) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      return quoted + "\"";
    }
  }
  return std::string(placeholder);
}

std::string JsonLinesReader::unrecognised_log_message() const {
  std::string keys;
  for (const std::string& k : first_unknown_keys_) keys += (keys.empty() ? "" : ", ") + k;
  if (keys.empty()) keys = "none";
  return "JSON Lines: no line is a JSON-RPC message or a logged exchange (line " + std::to_string(*first_unknown_line_) +
         " has the members " + keys +
         "); looked for `jsonrpc` (a bare message), or a status (status, status_code, statusCode, http_status, "
         "httpStatus; also in `http` or `response`), a body (message, msg, payload, body, response_body, text), "
         "`request`, `response` or a direction (dir, direction). Remap each line to the exchange-log shape "
         "(docs/formats.md, \"JSON Lines\"), for example: jq -c '{status: " +
         jq_path({"status", "code"}, ".STATUS") + ", headers: " + jq_path({"header"}, ".HEADERS") +
         ", body: " + jq_path({"body", "resp", "payload", "output", "result"}, ".BODY") +
         ", request: " + jq_path({"req", "input", "param"}, ".REQUEST") + "}' LOG > exchanges.jsonl";
}

}  // namespace mcptriage::capture::jsonl

namespace mcptriage::capture {

using jsonl::JsonLinesReader;
using jsonl::looks_logged;
using jsonl::trim_line;
using jsonl::npos;

namespace {

/// A log whose first line does not parse (invalid UTF-8, a syntax error, nesting past
/// simdjson's limit) is still a log when that line looks like one whole object and one of the
/// next lines parses as a logged exchange or a JSON-RPC message: the bad line is then one
/// skipped entry, not the whole input read as one broken body. A pretty-printed JSON body
/// never qualifies: its first line does not end its object.
bool log_after_bad_first_line(json::Parser& parser, std::string_view first, std::string_view rest) {
  if (first.size() < 2 || first.back() != '}') return false;
  constexpr int kLinesLooked = 16;
  int looked = 0;
  for (std::size_t pos = 0; pos < rest.size() && looked < kLinesLooked;) {
    const std::string_view line = trim_line(take_line(rest, pos));
    if (line.empty()) continue;
    ++looked;
    if (line.front() != '{') continue;
    auto root = parser.parse(line);
    if (!root) continue;
    return root->is_object() && (looks_logged(*root) || root->get("jsonrpc"));
  }
  return false;
}

}  // namespace

bool sniff_json_lines(std::string_view text) {
  if (text.empty() || text.front() != '{') return false;
  const std::size_t lf = text.find('\n');
  std::string_view first = trim_line(text.substr(0, lf));
  json::Parser parser;
  auto root = parser.parse(first);
  if (!root) return lf != npos && log_after_bad_first_line(parser, first, text.substr(lf + 1));
  if (!root->is_object()) return false;
  if (looks_logged(*root)) return true;
  // A bare message: JSON Lines only when another object (or batch) starts a line among the next
  // few lines, so that a broken line in a log does not turn it into one body with trailing data.
  constexpr int kLinesLooked = 16;
  int looked = 0;
  for (std::size_t pos = lf == npos ? text.size() : lf + 1; pos < text.size() && looked < kLinesLooked;) {
    const std::string_view line = trim_line(take_line(text, pos));
    if (line.empty()) continue;
    if (line.front() == '{' || line.front() == '[') return true;
    ++looked;
  }
  return false;
}

std::expected<std::vector<Exchange>, CaptureError> read_json_lines(std::string_view bytes, std::string_view name,
                                                                   const CaptureOptions& options) {
  JsonLinesReader reader(name, options);
  return reader.read(bytes);
}

std::expected<JsonLinesBlock, CaptureError> read_json_lines_block(std::string_view lines, std::string_view name,
                                                                  std::size_t first_index, const CaptureOptions& options,
                                                                  std::size_t first_line, bool padded,
                                                                  bool more_follows,
                                                                  std::span<const std::size_t> skip_lines) {
  JsonLinesReader reader(name, options, first_index, first_line);
  auto exchanges = reader.read(lines, padded, more_follows, skip_lines);
  if (!exchanges) return std::unexpected(std::move(exchanges.error()));
  return JsonLinesBlock{std::move(*exchanges), reader.self_contained(), reader.any_wrapped(), reader.consumed(),
                        reader.consumed_lines(), reader.carry_skip()};
}

}  // namespace mcptriage::capture

namespace mcptriage {

CaptureFormat lines_format(bool wrapped) { return wrapped ? CaptureFormat::exchange_log : CaptureFormat::jsonrpc_messages; }

}  // namespace mcptriage
