// The Book (book.hpp): recorded answers by call, the id rewrite, and the closest-call message.
#include "mock/book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/render.hpp"
#include "proxy/json_peek.hpp"
#include "proxy/sse_framer.hpp"

namespace mcptriage::mock {
namespace {

constexpr std::string_view kRedacted = "[REDACTED]";

/// Response headers that belong to the recorded connection, not to the answer: the replay server
/// frames the body itself (RFC 9110 §7.6.1 hop-by-hop fields, §8.6 Content-Length; the body was
/// decoded when read, so its Content-Encoding no longer applies).
bool framing(std::string_view name) {
  for (std::string_view f : {"content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding",
                             "date", "upgrade", "proxy-connection", "te", "trailer"}) {
    if (http::iequals(name, f)) return true;
  }
  return false;
}

std::string shorten(std::string s, std::size_t n = 80) {
  if (s.size() > n) s = s.substr(0, n) + "...";
  return s;
}

/// The `params` of a message as minified JSON ("" when it has none or is no JSON).
std::string params_of(std::string_view body) {
  json::Parser parser;
  auto root = parser.parse(body);
  if (!root) return {};
  auto params = root->get("params");
  return params ? json::minified(*params) : std::string();
}

bool differ(json::View a, json::View b, std::string& at, std::string& what, bool top) {
  if (a.type() != b.type() && !(a.is_number() && b.is_number())) {
    what = fmt::format("recorded {}, sent {}", shorten(json::minified(a)), shorten(json::minified(b)));
    return true;
  }
  if (a.is_object()) {
    for (const json::Member& m : a.members()) {
      if (top && m.key == "_meta") continue;
      auto other = b.get(m.key);
      const std::string here = at + "/" + std::string(m.key);
      if (!other) {
        at = here;
        what = fmt::format("recorded {}, not sent", shorten(json::minified(m.value)));
        return true;
      }
      std::string sub = here;
      if (differ(m.value, *other, sub, what, false)) {
        at = sub;
        return true;
      }
    }
    for (const json::Member& m : b.members()) {
      if (top && m.key == "_meta") continue;
      if (!a.get(m.key)) {
        at += "/" + std::string(m.key);
        what = fmt::format("not recorded, sent {}", shorten(json::minified(m.value)));
        return true;
      }
    }
    return false;
  }
  if (a.is_array()) {
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      auto x = a.at(i);
      auto y = b.at(i);
      std::string sub = at + "/" + std::to_string(i);
      if (!x || !y) {
        at = sub;
        what = x ? fmt::format("recorded {}, not sent", shorten(json::minified(*x)))
                 : fmt::format("not recorded, sent {}", shorten(json::minified(*y)));
        return true;
      }
      if (differ(*x, *y, sub, what, false)) {
        at = sub;
        return true;
      }
    }
    return false;
  }
  if (json::minified(a) != json::minified(b)) {
    what = fmt::format("recorded {}, sent {}", shorten(json::minified(a)), shorten(json::minified(b)));
    return true;
  }
  return false;
}

/// An SSE block with the id of the JSON-RPC message in its data rewritten (the data lines joined,
/// rewritten, written back as data lines in place of the first).
std::string block_with_id(std::string_view block, std::string_view id_json) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < block.size()) {
    std::size_t end = block.find('\n', start);
    if (end == std::string_view::npos) end = block.size();
    lines.push_back(block.substr(start, end - start));
    start = end + 1;
  }
  std::string data;
  bool any = false;
  for (std::string_view l : lines) {
    std::string_view v = l;
    if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
    if (!v.starts_with("data:")) continue;
    v.remove_prefix(5);
    if (v.starts_with(' ')) v.remove_prefix(1);
    if (any) data += '\n';
    data.append(v);
    any = true;
  }
  if (!any) return std::string(block);
  const std::string rewritten = with_id(data, id_json);
  std::string out;
  bool written = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    const bool last = i + 1 == lines.size();
    std::string_view v = l;
    if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
    if (v.starts_with("data:")) {
      if (written) continue;
      std::size_t s = 0;
      while (s <= rewritten.size()) {
        std::size_t e = rewritten.find('\n', s);
        if (e == std::string::npos) e = rewritten.size();
        out += "data: ";
        out.append(rewritten, s, e - s);
        out += '\n';
        s = e + 1;
      }
      written = true;
      continue;
    }
    out.append(l);
    if (!last || block.ends_with('\n')) out += '\n';
  }
  return out;
}

/// The session id served for a recorded one: the same, unless redaction shortened it to something
/// a session id may not hold (MCP transports, Session Management: visible ASCII, 0x21 to 0x7E; a
/// redacted recording keeps the first bytes and an ellipsis), then `mock-` and a hash of it, the
/// same for the same recorded id.
std::string served_session_id(std::string_view recorded) {
  const bool visible = !recorded.empty() && std::all_of(recorded.begin(), recorded.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) <= 0x7e;
  });
  if (visible) return std::string(recorded);
  return fmt::format("mock-{:016x}", json::hash_bytes(recorded, 0));
}

}  // namespace

