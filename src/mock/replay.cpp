// `mcptriage replay` (replay.hpp): the recorded calls read from a recording, edited, sent again in
// a new session with a blocking Boost.Beast client (http or https), and each new exchange judged
// by classify() beside the recorded one.
#include "mock/replay.hpp"

#include <CLI/CLI.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
#include <iostream>
#include <memory>

#include <unistd.h>

#include "io/duration.hpp"
#include "io/read_limited.hpp"
#include "json/dom.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/jsonrpc.hpp"
#include "mcptriage/redact.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/sse.hpp"
#include "proxy/server.hpp"

namespace mcptriage::mock {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

/// The JSON-RPC `result` of a response body: a JSON body, or the last event of a stream that
/// carries one. Minified; "" when none.
std::string result_of(const Response& r) {
  json::Parser parser;
  auto from = [&](std::string_view text) -> std::string {
    auto root = parser.parse(text);
    if (!root) return {};
    auto result = root->get("result");
    return result ? json::minified(*result) : std::string();
  };
  const auto ct = find_header(r.headers, "content-type");
  if (ct && ct->find("text/event-stream") != std::string_view::npos) {
    std::string found;
    for (const sse::Event& e : sse::parse(r.body).events) {
      if (auto result = from(e.data); !result.empty()) found = result;
    }
    return found;
  }
  return from(r.body);
}

void read_tools(const Response& r, std::map<std::string, ToolHints>& tools) {
  const std::string result = result_of(r);
  if (result.empty()) return;
  json::Parser parser;
  auto root = parser.parse(result);
  if (!root) return;
  auto list = root->get("tools");
  if (!list) return;
  for (json::View t : list->items()) {
    auto name = t.string_at("name");
    if (!name) continue;
    ToolHints h;
    if (auto a = t.get("annotations")) {
      h.read_only = a->bool_at("readOnlyHint");
      h.idempotent = a->bool_at("idempotentHint");
    }
    tools[std::string(*name)] = h;
  }
}

}  // namespace

Script read_script(const std::vector<Exchange>& exchanges) {
  Script s;
  std::size_t n = 0;
  for (const Exchange& x : exchanges) {
    ++n;
    if (x.skipped || !x.request || !x.request->body ||
        (!x.request->method_line.empty() && x.request->method_line != "POST")) {
      ++s.left_out;
      continue;
    }
    const RequestInfo info = jsonrpc::read_request(*x.request->body);
    if (info.shape != RequestInfo::Shape::message || !info.method) {
      ++s.left_out;
      continue;
    }
    RecordedCall c;
    c.source = x.source;
    const auto hash = x.source.rfind('#');
    c.index = hash == std::string::npos ? n : std::strtoull(x.source.c_str() + hash + 1, nullptr, 10);
    c.method = *info.method;
    c.tool = info.tool_name;
    c.body = *x.request->body;
    c.notification = info.notification;
    c.exchange = &x;
    if (c.method == "tools/list") read_tools(x.response, s.tools);
    s.calls.push_back(std::move(c));
  }
  return s;
}

std::optional<std::string> unsafe_reason(const RecordedCall& call, const std::map<std::string, ToolHints>& tools) {
  if (call.method != "tools/call") return std::nullopt;
  if (call.tool.empty()) return std::string("a tools/call without a tool name: nothing says it is safe to send again");
  auto it = tools.find(call.tool);
  if (it == tools.end()) {
    return fmt::format("tool \"{}\" is in no recorded tools/list, so nothing says it is safe to call again", call.tool);
  }
  if (it->second.read_only.value_or(false) || it->second.idempotent.value_or(false)) return std::nullopt;
  return fmt::format("the recorded tools/list marks tool \"{}\" neither readOnlyHint nor idempotentHint", call.tool);
}

