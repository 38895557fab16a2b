// Fault injection: rule grammar, matching and the injected responses (inject.hpp).
#include "proxy/inject.hpp"

#include <boost/beast/http/status.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "io/duration.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::proxy {
namespace {

constexpr std::string_view kV20260728 = "2026-07-28";

std::optional<long long> parse_int(std::string_view s) {
  long long v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::pair<std::string_view, std::string_view> key_value(std::string_view item) {
  const std::size_t eq = item.find('=');
  if (eq == std::string_view::npos) return {item, {}};
  return {item.substr(0, eq), item.substr(eq + 1)};
}

bool has_value(std::string_view item) { return item.find('=') != std::string_view::npos; }

/// The JSON-RPC `message` a server sends with each standard code (JSON-RPC 2.0 §5.1; MCP basic
/// §Error Codes for the MCP ones).
std::string_view standard_message(std::int64_t code) {
  switch (code) {
    case -32700: return "Parse error";
    case -32600: return "Invalid Request";
    case -32601: return "Method not found";
    case -32602: return "Invalid params";
    case -32603: return "Internal error";
    case -32002: return "Resource not found";
    case -32020: return "Header mismatch";
    case -32021: return "Missing required client capability";
    case -32022: return "Unsupported protocol version";
    case -32042: return "URL elicitation required";
    default: return "Injected error";
  }
}

std::string json_string(std::string_view s) { return "\"" + json_escape(s) + "\""; }

bool is_2026(const RequestFacts& f) { return f.protocol_version >= kV20260728; }

}  // namespace

std::string_view to_string(Action a) {
  switch (a) {
    case Action::status: return "status";
    case Action::jsonrpc_error: return "jsonrpc-error";
    case Action::tool_error: return "tool-error";
    case Action::input_required: return "input-required";
    case Action::cut_after_events: return "cut-after-events";
    case Action::delay: return "delay";
    case Action::session_expired: return "session-expired";
    case Action::unauthorized: return "unauthorized";
    case Action::drop: return "drop";
    case Action::garbage_line: return "garbage-line";
    case Action::exit: return "exit";
    case Action::slow_start: return "slow-start";
  }
  return "?";
}

std::expected<Rule, std::string> parse_rule(std::string_view text, Transport transport) {
  Rule r;
  r.text = std::string(text);
  const bool stdio = transport == Transport::stdio;
  auto bad = [&](std::string why) -> std::expected<Rule, std::string> {
    return std::unexpected("--inject '" + std::string(text) + "': " + why);
  };
  constexpr std::string_view kStdioActions =
      "jsonrpc-error=CODE, tool-error, input-required, delay=DURATION, drop, garbage-line, exit=CODE, "
      "slow-start=DURATION";
  const std::size_t at = text.find('@');
  const std::string_view action = text.substr(0, at);
  const std::vector<std::string_view> parts = split(action, ',');
  auto [name, value] = key_value(parts[0]);
  auto no_options = [&]() { return parts.size() == 1; };
  const bool http_only = name == "status" || name == "cut-after-events" || name == "session-expired" ||
                         name == "unauthorized";
  const bool stdio_only = name == "drop" || name == "garbage-line" || name == "exit" || name == "slow-start";
  if (stdio && http_only) {
    return bad(std::string(name) + " is a fault of HTTP (mcptriage proxy), which a stdio server has no way to "
               "send; on stdio the actions are " + std::string(kStdioActions));
  }
  if (!stdio && stdio_only) {
    return bad(std::string(name) + " is a fault of a stdio server (mcptriage wrap); over HTTP the actions are "
               "status=CODE, jsonrpc-error=CODE, tool-error, input-required, cut-after-events=N, delay=DURATION, "
               "session-expired, unauthorized");
  }
  if (name == "status") {
    r.action = Action::status;
    auto code = parse_int(value);
    if (!code || *code < 200 || *code > 599) return bad("status=CODE needs a code from 200 to 599");
    r.status = static_cast<int>(*code);
    for (std::size_t i = 1; i < parts.size(); ++i) {
      auto [k, v] = key_value(parts[i]);
      if (k == "retry-after") {
        auto s = parse_int(v);
        if (!s || *s < 0) return bad("retry-after=SECONDS needs a whole number of seconds");
        r.retry_after_s = *s;
      } else if (k == "body" && !v.empty()) {
        r.body_file = std::string(v);
      } else {
        return bad("status takes retry-after=SECONDS and body=FILE, not '" + std::string(parts[i]) + "'");
      }
    }
  } else if (name == "jsonrpc-error") {
    r.action = Action::jsonrpc_error;
    auto code = parse_int(value);
    if (!code || *code < -2147483648LL || *code > 2147483647LL) return bad("jsonrpc-error=CODE needs an integer code");
    r.code = *code;
    if (!no_options()) return bad("jsonrpc-error takes no options");
  } else if (name == "cut-after-events") {
    r.action = Action::cut_after_events;
    auto n = parse_int(value);
    if (!n || *n < 0) return bad("cut-after-events=N needs a number of events (0 or more)");
    r.events = static_cast<std::size_t>(*n);
    if (!no_options()) return bad("cut-after-events takes no options");
  } else if (name == "delay") {
    r.action = Action::delay;
    auto d = io::parse_duration(value);
    if (!d) return bad("'" + std::string(value) + "' is not a duration: " + std::string(io::duration_grammar()));
    r.delay = *d;
    if (!no_options()) return bad("delay takes no options");
  } else if (name == "tool-error" || name == "input-required" || name == "session-expired" || name == "unauthorized") {
    if (has_value(parts[0]) || !no_options()) return bad(std::string(name) + " takes no value");
    r.action = name == "tool-error"       ? Action::tool_error
               : name == "input-required" ? Action::input_required
               : name == "session-expired" ? Action::session_expired
                                           : Action::unauthorized;
  } else if (name == "drop" || name == "garbage-line") {
    if (has_value(parts[0]) || !no_options()) return bad(std::string(name) + " takes no value");
    r.action = name == "drop" ? Action::drop : Action::garbage_line;
  } else if (name == "exit") {
    r.action = Action::exit;
    auto code = parse_int(value);
    if (!code || *code < 0 || *code > 255) return bad("exit=CODE needs an exit code from 0 to 255");
    r.exit_code = static_cast<int>(*code);
    if (!no_options()) return bad("exit takes no options");
  } else if (name == "slow-start") {
    r.action = Action::slow_start;
    auto d = io::parse_duration(value);
    if (!d) return bad("'" + std::string(value) + "' is not a duration: " + std::string(io::duration_grammar()));
    r.delay = *d;
    if (!no_options()) return bad("slow-start takes no options");
    if (at != std::string_view::npos) {
      return bad("slow-start takes no @WHEN: it holds every line of the host from the server's start");
    }
  } else if (stdio) {
    return bad("unknown action '" + std::string(name) + "' (" + std::string(kStdioActions) + ")");
  } else {
    return bad("unknown action '" + std::string(name) +
               "' (status=CODE, jsonrpc-error=CODE, tool-error, input-required, cut-after-events=N, delay=DURATION, "
               "session-expired, unauthorized)");
  }
  if (at == std::string_view::npos) return r;
  const std::string_view when = text.substr(at + 1);
  if (when.find('@') != std::string_view::npos) return bad("one @WHEN per rule (write a second --inject for another)");
  auto [wk, wv] = key_value(when);
  const std::string_view count_key = stdio ? "call" : "post";
  if (stdio && wk == "post") {
    return bad("post=N counts HTTP POSTs; on stdio WHEN is call=N[,M...] (the host's Nth request), method=NAME or "
               "tool=NAME");
  }
  if (wk != count_key && wk != "method" && wk != "tool") {
    return bad("WHEN is " + std::string(count_key) + "=N[,M...], method=NAME or tool=NAME, not '" + std::string(wk) +
               "'");
  }
  if (wv.empty()) {
    return bad(std::string(wk) + "= needs a value (WHEN is " + std::string(count_key) +
               "=N[,M...], method=NAME or tool=NAME)");
  }
  if (wk == count_key) {
    r.when = stdio ? When::call : When::post;
    for (std::string_view n : split(wv, ',')) {
      auto v = parse_int(n);
      if (!v || *v < 1) {
        return bad(stdio ? "call=N counts the host's requests from 1 (call=N[,M...], whole numbers only)"
                         : "post=N counts POSTs from 1 (post=N[,M...], whole numbers only)");
      }
      r.posts.push_back(static_cast<std::size_t>(*v));
    }
    return r;
  }
  r.when = wk == "method" ? When::method : When::tool;
  r.name = std::string(wv);
  // A JSON-RPC method name or a tool name as a client sends it: no comma, '=', space or control
  // character (MCP tool names: [A-Za-z0-9_.-], SEP-986; method names: the spec's, or a vendor's).
  // A comma is the usual slip: two conditions in one WHEN, which the grammar does not have.
  if (const std::size_t comma = wv.find(','); comma != std::string_view::npos) {
    const std::string_view after = wv.substr(comma + 1);
    if (wk == "method" && wv.substr(0, comma) == "tools/call" && after.starts_with("tool=")) {
      return bad("one condition per WHEN: write @" + std::string(after) + " (tool= is a tools/call of that tool)");
    }
    return bad("one condition per WHEN, and a " + std::string(wk == "method" ? "method" : "tool") +
               " name has no comma: '" + std::string(wv) + "'");
  }
  for (const char c : wv) {
    if (static_cast<unsigned char>(c) <= ' ' || c == '=' || c == 0x7f) {
      return bad("'" + std::string(wv) + "' cannot be a " + std::string(wk == "method" ? "method" : "tool") +
                 " name (no spaces, '=' or control characters)");
    }
  }
  // Combinations that can never apply: the action's requests (docs/proxy.md) and the WHEN's
  // have nothing in common.
  if (r.when == When::method) {
    const std::string& m = r.name;
    const bool notification = m.starts_with("notifications/");
    const bool needs_request = r.action == Action::jsonrpc_error || r.action == Action::tool_error ||
                               r.action == Action::input_required || r.action == Action::cut_after_events ||
                               r.action == Action::drop || r.action == Action::garbage_line ||
                               r.action == Action::exit;
    if (needs_request && notification) {
      return bad(std::string(to_string(r.action)) + " applies to requests, and " + m +
                 " is a notification (it has no id and gets no response)");
    }
    if (r.action == Action::tool_error && m != "tools/call") {
      return bad("tool-error applies to tools/call only, never to " + m);
    }
    if (r.action == Action::input_required && m != "tools/call" && m != "prompts/get" && m != "resources/read") {
      return bad("input-required applies to tools/call, prompts/get and resources/read, never to " + m);
    }
    if (r.action == Action::session_expired && m == "initialize") {
      return bad("session-expired applies to requests that carry Mcp-Session-Id, and initialize is sent before the "
                 "session exists");
    }
  }
  return r;
}

namespace {

/// The action can be applied to such a request at all.
bool applies(const Rule& r, const RequestFacts& f) {
  const bool post = f.http_method == "POST";
  const bool request = post && f.message.kind == MessageKind::request;
  switch (r.action) {
    case Action::jsonrpc_error: return request;
    case Action::tool_error: return request && f.message.method == "tools/call";
    case Action::input_required:
      return request && (f.message.method == "tools/call" || f.message.method == "prompts/get" ||
                         f.message.method == "resources/read");
    case Action::cut_after_events: return request;
    case Action::session_expired: return f.session_id && (post || f.http_method == "GET");
    case Action::status:
    case Action::delay:
    case Action::unauthorized: return post;
    case Action::drop:
    case Action::garbage_line:
    case Action::exit: return request;
    case Action::slow_start: return false;  // applied at the start, to every line (wrap)
  }
  return false;
}

bool when_matches(const Rule& r, const RequestFacts& f) {
  switch (r.when) {
    case When::every: return true;
    case When::post:
      return f.post_number > 0 && std::find(r.posts.begin(), r.posts.end(), f.post_number) != r.posts.end();
    case When::method: return f.message.method == r.name;
    case When::tool: return f.message.method == "tools/call" && f.message.tool_name == r.name;
    case When::call:
      return f.call_number > 0 && std::find(r.posts.begin(), r.posts.end(), f.call_number) != r.posts.end();
  }
  return false;
}

}  // namespace

const Rule* match_rule(const std::vector<Rule>& rules, const RequestFacts& facts) {
  for (const Rule& r : rules) {
    if (when_matches(r, facts) && applies(r, facts)) return &r;
  }
  return nullptr;
}

Injected build_injected(const Rule& rule, const RequestFacts& facts, std::string_view origin,
                        std::vector<std::string>& notes, std::string_view maker) {
  Injected out;
  const std::string id = facts.message.id_json.empty() ? "null" : facts.message.id_json;
  auto json_reply = [&](int status, std::string body) {
    out.status = status;
    out.headers.push_back({"Content-Type", "application/json"});
    out.body = std::move(body);
  };
  auto result = [&](std::string members) {
    // 2026-07-28: every result carries resultType (MCP basic §ResultType).
    if (is_2026(facts) && members.find("\"resultType\"") == std::string::npos) {
      members = "\"resultType\":\"complete\"," + members;
    }
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{" + members + "}}";
  };
  switch (rule.action) {
    case Action::status: {
      out.status = rule.status;
      if (rule.retry_after_s) out.headers.push_back({"Retry-After", std::to_string(*rule.retry_after_s)});
      if (!rule.body_file.empty()) {
        const std::size_t first = rule.body.find_first_not_of(" \t\r\n");
        const bool json = first != std::string::npos && (rule.body[first] == '{' || rule.body[first] == '[');
        out.headers.push_back({"Content-Type", json ? "application/json" : "text/plain; charset=utf-8"});
        out.body = rule.body;
      } else if (rule.status != 202 && rule.status != 204 && rule.status != 304) {
        out.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
        const auto reason = boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(rule.status));
        out.body = std::to_string(rule.status) + " " + std::string(reason.data(), reason.size()) +
                   " (injected by mcptriage proxy: " + rule.text + ")\n";
      }
      break;
    }
    case Action::jsonrpc_error: {
      // 2026-07-28 ties some codes to an HTTP status (Streamable HTTP §Server Validation,
      // §Protocol Version Header): -32601 with 404, -32020/-32021/-32022 with 400.
      int status = 200;
      if (is_2026(facts)) {
        if (rule.code == -32601) status = 404;
        else if (rule.code == -32020 || rule.code == -32021 || rule.code == -32022) status = 400;
      }
      std::string error = "{\"code\":" + std::to_string(rule.code) + ",\"message\":" +
                          json_string(standard_message(rule.code));
      if (rule.code == -32022) {
        const std::string supported = facts.protocol_version.empty() ? "2025-11-25" : facts.protocol_version;
        error += ",\"data\":{\"supported\":[" + json_string(supported) + "],\"requested\":\"2099-01-01\"}";
      } else if (rule.code == -32021) {
        error += ",\"data\":{\"requiredCapabilities\":{\"elicitation\":{}}}";
      }
      error += "}";
      json_reply(status, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":" + error + "}");
      break;
    }
    case Action::tool_error:
      json_reply(200, result("\"content\":[{\"type\":\"text\",\"text\":" +
                             json_string("Injected tool error (" + std::string(maker) + " rule " + rule.text + ")") +
                             "}],\"isError\":true"));
      break;
    case Action::input_required:
      if (!is_2026(facts)) {
        notes.push_back("input-required: an MRTR input_required result is defined from 2026-07-28; this session's "
                        "version is " + (facts.protocol_version.empty() ? std::string("unknown") : facts.protocol_version) +
                        ": injected as asked");
      }
      json_reply(200, result("\"resultType\":\"input_required\",\"inputRequests\":{\"confirm\":{\"method\":"
                             "\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":" +
                             json_string("Confirm to continue (injected by " + std::string(maker) + ")") +
                             ",\"requestedSchema\":{\"type\":"
                             "\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},\"required\":[\"ok\"]}}}},"
                             "\"requestState\":\"mcptriage-injected\""));
      break;
    case Action::session_expired:
      // Streamable HTTP §Session Management: a session the server ended gets 404 (the body is not
      // defined; this is the TypeScript SDK's).
      json_reply(404, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"Session not found\"},\"id\":null}");
      break;
    case Action::unauthorized: {
      // Authorization §Error Handling: 401 with WWW-Authenticate; from 2025-06-18 it MUST name the
      // protected resource metadata (RFC 9728 §5.1), and naming it does no harm before. RFC 6750
      // §3.1: error="invalid_token" only when a token was sent.
      std::string challenge = "Bearer";
      if (facts.authorization) challenge += " error=\"invalid_token\",";
      std::string path = facts.target.substr(0, facts.target.find('?'));
      if (path == "/") path.clear();
      challenge += " resource_metadata=\"" + std::string(origin) + "/.well-known/oauth-protected-resource" + path + "\"";
      out.status = 401;
      out.headers.push_back({"WWW-Authenticate", challenge});
      out.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
      out.body = "401 Unauthorized (injected by mcptriage proxy: " + rule.text + ")\n";
      break;
    }
    case Action::cut_after_events:
    case Action::delay:
    case Action::drop:
    case Action::garbage_line:
    case Action::exit:
    case Action::slow_start:
      break;
  }
  return out;
}

}  // namespace mcptriage::proxy