std::string with_id(std::string_view body, std::string_view id_json) {
  if (id_json.empty()) return std::string(body);
  json::Parser parser;
  auto root = parser.parse(body);
  if (!root || !root->is_object() || !root->get("id")) return std::string(body);
  auto range = json::member_value_range(body, {"id"});
  if (!range) return std::string(body);
  std::string out(body.substr(0, range->begin));
  out += id_json;
  out.append(body.substr(range->end));
  return out;
}

std::string first_difference(std::string_view recorded, std::string_view sent) {
  json::Parser pa;
  json::Parser pb;
  auto a = pa.parse(recorded.empty() ? std::string_view("{}") : recorded);
  auto b = pb.parse(sent.empty() ? std::string_view("{}") : sent);
  if (!a || !b) return recorded == sent ? std::string() : "params: not JSON";
  std::string at;
  std::string what;
  if (!differ(*a, *b, at, what, true)) return {};
  return fmt::format("{}: {}", at.empty() ? "params" : at, what);
}

Book::Book(Book&& other) noexcept = default;
Book& Book::operator=(Book&& other) noexcept = default;

std::expected<Book, std::string> Book::build(std::vector<Exchange> exchanges) {
  Book book;
  bool path_set = false;
  std::map<std::pair<std::string, std::uint64_t>, bool> disagree_noted;
  for (Exchange& x : exchanges) {
    if (x.format == CaptureFormat::jsonrpc_messages) {
      return std::unexpected(fmt::format(
          "{} is a message stream (stdio: a recording of mcptriage wrap, or a log of bare JSON-RPC messages), not "
          "HTTP exchanges: mcptriage mock serves Streamable HTTP recordings (the proxy's .jsonl or .har, a HAR file, "
          "an exchange log)",
          x.source));
    }
    if (x.skipped || !x.request || (!x.request->body && !x.request->info) || !x.response.transport_captured ||
        x.response.body_state == BodyState::not_captured || x.response.status == 0 ||
        (!x.request->method_line.empty() && x.request->method_line != "POST")) {
      ++book.left_out_;
      continue;
    }
    const Request& req = *x.request;
    // A body logged as a JSON value is kept only as what it says (Request::info), not as text.
    const RequestInfo info = req.body ? jsonrpc::read_request(*req.body) : *req.info;
    if (info.shape != RequestInfo::Shape::message || (!info.method && !info.response)) {
      ++book.left_out_;
      continue;
    }
    Entry e;
    e.source = x.source;
    e.method = info.method.value_or(std::string());
    e.tool = info.tool_name;
    e.params_known = req.body.has_value();
    if (req.body) e.params = params_of(*req.body);
    e.request_id = info.notification || !info.id ? std::string() : info.id->to_json();
    e.status = x.response.status;
    for (const Header& h : x.response.headers) {
      if (!framing(h.name)) e.headers.push_back(h);
    }
    for (Header& h : e.headers) {
      if (http::iequals(h.name, "mcp-session-id")) h.value = served_session_id(h.value);
    }
    e.body = x.response.body;
    const auto ct = find_header(x.response.headers, "content-type");
    e.event_stream = ct && ct->find("text/event-stream") != std::string_view::npos;
    if (!book.redacted_) {
      book.redacted_ = e.body.find(kRedacted) != std::string::npos ||
                       (req.body && req.body->find(kRedacted) != std::string::npos);
      for (const Header& h : x.response.headers) {
        // redact.hpp: credentials become [REDACTED], a session id its first 8 characters and an ellipsis.
        book.redacted_ = book.redacted_ || h.value.find(kRedacted) != std::string::npos ||
                         (http::iequals(h.name, "mcp-session-id") && h.value.ends_with("\xE2\x80\xA6"));
      }
    }
    if (e.method == "initialize") {
      if (auto sid = find_header(x.response.headers, "mcp-session-id")) book.issued_.emplace(served_session_id(*sid));
    } else if (find_header(req.headers, "mcp-session-id") && !info.notification) {
      book.sessions_required_ = true;
    }
    if (!path_set && !req.target.empty()) {
      std::string_view t = req.target;
      if (const auto scheme = t.find("://"); scheme != std::string_view::npos) {
        const auto slash = t.find('/', scheme + 3);
        t = slash == std::string_view::npos ? std::string_view("/") : t.substr(slash);
      }
      book.path_ = std::string(t);
      path_set = true;
    }
    const auto key = std::pair{e.method + (info.response ? "#response" : ""), info.params_hash};
    Call& call = book.calls_[key];
    if (!call.answers.empty() && !disagree_noted[key]) {
      const Entry& first = call.answers.front();
      if (first.status != e.status || with_id(first.body, "0") != with_id(e.body, "0")) {
        disagree_noted[key] = true;
        book.notes_.push_back(fmt::format("{} and {}: the same {} answered differently; served in recorded order",
                                          first.source, e.source, e.method));
      }
    }
    call.answers.push_back(std::move(e));
    ++book.entries_;
  }
  if (book.entries_ == 0) {
    return std::unexpected(fmt::format("no recorded MCP exchange with its request and response to serve ({} left out)",
                                       book.left_out_));
  }
  return book;
}