std::expected<Selector, std::string> parse_selector(std::string_view text) {
  Selector s;
  s.text = std::string(text);
  if (text.starts_with("method=") && text.size() > 7) {
    s.kind = Selector::Kind::method;
    s.text = std::string(text.substr(7));
    return s;
  }
  if (text.starts_with("tool=") && text.size() > 5) {
    s.kind = Selector::Kind::tool;
    s.text = std::string(text.substr(5));
    return s;
  }
  std::string_view digits = text.starts_with('#') ? text.substr(1) : text;
  if (!digits.empty() && digits.size() < 10 && digits.find_first_not_of("0123456789") == std::string_view::npos) {
    s.kind = Selector::Kind::index;
    s.index = std::stoull(std::string(digits));
    return s;
  }
  return std::unexpected(fmt::format("--only {}: write method=NAME, tool=NAME or the recorded exchange's number (4 or #4)", text));
}

bool selected(const RecordedCall& call, const std::vector<Selector>& only) {
  if (only.empty()) return true;
  return std::any_of(only.begin(), only.end(), [&](const Selector& s) {
    switch (s.kind) {
      case Selector::Kind::method: return call.method == s.text;
      case Selector::Kind::tool: return call.method == "tools/call" && call.tool == s.text;
      case Selector::Kind::index: return call.index == s.index;
    }
    return false;
  });
}

std::expected<Edit, std::string> parse_edit(std::string_view text) {
  const auto eq = text.find('=');
  if (!text.starts_with('/') || eq == std::string_view::npos || eq < 2) {
    return std::unexpected(fmt::format(
        "--set {}: write JSON_POINTER=VALUE, e.g. /params/arguments/message=\"hello\" (RFC 6901)", text));
  }
  Edit e;
  e.text = std::string(text);
  std::string_view pointer = text.substr(1, eq - 1);
  std::size_t start = 0;
  while (start <= pointer.size()) {
    std::size_t end = pointer.find('/', start);
    if (end == std::string_view::npos) end = pointer.size();
    std::string token;
    std::string_view raw = pointer.substr(start, end - start);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else if (raw[i] == '~') {
        return std::unexpected(fmt::format("--set {}: '~' must be written ~0 in a JSON Pointer (RFC 6901 §3)", text));
      } else {
        token += raw[i];
      }
    }
    e.path.push_back(std::move(token));
    start = end + 1;
  }
  const std::string_view value = text.substr(eq + 1);
  if (json::is_one_value(value)) {
    e.value_json = std::string(value);
  } else {
    append_json_string(e.value_json, value);
  }
  return e;
}

std::optional<std::string> apply_edit(std::string_view body, const Edit& edit) {
  json::Parser parser;
  auto root = parser.parse(body);
  if (!root) return std::nullopt;
  json::View at = *root;
  for (std::size_t i = 0; i + 1 < edit.path.size(); ++i) {
    auto next = at.get(edit.path[i]);
    if (!next || !next->is_object()) return std::nullopt;
    at = *next;
  }
  if (!at.is_object()) return std::nullopt;
  std::vector<std::string_view> path(edit.path.begin(), edit.path.end());
  if (at.get(edit.path.back())) {
    auto range = json::member_value_range(body, path);
    if (!range) return std::nullopt;
    return std::string(body.substr(0, range->begin)) + edit.value_json + std::string(body.substr(range->end));
  }
  // Added as the object's first member.
  std::size_t open = 0;
  bool empty = at.size() == 0;
  if (path.size() == 1) {
    open = body.find('{');
  } else {
    path.pop_back();
    auto range = json::member_value_range(body, path);
    if (!range) return std::nullopt;
    open = range->begin;
  }
  if (open == std::string_view::npos) return std::nullopt;
  std::string member;
  append_json_string(member, edit.path.back());
  member += ":" + edit.value_json + (empty ? "" : ",");
  return std::string(body.substr(0, open + 1)) + member + std::string(body.substr(open + 1));
}

