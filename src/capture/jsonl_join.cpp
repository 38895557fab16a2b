// JSON Lines reader: a JSON-RPC message broken over lines (pretty-printed on a stdio stream), joined
// back and read as the one message it was; its lines judged one by one when they never make one.
// Rules and bounds: docs/formats.md "A message broken over lines".
#include "capture/jsonl_reader.hpp"

namespace mcptriage::capture::jsonl {

namespace {

bool opens_value(std::string_view text) { return !text.empty() && (text.front() == '{' || text.front() == '['); }

bool is_white(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

JsonLinesReader::Scan JsonLinesReader::scan_join(std::string_view text) {
  Join& j = join_;
  bool closed = false;  // the value closed on this line: only white space may follow
  for (char c : text) {
    if (j.in_string) {
      if (j.escaped) j.escaped = false;
      else if (c == '\\') j.escaped = true;
      else if (c == '"') j.in_string = false;
      continue;
    }
    if (closed) {
      if (!is_white(c)) return Scan::broken;
      continue;
    }
    switch (c) {
      case '"': j.in_string = true; break;
      case '{':
      case '[': ++j.depth; break;
      case '}':
      case ']':
        if (j.depth == 0) return Scan::broken;
        if (--j.depth == 0) closed = true;
        break;
      default: break;
    }
  }
  if (j.in_string) return Scan::broken;  // a JSON string holds no raw line break
  return closed ? Scan::closed : Scan::open;
}

bool JsonLinesReader::join_line(std::string_view text, std::size_t line_no, std::string_view parse_error,
                                Item* stdio_item) {
  if (options_.rows) return false;  // row mode: one row per line
  const bool stdio = stdio_item != nullptr;
  const Side side = stdio ? stdio_item->side : Side::unknown;
  if (!join_.lines.empty()) {
    const bool fits = join_.stdio == stdio && join_.side == side && join_.lines.size() < kJoinMaxLines &&
                      join_.text.size() + 1 + text.size() <= kJoinMaxBytes;
    if (!fits) {
      // The line that ends a join starts none: it is judged alone, so nothing waits after it
      // (a log read in blocks is cut there; docs/performance.md), however the lines go on.
      end_join();
      return false;
    }
  }
  const bool start = join_.lines.empty();
  if (start) {
    // Only a line that opens an object or array it does not close starts a message.
    if (!opens_value(trim_line(text)) || text.size() > kJoinMaxBytes) return false;
    join_.stdio = stdio;
    join_.side = side;
    join_.depth = 0;
    join_.in_string = false;
    join_.escaped = false;
    join_.text.clear();
  }
  const Scan scan = scan_join(text);
  if (start && scan != Scan::open) {
    join_.text.clear();
    return false;  // no join: the line is judged as it is
  }
  if (!start) join_.text += '\n';
  HeldLine held;
  held.line = line_no;
  held.from = join_.text.size();
  held.size = text.size();
  held.parse_error = parse_error;
  if (stdio) {
    held.t = stdio_item->time.started_unix_ns;
    held.bytes = stdio_item->stdio_size;
    held.warnings = std::move(stdio_item->proxy_warnings);
    stdio_events_ = true;
  }
  join_.text += text;
  join_.lines.push_back(std::move(held));
  if (scan == Scan::open) return true;
  if (scan == Scan::closed) {
    const std::size_t first = join_.lines.front().line;
    const std::size_t count = join_.lines.size();
    if (auto root = parser_for_bodies_.parse_string(join_.text)) {
      const bool message = (root->is_array() || (root->is_object() && root->get("jsonrpc").has_value())) &&
                           root->string_at("transport") != "stdio" &&
                           inspect_message(*root).kind != MessageKind::not_jsonrpc;
      if (message) {
        read_joined(*root, first, line_no, count);
        return true;
      }
    }
  }
  end_join();  // not one message: each line as before
  return true;
}

bool JsonLinesReader::stdio_line_joins(const Item& it) {
  if (options_.rows) return false;
  const std::string_view text = trim_line(it.stdio_text);
  if (!opens_value(text)) return true;
  const std::string padded = json::padded_copy(text);
  auto root = parser_for_bodies_.parse(std::string_view(padded.data(), text.size()), true);
  return !root || (!root->is_object() && !root->is_array());
}

void JsonLinesReader::end_join() {
  if (join_.lines.empty()) return;
  Join j = std::move(join_);
  join_ = Join{};
  for (HeldLine& h : j.lines) {
    const std::string_view text = std::string_view(j.text).substr(h.from, h.size);
    if (j.stdio) {
      Item it;
      it.line = h.line;
      it.side = j.side;
      it.stdio = Item::Stdio::text;
      it.stdio_text = std::string(text);
      it.stdio_size = h.bytes;
      it.time.started_unix_ns = h.t;
      it.proxy_warnings = std::move(h.warnings);
      handle_stdio(std::move(it));
    } else if (!h.parse_error.empty()) {
      add_skip(h.line, SkipReason::invalid_line,
               "line " + std::to_string(h.line) + " is not valid JSON (" + std::string(h.parse_error) + ")",
               /*not_json=*/true);
    } else {
      add_skip(h.line, SkipReason::invalid_line, "line " + std::to_string(h.line) + " is not a JSON object");
    }
  }
  // Keep the text's buffer for the next join when it is small.
  if (j.text.capacity() <= (std::size_t{64} << 10)) {
    j.text.clear();
    join_.text = std::move(j.text);
  }
}

void JsonLinesReader::read_joined(View root, std::size_t first, std::size_t last, std::size_t count) {
  Join j = std::move(join_);
  join_ = Join{};
  Item it;
  if (j.stdio) {
    // As read_stdio_item reads a `message` member, with the lines' direction, time and warnings.
    it.line = first;
    it.stdio = Item::Stdio::message;
    it.side = j.side;
    it.time.started_unix_ns = j.lines.front().t;
    for (HeldLine& h : j.lines) {
      for (std::string& w : h.warnings) it.proxy_warnings.push_back(std::move(w));
    }
    it.message = json_text(root);
    it.info = inspect_message(root);
    if (it.side == Side::client) {
      Request r;
      r.body = it.message;
      r.info = jsonrpc::read_request(root);
      it.request = std::move(r);
    }
  } else {
    it = read_item(root, json_text(root), first);
  }
  it.broken_lines = count;
  it.last_line = last;
  switch (it.side) {
    case Side::client: return handle_client(std::move(it));
    case Side::server: return handle_server(std::move(it));
    case Side::full:
    case Side::unknown: return;  // not reached: a bare message always has a side
  }
}

std::string JsonLinesReader::broken_text(bool host, std::string_view what, const Item& it, bool answers_call) {
  return std::string(host ? "the host wrote " : "the server wrote ") + std::string(what) + " over " +
         std::to_string(it.broken_lines) + " lines (lines " + std::to_string(it.line) + " to " +
         std::to_string(it.last_line) +
         "), not on one: stdio messages MUST NOT contain embedded newlines (MCP 2025-11-25 transports, stdio); a "
         "strict " +
         (host ? "server parses none of the lines (and may answer each with -32700 Parse error)"
               : answers_call ? "host parses none of the lines (the TypeScript SDK client 1.32.2 reports an error for "
                                "each to onerror, drops it, and times out the call: -32001)"
                              : "host parses none of the lines (the TypeScript SDK client 1.32.2 reports an error for "
                                "each to onerror and drops it)");
}

void JsonLinesReader::add_broken_entry(Item& it, std::string_view what) {
  Pending p;
  p.first_line = it.line;
  p.answered = true;
  p.time = it.time;
  p.stdio = StdioEnd::broken_message;
  p.stdio_detail = broken_text(it.side == Side::client, what, it, false) + "; the message is lost";
  p.body = it.message.value_or("");
  p.warnings = std::move(it.proxy_warnings);
  add(std::move(p));
}

}  // namespace mcptriage::capture::jsonl