std::size_t Book::unmatched() const {
  std::lock_guard lock(*mu_);
  return unmatched_;
}

Answer Book::error_answer(int status, std::string_view id_json, int code, std::string message) {
  Answer a;
  a.status = status;
  a.matched = false;
  a.headers.push_back({"Content-Type", "application/json"});
  std::string body = "{\"jsonrpc\":\"2.0\",\"id\":";
  body += id_json.empty() ? std::string_view("null") : id_json;
  body += ",\"error\":{\"code\":" + std::to_string(code) + ",\"message\":";
  append_json_string(body, message);
  body += "}}";
  a.pieces.push_back(std::move(body));
  return a;
}

Answer Book::unmatched_answer(std::string_view method, std::string_view tool, std::string_view params,
                              std::string_view id_json) {
  const Entry* closest = nullptr;
  for (const auto& [key, call] : calls_) {
    const Entry& e = call.answers.front();
    if (e.method != method) continue;
    if (closest == nullptr || (e.tool == tool && closest->tool != tool)) closest = &e;
  }
  auto name = [](std::string_view m, std::string_view t) {
    return t.empty() ? std::string(m) : fmt::format("{} (tool \"{}\")", m, t);
  };
  std::string message = fmt::format("mcptriage mock: no recorded call matches this {}", name(method, tool));
  if (closest != nullptr) {
    message += fmt::format("; the closest recorded: {} at {}, where {}", name(closest->method, closest->tool),
                           closest->source,
                           closest->params_known ? first_difference(closest->params, params)
                                                 : std::string("its params differ (the recording keeps their hash only)"));
  } else {
    std::set<std::string> methods;
    for (const auto& [key, call] : calls_) methods.insert(call.answers.front().method);
    std::string list;
    for (const std::string& m : methods) list += (list.empty() ? "" : ", ") + m;
    message += fmt::format("; no {} was recorded (recorded: {})", method, list);
  }
  return error_answer(200, id_json, -32603, std::move(message));
}

Answer Book::answer(std::string_view http_method, const Headers& headers, std::string_view body) {
  std::lock_guard lock(*mu_);
  const auto sid = find_header(headers, "mcp-session-id");
  if (http_method == "GET") {
    Answer a;
    a.status = 405;
    a.headers.push_back({"Allow", "POST, DELETE"});
    return a;
  }
  if (http_method == "DELETE") {
    Answer a;
    a.status = sid && issued_.contains(std::string(*sid)) ? 200 : 404;
    return a;
  }
  if (http_method != "POST") {
    Answer a;
    a.status = 405;
    a.headers.push_back({"Allow", "POST, GET, DELETE"});
    return a;
  }
  const RequestInfo info = jsonrpc::read_request(body);
  const proxy::Peek peek = proxy::peek_message(body);
  if (info.shape != RequestInfo::Shape::message || (!info.method && !info.response)) {
    ++unmatched_;
    return error_answer(400, "", -32700, "mcptriage mock: the request body is not one JSON-RPC message");
  }
  const std::string method = info.method.value_or(std::string());
  if (method != "initialize" && sessions_required_ && !info.notification) {
    if (!sid) {
      ++unmatched_;
      return error_answer(400, peek.id_json, -32000,
                          "Bad Request: Mcp-Session-Id header is required (the recorded server required it)");
    }
    if (!issued_.contains(std::string(*sid))) {
      ++unmatched_;
      return error_answer(404, peek.id_json, -32001, "Session not found");
    }
  }
  const auto key = std::pair{method + (info.response ? "#response" : ""), info.params_hash};
  auto it = calls_.find(key);
  if (it == calls_.end()) {
    if (info.notification) {
      Answer a;
      a.status = 202;
      return a;
    }
    ++unmatched_;
    return unmatched_answer(method, info.tool_name, params_of(body), peek.id_json);
  }
  Call& call = it->second;
  const Entry& e = call.answers[std::min(call.next, call.answers.size() - 1)];
  if (call.next < call.answers.size()) ++call.next;
  Answer a;
  a.status = e.status;
  a.headers = e.headers;
  a.served_from = e.source;
  a.event_stream = e.event_stream;
  const std::string id = info.notification ? std::string() : peek.id_json;
  if (!e.event_stream) {
    a.pieces.push_back(e.request_id.empty() ? e.body : with_id(e.body, id));
    return a;
  }
  proxy::SseFramer framer(e.body.size() + 1);
  std::vector<proxy::SseBlock> blocks;
  framer.feed(e.body, blocks);
  for (const proxy::SseBlock& b : blocks) {
    if (b.response() && proxy::same_id(b.message.id_json, e.request_id)) {
      a.pieces.push_back(block_with_id(b.text, id));
    } else {
      a.pieces.push_back(b.text);
    }
  }
  if (!framer.open_block().empty()) a.pieces.push_back(framer.open_block());
  return a;
}

}  // namespace mcptriage::mock