namespace {

/// A blocking HTTP/1.1 client of one upstream (http or https), one connection kept alive.
class Client {
 public:
  Client(proxy::Upstream up, bool insecure, std::chrono::milliseconds timeout)
      : up_(std::move(up)), insecure_(insecure), timeout_(timeout), tls_ctx_(ssl::context::tls_client) {
    boost::system::error_code ec;
    tls_ctx_.set_default_verify_paths(ec);
    tls_ctx_.set_verify_mode(insecure_ ? ssl::verify_none : ssl::verify_peer);
  }

  /// Sends one request; the whole response, or why there is none (one line).
  std::expected<Response, std::string> send(std::string_view method, const Headers& headers, const std::string& body) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!open_) {
        if (auto ok = connect(); !ok) return std::unexpected(ok.error());
      }
      http::request<http::string_body> req{method == "DELETE" ? http::verb::delete_ : http::verb::post, up_.path, 11};
      req.set(http::field::host, up_.host_header);
      req.set(http::field::user_agent, "mcptriage-replay");
      for (const Header& h : headers) req.set(h.name, h.value);
      req.body() = body;
      req.prepare_payload();
      boost::system::error_code ec;
      http::response_parser<http::string_body> parser;
      parser.body_limit(std::uint64_t{256} << 20);
      beast::flat_buffer buf;
      auto io = [&](auto& stream) {
        beast::get_lowest_layer(stream).expires_after(timeout_);
        http::write(stream, req, ec);
        if (!ec) http::read(stream, buf, parser, ec);
      };
      if (tls_) io(*tls_);
      else io(*plain_);
      if (ec) {
        close();
        // A kept-alive connection the server closed meanwhile: once more on a new one.
        if (attempt == 0 && (ec == http::error::end_of_stream || ec == net::error::connection_reset)) continue;
        if (ec == beast::error::timeout) return std::unexpected(fmt::format("no response within {} ms", timeout_.count()));
        return std::unexpected(ec.message());
      }
      const auto& res = parser.get();
      Response r;
      r.http_version = "HTTP/1.1";
      r.status = static_cast<int>(res.result_int());
      r.reason = std::string(res.reason());
      for (const auto& f : res) r.headers.push_back({std::string(f.name_string()), std::string(f.value())});
      r.body = res.body();
      if (!res.keep_alive()) close();
      return r;
    }
    return std::unexpected("the connection closed");
  }

 private:
  std::expected<void, std::string> connect() {
    boost::system::error_code ec;
    tcp::resolver resolver(ioc_);
    const auto found = resolver.resolve(up_.host, up_.port, ec);
    if (ec) return std::unexpected(fmt::format("cannot resolve {}: {}", up_.host, ec.message()));
    if (up_.tls) {
      tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(ioc_, tls_ctx_);
      beast::get_lowest_layer(*tls_).expires_after(timeout_);
      beast::get_lowest_layer(*tls_).connect(found, ec);
      if (!ec) {
        SSL_set_tlsext_host_name(tls_->native_handle(), up_.host.c_str());
        if (!insecure_) tls_->set_verify_callback(ssl::host_name_verification(up_.host));
        tls_->handshake(ssl::stream_base::client, ec);
      }
    } else {
      plain_ = std::make_unique<beast::tcp_stream>(ioc_);
      plain_->expires_after(timeout_);
      plain_->connect(found, ec);
    }
    if (ec) {
      close();
      return std::unexpected(fmt::format("cannot connect to {}: {}", up_.origin, ec.message()));
    }
    open_ = true;
    return {};
  }
  void close() {
    boost::system::error_code ec;
    if (tls_) beast::get_lowest_layer(*tls_).socket().close(ec);
    if (plain_) plain_->socket().close(ec);
    tls_.reset();
    plain_.reset();
    open_ = false;
  }

  proxy::Upstream up_;
  bool insecure_;
  std::chrono::milliseconds timeout_;
  net::io_context ioc_;
  ssl::context tls_ctx_;
  std::unique_ptr<beast::tcp_stream> plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  bool open_ = false;
};

struct Verdict {
  std::string outcome;
  std::string reason;
  int status = 0;
  std::string detail;
};

Verdict judge(const Exchange& x, long long now) {
  Verdict v;
  const auto c = classify(x, ContextFlags{}, now);
  if (c.empty()) return v;
  v.outcome = std::string(to_string(c.front().outcome));
  v.reason = std::string(to_string(c.front().reason));
  v.status = x.response.status;
  v.detail = c.front().detail;
  return v;
}

std::string call_name(const RecordedCall& c) { return c.tool.empty() ? c.method : c.method + " " + c.tool; }

}  // namespace

int replay_main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  std::string recording;
  std::string upstream_url;
  std::vector<std::string> only_text;
  std::vector<std::string> set_text;
  std::vector<std::string> header_text;
  bool allow_unsafe = false;
  bool insecure = false;
  bool fail_on_change = false;
  std::string timeout_text = "30s";
  std::string format;
  CLI::App app{"mcptriage replay: sends the calls of a recording again to a server, in a new session of their own (the\n"
               "recorded initialize first), optionally only some of them and with edited params, and prints each new\n"
               "verdict beside the recorded one.",
               "mcptriage replay"};
  app.footer(
      "Examples:\n"
      "  mcptriage replay session.jsonl --upstream http://127.0.0.1:3001/mcp\n"
      "  mcptriage replay bug.har --upstream http://127.0.0.1:3001/mcp --only tool=add --set /params/arguments/a=1\n"
      "A tools/call is sent only when the recorded tools/list marks its tool readOnlyHint or idempotentHint, or\n"
      "with --allow-unsafe. Exit codes: 0; 1 --fail-on-change and a verdict changed; 2 usage; 3 the recording\n"
      "cannot be read or the server not reached. Docs: docs/mock.md \"Replay\".");
  app.add_option("RECORDING", recording, "A recording (the proxy's .jsonl or .har, HAR, exchange log)")->required();
  app.add_option("--upstream", upstream_url, "The MCP server's URL (http:// or https://)")->type_name("URL")->required();
  app.add_option("--only", only_text, "Send only these calls (repeatable): method=NAME, tool=NAME, or the recorded "
                                      "exchange's number (4)")
      ->type_name("SELECTOR");
  app.add_option("--set", set_text, "Edit the requests sent (repeatable): JSON_POINTER=VALUE into the JSON-RPC "
                                    "message, VALUE as JSON or else a string, e.g. /params/arguments/a=1")
      ->type_name("EDIT");
  app.add_option("--header", header_text, "An extra request header (repeatable), e.g. 'Authorization: Bearer X'")
      ->type_name("'NAME: VALUE'");
  app.add_flag("--allow-unsafe", allow_unsafe,
               "Also send tools/call of tools the recorded tools/list does not mark readOnlyHint or idempotentHint");
  app.add_flag("--insecure", insecure, "Do not check the https server's certificate");
  app.add_option("--timeout", timeout_text, "Time allowed for each response (default 30s)")->type_name("DURATION");
  app.add_option("-f,--format", format, "table (default on a terminal) or jsonl")->check(CLI::IsMember({"table", "jsonl"}));
  app.add_flag("--fail-on-change", fail_on_change, "Exit 1 when a replayed verdict differs from the recorded one");
  auto usage = [](const std::string& why) {
    std::cerr << "mcptriage replay: error: " << escape_terminal(why) << "\nRun 'mcptriage replay --help' for usage.\n";
    return 2;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage(e.what());
  }
  auto up = proxy::parse_upstream(upstream_url);
  if (!up) return usage(up.error());
  auto timeout = io::parse_duration(timeout_text);
  if (!timeout || timeout->count() <= 0) return usage("--timeout " + timeout_text + " is not a duration");
  std::vector<Selector> only;
  for (const std::string& t : only_text) {
    auto s = parse_selector(t);
    if (!s) return usage(s.error());
    only.push_back(*s);
  }
  std::vector<Edit> edits;
  for (const std::string& t : set_text) {
    auto e = parse_edit(t);
    if (!e) return usage(e.error());
    edits.push_back(*e);
  }
  Headers extra;
  for (const std::string& h : header_text) {
    const auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0) return usage("--header " + h + ": write 'NAME: VALUE'");
    std::string value = h.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    extra.push_back({h.substr(0, colon), value});
  }
  const bool jsonl = format == "jsonl" || (format.empty() && isatty(STDOUT_FILENO) == 0);

  auto text = io::read_file_limited(recording, std::size_t{1} << 30);
  if (!text) {
    std::cerr << "mcptriage replay: error: " << escape_terminal(recording) << ": " << text.error().message << "\n";
    return 3;
  }
  auto read = read_capture(*text, recording);
  if (!read) {
    std::cerr << "mcptriage replay: error: " << escape_terminal(recording) << ": " << escape_terminal(read.error().message)
              << "\n";
    return 3;
  }
  if (!read->empty() && read->front().format == CaptureFormat::jsonrpc_messages) {
    std::cerr << "mcptriage replay: error: " << escape_terminal(recording)
              << " is a message stream (stdio), not HTTP exchanges: replay sends Streamable HTTP recordings\n";
    return 3;
  }
  const Script script = read_script(*read);
  const RecordedCall* init = nullptr;
  for (const RecordedCall& c : script.calls) {
    if (c.method == "initialize") {
      init = &c;
      break;
    }
  }
  std::vector<const RecordedCall*> chosen;
  for (const RecordedCall& c : script.calls) {
    if (c.method == "initialize" || c.notification) continue;  // the session's own
    if (selected(c, only)) chosen.push_back(&c);
  }
  if (chosen.empty()) {
    std::cerr << "mcptriage replay: error: " << escape_terminal(recording) << ": no recorded call "
              << (only.empty() ? "to send (requests with their bodies)" : "matches --only") << "\n";
    return 3;
  }
  std::vector<bool> edit_used(edits.size(), false);

  Client client(*up, insecure, *timeout);
  const long long now = static_cast<long long>(std::time(nullptr));
  Headers base = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  base.insert(base.end(), extra.begin(), extra.end());
  // The session: the recorded initialize (or a plain one), then notifications/initialized.
  const std::string init_body =
      init != nullptr ? init->body
                      : std::string(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptriage-replay","version":"1"}}})");
  auto init_res = client.send("POST", base, init_body);
  if (!init_res) {
    std::cerr << "mcptriage replay: error: initialize: " << escape_terminal(init_res.error()) << "\n";
    return 3;
  }
  Headers session = base;
  if (auto sid = find_header(init_res->headers, "mcp-session-id")) session.push_back({"Mcp-Session-Id", std::string(*sid)});
  {
    json::Parser parser;
    const std::string result = result_of(*init_res);
    if (auto root = parser.parse(result.empty() ? std::string_view("{}") : std::string_view(result))) {
      if (auto v = root->string_at("protocolVersion")) session.push_back({"MCP-Protocol-Version", std::string(*v)});
    }
  }
  if (init_res->status != 200 || result_of(*init_res).empty()) {
    std::cerr << "mcptriage replay: error: initialize was not answered with a result (HTTP " << init_res->status
              << "): the session could not start\n";
    return 3;
  }
  (void)client.send("POST", session, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");

  std::size_t sent = 0, changed = 0, refused = 0, failed = 0;
  std::string out;
  struct Row {
    std::string source, call, before, after;
    bool changed = false;
  };
  std::vector<Row> rows;
  for (const RecordedCall* c : chosen) {
    const Verdict before = judge(*c->exchange, now);
    std::string body = c->body;
    bool edited = false;
    for (std::size_t i = 0; i < edits.size(); ++i) {
      if (auto e = apply_edit(body, edits[i])) {
        body = std::move(*e);
        edited = true;
        edit_used[i] = true;
      }
    }
    Verdict after;
    std::string why_not;
    if (auto unsafe = unsafe_reason(*c, script.tools); unsafe && !allow_unsafe) {
      why_not = "not sent: " + *unsafe + " (--allow-unsafe sends it)";
      ++refused;
    } else if (auto res = client.send("POST", session, body); !res) {
      why_not = "no response: " + res.error();
      ++failed;
    } else {
      Exchange x;
      x.source = fmt::format("replay#{}", sent + 1);
      x.format = CaptureFormat::exchange_log;
      Request rq;
      rq.method_line = "POST";
      rq.target = up->origin + up->path;
      rq.headers = session;
      rq.body = body;
      x.request = std::move(rq);
      x.response = std::move(*res);
      after = judge(x, now);
      ++sent;
    }
    const bool differs = why_not.empty() && (after.outcome != before.outcome || after.reason != before.reason);
    changed += differs ? 1 : 0;
    if (jsonl) {
      std::string j = "{\"schema\":1,\"kind\":\"replay\",\"recorded_source\":";
      append_json_string(j, c->source);
      j += ",\"method\":";
      append_json_string(j, c->method);
      if (!c->tool.empty()) {
        j += ",\"tool\":";
        append_json_string(j, c->tool);
      }
      j += fmt::format(",\"edited\":{},\"recorded\":{{\"outcome\":\"{}\",\"reason\":\"{}\",\"http_status\":{}}}", edited,
                       before.outcome, before.reason, before.status);
      if (why_not.empty()) {
        j += fmt::format(",\"replayed\":{{\"outcome\":\"{}\",\"reason\":\"{}\",\"http_status\":{},\"detail\":", after.outcome,
                         after.reason, after.status);
        append_json_string(j, redact(after.detail));
        j += "}";
      } else {
        j += ",\"not_sent\":";
        append_json_string(j, why_not);
      }
      j += fmt::format(",\"changed\":{}}}\n", differs);
      out += j;
    } else {
      rows.push_back(Row{escape_terminal(c->source), escape_terminal(call_name(*c) + (edited ? " (edited)" : "")),
                         fmt::format("{} {}", before.outcome, before.reason),
                         escape_terminal(why_not.empty() ? fmt::format("{} {}", after.outcome, after.reason) : why_not),
                         differs});
    }
  }
  (void)client.send("DELETE", session, "");
  const std::string summary = fmt::format("{} call(s) sent again, {} verdict(s) changed, {} not sent as unsafe, {} without a response",
                                          sent, changed, refused, failed);
  if (jsonl) {
    out += fmt::format("{{\"schema\":1,\"kind\":\"replay_summary\",\"sent\":{},\"changed\":{},\"not_sent_unsafe\":{},\"no_response\":{}}}\n",
                       sent, changed, refused, failed);
  } else {
    std::size_t w[3] = {8, 4, 16};  // "RECORDED", "CALL", "RECORDED VERDICT"
    for (const Row& r : rows) {
      w[0] = std::max(w[0], r.source.size());
      w[1] = std::max(w[1], r.call.size());
      w[2] = std::max(w[2], r.before.size());
    }
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "RECORDED", w[0], "CALL", w[1], "RECORDED VERDICT", w[2],
                       "REPLAYED VERDICT");
    for (const Row& r : rows) {
      out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}{}\n", r.source, w[0], r.call, w[1], r.before, w[2], r.after,
                         r.changed ? "   changed" : "");
    }
    out += summary + "\n";
  }
  std::cout << out << std::flush;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    if (!edit_used[i]) {
      std::cerr << "mcptriage replay: warning: --set " << escape_terminal(edits[i].text)
                << " applied to no request sent (no request has that member's object)\n";
    }
  }
  return fail_on_change && changed > 0 ? 1 : 0;
}

}  // namespace mcptriage::mock
