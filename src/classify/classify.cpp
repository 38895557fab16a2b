// The layered classifier (transport, protocol, interaction, application) over one exchange.
// Rules: shared/classification.md; spec facts: shared/mcp-spec-notes.md. JSON is read through
// json::View (src/json/dom.hpp).
#include "mcptriage/classify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <span>
#include <unordered_set>

#include "classify/request_summary.hpp"
#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/advice.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage {
namespace {

using json::View;

constexpr std::string_view kV20250326 = "2025-03-26";
constexpr std::string_view kV20250618 = "2025-06-18";
constexpr std::string_view kV20251125 = "2025-11-25";
constexpr std::string_view kV20260728 = "2026-07-28";
constexpr std::size_t kDetailTextMax = 200;

// ---------------------------------------------------------------------------------------
// Small helpers

/// Appends untrusted text shortened for a one-line detail: at most kDetailTextMax bytes (cut at
/// a UTF-8 boundary, then "..."), each run of white space folded to one space.
void append_clipped(std::string& out, std::string_view s) {
  std::size_t cut = std::min(s.size(), kDetailTextMax);
  while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  static constexpr std::array<bool, 256> kWhite = [] {
    std::array<bool, 256> t{};
    t['\n'] = t['\r'] = t['\t'] = t[' '] = true;
    return t;
  }();
  // Copied whole, then folded in place: one pass, no append per word.
  const std::size_t start = out.size();
  out.append(s.data(), cut);
  char* const base = out.data() + start;
  std::size_t w = 0;
  bool in_white = false;
  for (std::size_t r = 0; r < cut; ++r) {
    const char ch = base[r];
    if (kWhite[static_cast<unsigned char>(ch)]) {
      if (!in_white) base[w++] = ' ';
      in_white = true;
    } else {
      base[w++] = ch;
      in_white = false;
    }
  }
  out.resize(start + w);
  if (cut < s.size()) out += "...";
}

/// Shortens untrusted text for a one-line detail (append_clipped).
std::string clip(std::string_view s) {
  std::string out;
  append_clipped(out, s);
  return out;
}

/// A member of an object (View::get), and a string member.
std::optional<View> field(View e, std::string_view key) { return e.get(key); }
std::optional<std::string_view> string_field(View e, std::string_view key) { return e.string_at(key); }

bool is_object(View e) { return e.is_object(); }
bool is_array(View e) { return e.is_array(); }

std::string json_text(View e) { return json::minified(e); }

JsonRpcId id_of(View e) {
  switch (e.type()) {
    case json::Type::int64: return {JsonRpcId::Kind::integer, std::to_string(*e.int64())};
    case json::Type::uint64: return {JsonRpcId::Kind::integer, std::to_string(*e.uint64())};
    case json::Type::string: return {JsonRpcId::Kind::string, std::string(*e.string())};
    case json::Type::null: return {JsonRpcId::Kind::null, "null"};
    default: return {JsonRpcId::Kind::other, json_text(e)};
  }
}

/// Result of a full parse of one JSON text.
struct Parsed {
  bool ok = false;
  View root;
  Reason reason = Reason::invalid_json;  ///< MALFORMED_JSON reason when !ok
  std::string detail;
};

Parsed parse_json(json::Parser& parser, std::string_view text, bool padded = false) {
  Parsed p;
  auto parsed = parser.parse(text, padded);
  if (parsed) {
    p.ok = true;
    p.root = *parsed;
    return p;
  }
  const json::ParseError& err = parsed.error();
  p.detail = fmt::format("not valid JSON: {}", err.message);
  if (text.starts_with("\xEF\xBB\xBF")) {
    // The parser says "improper structure"; the cause is the byte order mark.
    p.reason = Reason::invalid_json;
    p.detail = "the body starts with a UTF-8 byte order mark (EF BB BF): JSON sent over a network must not "
               "(RFC 8259 §8.1), and clients such as JSON.parse reject it";
    return p;
  }
  switch (err.fault) {
    case json::ParseFault::empty: p.reason = Reason::empty_json; p.detail = "no JSON value in the body"; return p;
    case json::ParseFault::utf8: p.reason = Reason::invalid_utf8; return p;
    case json::ParseFault::too_deep:
      p.reason = Reason::too_deep;
      p.detail = fmt::format("JSON nested deeper than {} levels", json::kMaxDepth);
      return p;
    case json::ParseFault::too_large: p.reason = Reason::too_large; return p;
    default: break;
  }
  // Distinguish "a complete value followed by more text" from plain syntax errors.
  if (auto at = json::trailing_data_at(text)) {
    p.reason = Reason::trailing_data;
    p.detail = fmt::format("text after the JSON value at byte {}", *at);
    return p;
  }
  p.reason = Reason::invalid_json;
  return p;
}

/// parse_json() of a string, read in place when it has room for the parser's padding (a body the
/// JSON Lines reader copied with json::padded_copy).
Parsed parse_json(json::Parser& parser, const std::string& text) {
  return parse_json(parser, std::string_view(text), text.capacity() - text.size() >= json::kPadding);
}

// ---------------------------------------------------------------------------------------
// Request context

struct Context {
  std::optional<JsonRpcId> id;
  std::string method;
  MethodSource method_source = MethodSource::inferred;
  bool notification = false;
  bool kind_known = false;  ///< we know whether it was a request or a notification
  std::string version;
  std::string version_source;
  bool session_id_sent = false;
  bool batch_request = false;
  std::vector<JsonRpcId> batch_ids;  ///< the ids of a batch request's requests (RequestSummary::batch_ids)
};

/// One parser per thread for the response bodies and one for request bodies, reused for every
/// exchange: a parser allocates once and parses many (docs/performance.md). Parsing a text that is
/// not padded copies it into the parser's own padded buffer, so callers need no copy.
json::Parser& body_parser() {
  thread_local json::Parser parser;
  return parser;
}
json::Parser& request_parser() {
  thread_local json::Parser parser;
  return parser;
}
/// For the SSE events after the deciding one (classify_sse).
json::Parser& rest_parser() {
  thread_local json::Parser parser;
  return parser;
}

/// Applies what was read of a request body to the context; false when it is not a JSON-RPC
/// message. `along` (the captured request only) gets what the session analysis needs of it.
bool apply_request(const RequestSummary& s, Context& ctx, MethodSource source, ReadAlong* along) {
  if (s.shape == RequestSummary::Shape::array) {
    ctx.batch_request = true;
    ctx.batch_ids = s.batch_ids;
    ctx.kind_known = false;
    return true;
  }
  if (s.shape != RequestSummary::Shape::object) return false;
  if (along) {
    along->request_message = true;
    if (s.id) along->request_id = s.id_json;
    if (s.method) along->request_method = *s.method;
    along->request_notification = !s.method || !s.id;
    if (s.has_params) {
      along->params_hash = s.params_hash;
      along->tool_name = s.tool_name;
    }
  }
  if (s.method) {
    ctx.method = *s.method;
    ctx.method_source = source;
  } else {
    // A JSON-RPC response sent by the client (answering a server request, 2025-*).
    ctx.kind_known = true;
    ctx.notification = true;
    return true;
  }
  if (s.id) {
    ctx.id = *s.id;
    ctx.notification = false;
  } else {
    ctx.notification = true;
  }
  ctx.kind_known = true;
  if (s.protocol_version && is_protocol_version(*s.protocol_version)) {  // else the request is judged without it
    ctx.version = *s.protocol_version;
    ctx.version_source = "request";
  }
  return true;
}

/// Reads id/method/notification/version from a JSON-RPC request body given as text; false when
/// unusable.
bool read_request_body(std::string_view body, Context& ctx, MethodSource source, ReadAlong* along) {
  auto root = request_parser().parse(body);
  if (!root) return false;
  return apply_request(summarize_request(*root), ctx, source, along);
}

Context build_context(const Exchange& ex, const ContextFlags& flags, std::vector<std::string>& warnings,
                      ReadAlong* along) {
  Context ctx;
  warnings.insert(warnings.end(), flags.warnings.begin(), flags.warnings.end());
  bool from_capture = false;
  if (ex.request) {
    if (auto sid = find_header(ex.request->headers, "mcp-session-id")) ctx.session_id_sent = !sid->empty();
    if (auto v = find_header(ex.request->headers, "mcp-protocol-version")) {
      if (is_protocol_version(*v)) {
        ctx.version = std::string(*v);
        ctx.version_source = "request";
      } else {
        warnings.push_back(fmt::format(
            "the request's MCP-Protocol-Version header \"{}\" is not a protocol version (YYYY-MM-DD): ignored", *v));
      }
    }
    if (ex.request->summary) {
      from_capture = apply_request(*ex.request->summary, ctx, MethodSource::request, along);
      if (!from_capture) warnings.push_back("the captured request body is not a JSON-RPC message");
    } else if (ex.request->body && !ex.request->body->empty()) {
      from_capture = read_request_body(*ex.request->body, ctx, MethodSource::request, along);
      if (!from_capture) warnings.push_back("the captured request body is not a JSON-RPC message");
    }
  }
  if (!from_capture) {
    if (flags.request_body) {
      if (!read_request_body(*flags.request_body, ctx, MethodSource::request, nullptr)) {
        warnings.push_back(fmt::format("{} is not a JSON-RPC message; ignored",
                                       flags.request_origin.empty() ? "--request file" : flags.request_origin));
      }
    }
    if (flags.id) {
      ctx.id = flags.id;
      ctx.notification = false;
      ctx.kind_known = true;
    }
    if (flags.method) {
      ctx.method = *flags.method;
      ctx.method_source = MethodSource::flag;
      if (!flags.id && !flags.request_body && flags.method->starts_with("notifications/")) {
        ctx.notification = true;
        ctx.kind_known = true;
      } else if (!flags.request_body) {
        ctx.kind_known = true;
        ctx.notification = false;
      }
    }
  }
  if (ctx.version.empty() && flags.protocol_version) {
    ctx.version = *flags.protocol_version;
    ctx.version_source = "flag";
  }
  return ctx;
}

// ---------------------------------------------------------------------------------------
// The classifier proper

class Classifier {
 public:
  Classifier(const Exchange& ex, const ContextFlags& flags, long long now, ReadAlong* along)
      : ex_(ex), now_(now), along_(along) {
    base_.transport_captured = ex.response.transport_captured;
    base_.http_status = ex.response.status;
    if (auto ct = find_header(ex.response.headers, "content-type")) base_.content_type = std::string(*ct);
    base_.warnings = ex.warnings;
    ctx_ = build_context(ex, flags, base_.warnings, along);
    base_.request_id = ctx_.id;
    base_.method = ctx_.method;
    base_.method_source = ctx_.method_source;
    base_.notification = ctx_.kind_known && ctx_.notification;
    base_.session_id_sent = ctx_.session_id_sent;
    base_.protocol_version = ctx_.version;
    base_.protocol_version_source = ctx_.version_source;
  }

  std::vector<Classification> run() {
    std::vector<Classification> out;
    classify_transport(out);
    for (auto& c : out) finish(c);
    if (along_ && tool_result_ && out.size() == 1 && out.front().outcome == Outcome::TOOL_SUCCESS &&
        out.front().method == "tools/call") {
      along_->tool_result_found = true;
      along_->structured_content = std::move(tool_result_->structured_content);
    }
    return out;
  }

 private:
  const Exchange& ex_;
  long long now_;
  ReadAlong* along_ = nullptr;
  /// The last top-level message judged a tools/call success (a hypothetical verdict too: run()
  /// hands it out only when the exchange's one record is that success).
  struct ToolResult {
    std::optional<std::string> structured_content;
  };
  std::optional<ToolResult> tool_result_;
  Context ctx_;
  Classification base_;
  json::Parser& parser_ = body_parser();

  /// Sets the verdict: the reason decides the outcome (outcome_of) and so the layer.
  static void set(Classification& c, Reason reason, std::string detail, std::string pointer = "") {
    c.outcome = outcome_of(reason);
    c.layer = layer_of(c.outcome);
    c.reason = reason;
    c.detail = std::move(detail);
    c.pointer = std::move(pointer);
  }

  /// The version whose rules apply; infers from the deciding message when nothing says.
  const std::string& version_for(Classification& c, std::optional<View> message, bool batch) {
    if (!c.protocol_version.empty()) return c.protocol_version;
    std::string_view v;  // a constant, or a view into the parsed message
    if (batch) v = kV20250326;
    if (v.empty() && message) {
      if (auto result = field(*message, "result")) {
        if (field(*result, "resultType")) v = kV20260728;
        else if (auto task = field(*result, "task"); task && is_object(*task)) v = kV20251125;
        else if (auto pv = string_field(*result, "protocolVersion"); pv && field(*result, "serverInfo"))
          v = *pv;
      }
    }
    if (!v.empty()) {
      c.protocol_version = v;
      c.protocol_version_source = "inferred";
    } else {
      c.protocol_version = std::string(kV20251125);
      c.protocol_version_source = "assumed";
    }
    return c.protocol_version;
  }

  /// The reader cut the body at --max-body (Response::cut_at_max_body).
  bool cut_at_limit() const { return ex_.response.cut_at_max_body; }

  void finish(Classification& c) {
    if (c.protocol_version.empty()) version_for(c, std::nullopt, false);
    c.retry = advise(c, ex_.response.headers, now_);
  }

  // ---------------- transport

  void classify_transport(std::vector<Classification>& out) {
    const Response& r = ex_.response;
    Classification c = base_;
    if (r.body_state == BodyState::not_captured) {
      std::string detail = fmt::format("HTTP {}: the capture holds no response body; nothing can be judged", r.status);
      if (r.status == 0 && ex_.request) {
        detail = "the capture holds the request but no response; nothing can be judged";
      } else if (r.status == 0) {
        detail = "the capture holds no request and no response (the transfer failed before sending it: see the "
                 "warning); nothing can be judged";
      }
      set(c, Reason::body_not_captured, std::move(detail));
      out.push_back(std::move(c));
      return;
    }
    const std::string media = http::media_type(c.content_type);
    const bool is_json_media = media == "application/json" || media.ends_with("+json");
    const bool is_sse_media = media == "text/event-stream";
    // "HTTP 200 OK", for the details of the failures only (not built for every exchange).
    auto status_text = [&r] { return fmt::format("HTTP {}{}{}", r.status, r.reason.empty() ? "" : " ", r.reason); };

    if (r.status < 200 || r.status > 299) {
      classify_non_2xx(c, is_json_media || (!r.transport_captured && ex_.format == CaptureFormat::bare_json), status_text(), out);
      return;
    }
    if (r.body_state == BodyState::absent) {
      set(c, Reason::body_absent, fmt::format("{}: the capture shows headers but no body", status_text()));
      out.push_back(std::move(c));
      return;
    }
    const bool empty_body = std::all_of(r.body.begin(), r.body.end(),
                                        [](char ch) { return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t'; });
    if (r.body_state == BodyState::truncated && empty_body) {
      // Cut before any body byte (inside the header block, or chunk framing without data):
      // nothing to judge, so never ACCEPTED or an empty-body verdict on the server.
      set(c, Reason::body_absent,
          fmt::format("{}: the capture ends before the body; nothing can be judged", status_text()));
      out.push_back(std::move(c));
      return;
    }
    // Notifications (and client responses): 202 with no body is the only valid reply.
    if (ctx_.kind_known && ctx_.notification) {
      if (r.status == 202 && empty_body) {
        set(c, Reason::accepted, "202 Accepted with no body, answering a notification");
      } else if (r.status == 202) {
        set(c, Reason::body_on_202,
            fmt::format("202 answering a notification must have no body; it has {} bytes", r.body.size()));
      } else {
        set(c, Reason::notification_not_202,
            fmt::format("{} answering a notification; the spec requires 202 Accepted with no body", status_text()));
      }
      out.push_back(std::move(c));
      return;
    }
    if (r.status == 202 || r.status == 204) {
      if (ctx_.kind_known) {
        set(c, r.status == 202 ? Reason::accepted_for_request : Reason::no_content,
            fmt::format("{} answering a JSON-RPC request: a request needs a JSON or SSE response", status_text()));
      } else if (r.status == 202 && empty_body) {
        set(c, Reason::accepted, "202 Accepted with no body");
        c.warnings.push_back("request kind unknown: 202 is valid only for a notification or a client response");
      } else if (r.status == 202) {
        set(c, Reason::body_on_202,
            fmt::format("202 with a {}-byte body: 202 answers notifications and must have no body", r.body.size()));
      } else {
        set(c, Reason::no_content, "204 No Content is not a Streamable HTTP reply");
      }
      out.push_back(std::move(c));
      return;
    }
    if (!r.undecoded_coding.empty()) {
      // Compressed bytes the tool cannot decode say nothing about the server's JSON.
      set(c, Reason::body_not_decoded,
          fmt::format("{}: the body is Content-Encoding {}, which mcptriage cannot decode; nothing can be judged",
                      status_text(), clip(r.undecoded_coding)));
      out.push_back(std::move(c));
      return;
    }
    if (r.plain_under_coding) {
      // Plain bytes of exactly their Content-Length under a coding: sent so, and no client can
      // decode them by the label (docs/formats.md "Content codings", issue 14).
      const auto coding = find_header(r.headers, "Content-Encoding");
      set(c, Reason::content_encoding_mismatch,
          fmt::format("{}: Content-Encoding {}, but the body is {} bytes of plain text, all of its Content-Length: no "
                      "client can decode it{}",
                      status_text(), clip(coding.value_or("")), r.body.size(), hypothetical(r.body)));
      out.push_back(std::move(c));
      return;
    }
    if (!r.transport_captured) {
      if (ex_.format == CaptureFormat::bare_sse) classify_sse(c, out);
      else classify_json_body(c, out);
      return;
    }
    if (is_sse_media) {
      classify_sse(c, out);
      return;
    }
    if (is_json_media) {
      if (empty_body) {
        set(c, Reason::empty_body,
            fmt::format("{} application/json with an empty body: a request needs a JSON-RPC response", status_text()));
        out.push_back(std::move(c));
        return;
      }
      classify_json_body(c, out);
      return;
    }
    // A 2xx whose media type is neither JSON nor SSE: conforming clients reject it.
    std::string would = hypothetical(r.body);
    set(c, c.content_type.empty() ? Reason::content_type_missing_http : Reason::unexpected_content_type,
        fmt::format("{} with Content-Type {}; only application/json or text/event-stream are valid{}", status_text(),
                    c.content_type.empty() ? "(none)" : clip(c.content_type), would));
    out.push_back(std::move(c));
  }

  /// What the body would have been with a valid media type, as " (the body would be X)".
  std::string hypothetical(std::string_view body) {
    bool blank = http::all_space(body);
    if (blank) return "; the body is empty";
    std::vector<Classification> tmp;
    Classification c = base_;
    auto first = body.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (body[first] == '{' || body[first] == '[')) {
      classify_json_body(c, tmp);
    } else if (body.starts_with("data:") || body.starts_with("event:") || body.starts_with("id:") || body.starts_with(":")) {
      classify_sse(c, tmp);
    } else {
      return "; the body is not JSON";
    }
    if (tmp.empty()) return "";
    return fmt::format("; the body would be {} ({})", to_string(tmp.front().outcome), to_string(tmp.front().reason));
  }

  void classify_non_2xx(Classification& c, bool json_media, const std::string& status_text,
                        std::vector<Classification>& out) {
    const Response& r = ex_.response;
    const int status = r.status;
    // Look for a JSON-RPC error in the body (kept as a detail, or decisive for spec pairs).
    std::optional<std::int64_t> code;
    std::string message;
    bool wellformed_error = false;
    if (json_media && r.body_state == BodyState::complete && !r.body.empty()) {
      auto parsed = parser_.parse_string(r.body);
      if (parsed && is_object(*parsed)) {
        const View root = *parsed;
        auto err = field(root, "error");
        std::optional<std::int64_t> code_value;
        if (err && is_object(*err) && string_field(root, "jsonrpc") == std::optional<std::string_view>("2.0") &&
            !field(root, "result") && field(*err, "code") && (code_value = field(*err, "code")->int64()) &&
            string_field(*err, "message")) {
          wellformed_error = true;
          code = code_value;
          message = std::string(*string_field(*err, "message"));
        }
      }
    }
    if (wellformed_error) {
      const std::int64_t k = *code;
      const bool paired = (status == 400 && (k == -32700 || k == -32600 || k == -32602 || k == -32020 ||
                                             k == -32021 || k == -32022)) ||
                          (status == 404 && k == -32601);
      if (paired) {
        classify_json_body(c, out);
        for (auto& rec : out) {
          rec.warnings.push_back(fmt::format("{} carries a JSON-RPC error the spec pairs with this status", status_text));
        }
        return;
      }
      c.error_code = code;
      c.error_message = message;
    }
    std::string rpc = wellformed_error ? fmt::format("; JSON-RPC error {}: {}", *code, clip(message)) : "";
    const bool body_names_session = wellformed_error && http::icontains(message, "session");
    Reason reason = Reason::server_error;
    std::string what;
    switch (status) {
      case 400:
        if (body_names_session) {
          reason = Reason::session_invalid;
          what = "the server rejected the session id (missing, unknown or expired)";
        } else {
          reason = Reason::bad_request;
          what = "the server rejected the request";
        }
        break;
      case 401: reason = Reason::unauthorized; what = "authorization needed, or the token is invalid or expired"; break;
      case 403: {
        auto auth = find_header(r.headers, "www-authenticate");
        if (auth && http::icontains(*auth, "insufficient_scope")) {
          reason = Reason::insufficient_scope;
          what = "the token lacks a required scope";
        } else {
          reason = Reason::forbidden;
          what = "forbidden (an invalid Origin, or insufficient permissions)";
        }
        break;
      }
      case 404:
        if (ctx_.session_id_sent && !(c.protocol_version >= kV20260728)) {
          reason = Reason::session_expired;
          what = "the request carried Mcp-Session-Id and the server no longer knows it: the session ended";
        } else {
          reason = Reason::not_found;
          what = body_names_session
                     ? "the body names a missing session; if the request carried Mcp-Session-Id, the session ended"
                     : "wrong endpoint, a legacy server, or (if the request carried Mcp-Session-Id) an ended session";
        }
        break;
      case 405: reason = Reason::method_not_allowed; what = "the endpoint does not allow this HTTP method"; break;
      case 406: reason = Reason::not_acceptable; what = "the Accept header must list application/json and text/event-stream"; break;
      case 408: reason = Reason::request_timeout; what = "the server timed out waiting for the request"; break;
      case 409: reason = Reason::conflict; what = "conflict"; break;
      case 413: reason = Reason::payload_too_large; what = "the request body is too large"; break;
      case 415: reason = Reason::unsupported_media_type; what = "the request Content-Type must be application/json"; break;
      case 429: reason = Reason::rate_limited; what = "rate limited"; break;
      case 500: reason = Reason::internal_server_error; what = "the server failed while handling the request"; break;
      case 502: reason = Reason::bad_gateway; what = "a gateway or proxy got no valid reply from the server"; break;
      case 503: reason = Reason::service_unavailable; what = "the server is unavailable"; break;
      case 504: reason = Reason::gateway_timeout; what = "a gateway or proxy timed out waiting for the server"; break;
      default:
        if (status < 200) {
          reason = Reason::no_final_response_interim;
          what = "only an interim (1xx) response was captured";
        } else if (status < 400) {
          reason = Reason::redirect_not_followed;
          what = "a redirect that was not followed (curl -L follows it)";
        } else if (status < 500) {
          reason = Reason::client_error;
          what = "the server refused the request";
        } else {
          reason = Reason::server_error;
          what = "the server or a proxy failed";
        }
    }
    if (r.body_state == BodyState::absent) what += " (the capture has no body)";
    if (!json_media && !r.body.empty() && !wellformed_error) {
      std::string media = http::media_type(c.content_type);
      if (!media.empty()) what += fmt::format(" (a {} body, not MCP)", clip(media));
    }
    set(c, reason, fmt::format("{}: {}{}", status_text, what, rpc));
    out.push_back(std::move(c));
  }

  // ---------------- JSON bodies

  void classify_json_body(Classification& c, std::vector<Classification>& out) {
    const Response& r = ex_.response;
    if (r.body_state == BodyState::truncated) {
      if (cut_at_limit()) {
        set(c, Reason::cut_at_limit,
            fmt::format("the body is larger than --max-body and was cut at {} bytes; raise --max-body to judge it",
                        r.body.size()));
      } else {
        set(c, Reason::truncated,
            fmt::format("the body was cut short: {} bytes captured, fewer than announced", r.body.size()));
      }
      version_for(c, std::nullopt, false);
      out.push_back(std::move(c));
      return;
    }
    Parsed p = parse_json(parser_, r.body);
    if (!p.ok && http::looks_gzip(r.body)) {
      // The reader could not inflate it (cut or corrupt gzip); its warning says why.
      set(c, Reason::undecodable_gzip,
          "the body is gzip data that could not be decompressed (cut short or corrupt)");
      version_for(c, std::nullopt, false);
      out.push_back(std::move(c));
      return;
    }
    if (!p.ok) {
      set(c, p.reason, p.detail);
      version_for(c, std::nullopt, false);
      out.push_back(std::move(c));
      return;
    }
    const std::size_t first = out.size();
    if (is_array(p.root)) {
      judge_batch(c, p.root, out);
    } else {
      judge_message(c, p.root, "");
      if (!ctx_.batch_ids.empty()) {
        c.warnings.push_back("a batch request answered by one response, not an array of them (JSON-RPC 2.0 §6)");
      }
      out.push_back(std::move(c));
    }
    note_unanswered_batch_requests(out, first);
  }

  /// A captured batch request (2025-03-26): each of its requests expects a response with its
  /// id (JSON-RPC 2.0 §6); the ids no record answered are named in a warning on the first.
  void note_unanswered_batch_requests(std::vector<Classification>& out, std::size_t first) const {
    if (ctx_.batch_ids.empty() || first >= out.size()) return;
    std::string missing;
    std::size_t n = 0;
    for (const JsonRpcId& id : ctx_.batch_ids) {
      const bool answered = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                        [&](const Classification& r) { return r.id_checked && r.request_id == id; });
      if (!answered) {
        missing += (missing.empty() ? "" : ", ") + id.to_json();
        ++n;
      }
    }
    if (n > 0) {
      out[first].warnings.push_back(fmt::format("request {} {} of the batch got no response (JSON-RPC 2.0 §6)",
                                                n == 1 ? "id" : "ids", missing));
    }
  }

  void judge_batch(Classification& c, View root, std::vector<Classification>& out) {
    std::string v = version_for(c, std::nullopt, true);
    if (!(v >= kV20250326 && v < kV20250618)) {  // 2025-03-26 rules: from it until 2025-06-18 (versions compare as dates)
      set(c, Reason::batch_not_allowed,
          fmt::format("a JSON array (batch) reply, but protocol version {} has no batching (removed in 2025-06-18)", v));
      out.push_back(std::move(c));
      return;
    }
    const std::size_t n = root.size();
    if (n == 0) {
      set(c, Reason::empty_batch, "an empty JSON array is not a JSON-RPC batch response");
      out.push_back(std::move(c));
      return;
    }
    // With a known request id, only its response decides; otherwise every element is a record.
    std::size_t i = 0;
    for (View item : root.items()) {
      Classification ci = c;
      if (c.request_id) {
        auto idv = field(item, "id");
        if (!idv || !(id_of(*idv) == *c.request_id)) {
          ++i;
          continue;
        }
      }
      judge_message(ci, item, "/" + std::to_string(i));
      ci.warnings.push_back(fmt::format("batch element {} of {}", i, n));
      out.push_back(std::move(ci));
      ++i;
    }
    if (out.empty()) {
      set(c, Reason::id_mismatch,
          fmt::format("no element of the batch answers request id {}", c.request_id->to_json()));
      out.push_back(std::move(c));
    }
  }

  /// Envelope, then result checks, for one JSON-RPC message (a response, we hope).
  void judge_message(Classification& c, View msg, const std::string& prefix) {
    version_for(c, msg, false);
    if (!is_object(msg)) {
      set(c, Reason::not_an_object, "the JSON-RPC response is not a JSON object", prefix);
      return;
    }
    if (auto early_id = field(msg, "id")) c.response_id = id_of(*early_id);
    if (auto dup = json::first_duplicate_member(msg, prefix)) {
      const std::string& d = *dup;
      const bool in_result = d.starts_with(prefix + "/result/");
      if (in_result) {
        if (auto result = field(msg, "result"); result && is_object(*result) && c.method.empty()) {
          infer_method_from_result(c, *result);
        }
        set(c, is_tool_method(c.method) ? Reason::duplicate_member_tool_result : Reason::duplicate_member_result,
            fmt::format("duplicate member name at {}: the meaning is ambiguous", d), d);
      } else {
        set(c, Reason::duplicate_member_envelope,
            fmt::format("duplicate member name at {}: the meaning is ambiguous", d), d);
      }
      return;
    }
    auto jsonrpc = field(msg, "jsonrpc");
    if (!jsonrpc || jsonrpc->string() != std::optional<std::string_view>("2.0")) {
      set(c, Reason::jsonrpc_version,
          jsonrpc ? fmt::format("\"jsonrpc\" is {}, not \"2.0\"", clip(json_text(*jsonrpc))) : "\"jsonrpc\": \"2.0\" is missing",
          prefix + "/jsonrpc");
      return;
    }
    auto idv = field(msg, "id");
    if (idv) c.response_id = id_of(*idv);
    if (field(msg, "method")) {
      set(c, Reason::not_a_response,
          fmt::format("a JSON-RPC {} (\"method\": {}), not a response", idv ? "request" : "notification",
                      clip(json_text(*field(msg, "method")))),
          prefix + "/method");
      return;
    }
    auto result = field(msg, "result");
    auto error = field(msg, "error");
    if (result && error) {
      set(c, Reason::result_and_error, "the response has both \"result\" and \"error\"", prefix);
      return;
    }
    if (!result && !error) {
      set(c, Reason::no_result_or_error, "the response has neither \"result\" nor \"error\"", prefix);
      return;
    }
    if (idv && !idv->is_string() && !idv->is_integer() && !idv->is_null()) {
      set(c, Reason::id_invalid_type,
          fmt::format("\"id\" is {}: a JSON-RPC id is a string or an integer", clip(json_text(*idv))), prefix + "/id");
      return;
    }
    if (error) {
      judge_error(c, *error, idv, prefix);
      return;
    }
    // A result: its id must be there and match.
    if (!idv) {
      set(c, Reason::id_missing, "a result without \"id\" cannot be paired with a request", prefix);
      return;
    }
    if (idv->is_null()) {
      set(c, Reason::id_null, "a result with \"id\": null cannot be paired with a request", prefix + "/id");
      return;
    }
    if (!pair_id(c, *idv, prefix, "response")) return;
    if (!is_object(*result)) {
      set(c, Reason::result_not_object,
          fmt::format("\"result\" is {}, not an object", type_name(*result)), prefix + "/result");
      return;
    }
    judge_result(c, *result, prefix + "/result");
    if (along_ && prefix.empty() && c.outcome == Outcome::TOOL_SUCCESS && c.method == "tools/call") {
      ToolResult t;
      if (auto sc = field(*result, "structuredContent")) t.structured_content = json_text(*sc);
      tool_result_ = std::move(t);
    }
  }

  /// Compares the response id with the request id (type and value, BASE §Responses). False, with
  /// INVALID_ENVELOPE/id_mismatch set, when they differ; without a request id, warns and passes.
  bool pair_id(Classification& c, View idv, const std::string& prefix, std::string_view what) const {
    if (!c.request_id && !ctx_.batch_ids.empty()) {
      // A batch request: the response answers one of its requests (JSON-RPC 2.0 §6).
      const JsonRpcId id = id_of(idv);
      if (std::find(ctx_.batch_ids.begin(), ctx_.batch_ids.end(), id) == ctx_.batch_ids.end()) {
        std::string ids;
        for (const JsonRpcId& b : ctx_.batch_ids) ids += (ids.empty() ? "" : ", ") + b.to_json();
        set(c, Reason::id_mismatch,
            fmt::format("{} id {} answers no request of the batch (ids {})", what, id.to_json(), ids), prefix + "/id");
        return false;
      }
      c.request_id = id;
      c.id_checked = true;
      return true;
    }
    if (!c.request_id) {
      c.warnings.push_back("request id unknown: the response id was not checked");
      return true;
    }
    if (!(id_of(idv) == *c.request_id)) {
      set(c, Reason::id_mismatch,
          fmt::format("{} id {} does not equal request id {} (type and value)", what, c.response_id->to_json(),
                      c.request_id->to_json()),
          prefix + "/id");
      return false;
    }
    c.id_checked = true;
    return true;
  }

  static std::string type_name(View e) {
    switch (e.type()) {
      case json::Type::array: return "an array";
      case json::Type::object: return "an object";
      case json::Type::int64:
      case json::Type::uint64:
      case json::Type::float64: return "a number";
      case json::Type::string: return "a string";
      case json::Type::boolean: return "a boolean";
      case json::Type::null: return "null";
    }
    return "a value";
  }

  static Reason error_reason(std::int64_t code) {
    switch (code) {
      case -32700: return Reason::parse_error;
      case -32600: return Reason::invalid_request;
      case -32601: return Reason::method_not_found;
      case -32602: return Reason::invalid_params;
      case -32603: return Reason::internal_error;
      case -32002: return Reason::resource_not_found;
      case -32042: return Reason::url_elicitation_required;
      case -32020: return Reason::header_mismatch;
      case -32021: return Reason::missing_client_capability;
      case -32022: return Reason::unsupported_protocol_version;
      case -32001: return Reason::session_not_found;
      default: break;
    }
    if (code >= -32099 && code <= -32000) return Reason::server_defined_error;
    if (code >= -32768 && code <= -32000) return Reason::reserved_error_code;
    return Reason::application_error;
  }

  void judge_error(Classification& c, View error, std::optional<View> idv, const std::string& prefix) {
    if (!is_object(error)) {
      set(c, Reason::error_not_object, fmt::format("\"error\" is {}, not an object", type_name(error)),
          prefix + "/error");
      return;
    }
    auto code = field(error, "code");
    const std::optional<std::int64_t> code_int = code ? code->int64() : std::nullopt;
    if (!code_int) {
      set(c, Reason::error_code_not_integer,
          code ? fmt::format("\"error.code\" is {}: it must be an integer", clip(json_text(*code))) : "\"error.code\" is missing",
          prefix + "/error/code");
      return;
    }
    auto message = string_field(error, "message");
    if (!message) {
      set(c, Reason::error_message_not_string, "\"error.message\" is missing or not a string",
          prefix + "/error/message");
      return;
    }
    const std::int64_t code_value = *code_int;
    c.error_code = code_value;
    c.error_message = std::string(*message);
    if (auto data = field(error, "data")) {
      if (auto supported = field(*data, "supported"); supported && is_array(*supported)) {
        for (View v : supported->items()) {
          if (auto s = v.string()) c.supported_versions.emplace_back(*s);
        }
      }
    }
    if (!idv || idv->is_null()) {
      c.warnings.push_back(idv ? "error with \"id\": null cannot be paired with the request (lenient: JSON-RPC 2.0 allows it, MCP does not)"
                               : "error without \"id\" cannot be paired with the request (the server could not read the id)");
    } else if (!pair_id(c, *idv, prefix, "error response")) {
      return;
    }
    if (c.method.empty()) c.method_source = MethodSource::inferred;
    set(c, error_reason(code_value),
        fmt::format("JSON-RPC error {}: {}", code_value, clip(*message)), "");
  }

  static bool is_tool_method(const std::string& m) { return m == "tools/call" || m == "tasks/result"; }

  void judge_result(Classification& c, View result, const std::string& ptr) {
    if (c.method.empty()) infer_method_from_result(c, result);
    const std::string& method = c.method;
    const bool tool = is_tool_method(method);
    // A shape fault is INVALID_TOOL_RESULT for a tool method, INVALID_RESULT for the others.
    auto invalid = [tool](Reason for_tool, Reason for_other) { return tool ? for_tool : for_other; };

    // resultType (2026-07-28; absent means "complete").
    std::string result_type = "complete";
    if (auto rt = field(result, "resultType")) {
      const auto s = rt->string();
      if (!s) {
        set(c, invalid(Reason::result_type_not_string_tool_result, Reason::result_type_not_string_result), fmt::format("\"resultType\" is {}, not a string", type_name(*rt)),
            ptr + "/resultType");
        return;
      }
      result_type = std::string(*s);
      c.result_type = result_type;
    } else if (c.protocol_version >= kV20260728 && c.protocol_version_source != "assumed") {
      c.warnings.push_back("resultType is missing (required from 2026-07-28); treated as \"complete\"");
    }
    if (result_type == "input_required") {
      const bool allowed = method == "tools/call" || method == "prompts/get" || method == "resources/read" || method.empty();
      if (!allowed) {
        set(c, Reason::input_required_not_allowed,
            fmt::format("\"input_required\" is only valid for tools/call, prompts/get and resources/read, not {}", method),
            ptr + "/resultType");
        return;
      }
      auto requests = field(result, "inputRequests");
      auto state = field(result, "requestState");
      if (requests && !is_object(*requests)) {
        set(c, invalid(Reason::input_requests_not_object_tool_result, Reason::input_requests_not_object_result), "\"inputRequests\" is not an object", ptr + "/inputRequests");
        return;
      }
      if (state && !state->is_string()) {
        set(c, invalid(Reason::request_state_not_string_tool_result, Reason::request_state_not_string_result), "\"requestState\" is not a string", ptr + "/requestState");
        return;
      }
      if (!requests && !state) {
        set(c, invalid(Reason::input_required_empty_tool_result, Reason::input_required_empty_result), "\"input_required\" with neither \"inputRequests\" nor \"requestState\"",
            ptr);
        return;
      }
      std::string keys;
      if (requests) {
        for (auto [key, value] : requests->members()) {
          std::string_view m = string_field(value, "method").value_or("?");
          keys += fmt::format("{}{} ({})", keys.empty() ? "" : ", ", clip(key), clip(m));
        }
      }
      set(c, Reason::input_required,
          requests ? fmt::format("the server needs input before it can finish: {}", keys.empty() ? "(no requests)" : keys)
                   : "the server asks to retry with the echoed requestState (no input requests)");
      return;
    }
    if (result_type == "task") {
      if (!tool && method != "tools/call") {
        set(c, Reason::task_not_allowed,
            fmt::format("resultType \"task\" answering {}: only task-capable methods may create tasks", method), ptr + "/resultType");
        return;
      }
      judge_task(c, result, ptr, /*nested=*/false);
      return;
    }
    if (result_type != "complete") {
      set(c, invalid(Reason::unknown_result_type_tool_result, Reason::unknown_result_type_result), fmt::format("unknown resultType \"{}\"", clip(result_type)), ptr + "/resultType");
      return;
    }
    if (method == "tools/call") {
      if (auto task = field(result, "task"); task && !field(result, "content")) {
        judge_task(c, *task, ptr + "/task", /*nested=*/true);
        return;
      }
    }
    if (tool) {
      judge_tool_result(c, result, ptr);
      return;
    }
    judge_other_result(c, result, ptr);
  }

  void infer_method_from_result(Classification& c, View result) {
    c.method_source = MethodSource::inferred;
    auto has = [&](std::string_view k) { return field(result, k).has_value(); };
    if (has("content") || has("isError") || has("structuredContent") || has("task") || has("inputRequests") ||
        has("requestState") || has("taskId")) c.method = "tools/call";
    else if (has("protocolVersion") && (has("serverInfo") || has("capabilities"))) c.method = "initialize";
    else if (has("supportedVersions")) c.method = "server/discover";
    else if (has("tools")) c.method = "tools/list";
    else if (has("resourceTemplates")) c.method = "resources/templates/list";
    else if (has("resources")) c.method = "resources/list";
    else if (has("prompts")) c.method = "prompts/list";
    else if (has("contents")) c.method = "resources/read";
    else if (has("messages")) c.method = "prompts/get";
    else if (has("completion")) c.method = "completion/complete";
    else {
      bool only_meta = true;
      for (auto [key, value] : result.members()) {
        (void)value;
        if (key != "_meta" && key != "resultType") only_meta = false;
      }
      if (only_meta) {
        c.method = "";
        if (c.warnings.empty() || !c.warnings.back().starts_with("method unknown")) c.warnings.push_back("method unknown and the result is empty: taken as the empty result of a non-tool method");
      } else {
        c.method = "tools/call";
      }
    }
  }

  void judge_task(Classification& c, View task, const std::string& ptr, bool nested) {
    auto id = string_field(task, "taskId");
    if (!id) {
      set(c, Reason::task_id_missing, "a task result without a string \"taskId\"", ptr + "/taskId");
      return;
    }
    auto status = string_field(task, "status");
    if (!status) {
      set(c, Reason::task_status_missing, "a task result without a string \"status\"", ptr + "/status");
      return;
    }
    if (nested && c.protocol_version_source == "assumed") c.protocol_version = std::string(kV20251125);
    auto poll = field(task, nested ? "pollInterval" : "pollIntervalMs");
    std::int64_t poll_ms = 0;
    if (auto ms = poll ? poll->int64() : std::nullopt) {
      poll_ms = *ms;
      c.stream_retry_ms = poll_ms;
    }
    set(c, Reason::task_created,
        fmt::format("task {} created, status {}{}", clip(*id), clip(*status),
                    poll ? fmt::format(", poll every {} ms", poll_ms) : std::string()));
  }

  void judge_tool_result(Classification& c, View result, const std::string& ptr) {
    const std::string& v = c.protocol_version;
    auto content = field(result, "content");
    if (!content) {
      set(c, Reason::content_missing, "a tool result without \"content\"", ptr + "/content");
      return;
    }
    if (!is_array(*content)) {
      set(c, Reason::content_not_array,
          fmt::format("\"content\" is {}, not an array", type_name(*content)), ptr + "/content");
      return;
    }
    std::size_t i = 0;
    std::string_view first_text;  // a view into the parsed body: tool output can be large
    for (View item : content->items()) {
      // The item's JSON Pointer, built only for a finding (this loop runs for every tool result).
      auto ip = [&] { return fmt::format("{}/content/{}", ptr, i); };
      if (!is_object(item)) {
        set(c, Reason::content_item_not_object,
            fmt::format("content item {} is {}, not an object", i, type_name(item)), ip());
        return;
      }
      auto type = string_field(item, "type");
      if (!type) {
        set(c, Reason::content_type_missing_item,
            fmt::format("content item {} has no string \"type\"", i), ip() + "/type");
        return;
      }
      static constexpr std::array<std::string_view, 1> kText{"text"}, kResource{"resource"};
      static constexpr std::array<std::string_view, 2> kMedia{"data", "mimeType"}, kLink{"uri", "name"};
      std::span<const std::string_view> required;
      if (*type == "text") required = kText;
      else if (*type == "image" || *type == "audio") required = kMedia;
      else if (*type == "resource_link" && v >= kV20250618) required = kLink;
      else if (*type == "resource") required = kResource;
      else {
        set(c, Reason::content_type_unknown,
            fmt::format("content item {} has type \"{}\", not a content block type of {}", i, clip(*type), v), ip() + "/type");
        return;
      }
      for (auto name : required) {
        auto f = field(item, name);
        bool ok = f.has_value() && (name == "resource" ? is_object(*f) : f->is_string());
        if (!ok) {
          set(c, Reason::content_field_missing,
              fmt::format("{} content item {} needs {} \"{}\"", *type, i, name == "resource" ? "an object" : "a string", name),
              ip() + "/" + std::string(name));
          return;
        }
      }
      if (*type == "resource") {
        const View res = *field(item, "resource");
        bool uri_ok = string_field(res, "uri").has_value();
        bool body_ok = string_field(res, "text").has_value() || string_field(res, "blob").has_value();
        if (!uri_ok || !body_ok) {
          set(c, Reason::content_field_missing,
              fmt::format("resource content item {} needs \"resource.uri\" and \"resource.text\" or \"resource.blob\"", i),
              ip() + (uri_ok ? "/resource/text" : "/resource/uri"));
          return;
        }
      }
      if (*type == "text" && first_text.empty()) first_text = *string_field(item, "text");
      ++i;
    }
    bool is_error = false;
    if (auto ie = field(result, "isError")) {
      if (auto b = ie->boolean()) {
        is_error = *b;
      } else {
        set(c, Reason::is_error_not_boolean,
            fmt::format("\"isError\" is {}, not a boolean", type_name(*ie)), ptr + "/isError");
        return;
      }
    }
    if (auto sc = field(result, "structuredContent")) {
      if (v >= kV20250618 && v < kV20260728 && !is_object(*sc)) {  // versions compare as dates
        set(c, Reason::structured_content_not_object,
            fmt::format("\"structuredContent\" is {}; before 2026-07-28 it must be an object", type_name(*sc)),
            ptr + "/structuredContent");
        return;
      }
    }
    // The detail, appended in place: "N content item(s)[: first text]" (every tool result).
    std::string detail;
    if (is_error) {
      if (first_text.empty()) {
        detail = "the tool reported an error (isError: true)";
      } else {
        detail = "the tool reported an error: ";
        append_clipped(detail, first_text);
      }
    } else {
      char digits[24];
      detail.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, i).ptr - digits));
      detail += i == 1 ? " content item" : " content items";
      if (!first_text.empty()) {
        detail += ": ";
        append_clipped(detail, first_text);
      }
    }
    set(c, is_error ? Reason::tool_error : Reason::tool_success, std::move(detail));
  }

  void judge_other_result(Classification& c, View result, const std::string& ptr) {
    const std::string& m = c.method;
    // A member the method's result requires, and the reasons for it missing or of another type.
    struct Required {
      std::string_view key;
      Reason missing;
      Reason invalid;
    };
    auto need = [&](const Required& r, json::Type t, std::string_view what) -> bool {
      auto f = field(result, r.key);
      bool ok = f.has_value() && f->type() == t;
      if (!ok) {
        set(c, f ? r.invalid : r.missing,
            fmt::format("{} result: \"{}\" {}", m, r.key, f ? fmt::format("is {}, not {}", type_name(*f), what) : "is missing"),
            ptr + "/" + std::string(r.key));
      }
      return ok;
    };
    if (m == "initialize") {
      if (!need({"protocolVersion", Reason::protocol_version_missing, Reason::protocol_version_invalid},
                json::Type::string, "a string")) {
        return;
      }
      if (!need({"capabilities", Reason::capabilities_missing, Reason::capabilities_invalid}, json::Type::object,
                "an object")) {
        return;
      }
      if (!need({"serverInfo", Reason::server_info_missing, Reason::server_info_invalid}, json::Type::object,
                "an object")) {
        return;
      }
      auto info = *field(result, "serverInfo");
      set(c, Reason::rpc_success,
          fmt::format("initialize: protocol {}, server {} {}", clip(*string_field(result, "protocolVersion")),
                      clip(string_field(info, "name").value_or("?")), clip(string_field(info, "version").value_or(""))));
      return;
    }
    if (m == "tools/list") {
      if (!need({"tools", Reason::tools_missing, Reason::tools_invalid}, json::Type::array, "an array")) return;
      std::size_t i = 0;
      for (View tool : field(result, "tools")->items()) {
        if (!is_object(tool) || !string_field(tool, "name")) {
          set(c, Reason::tool_name_missing, fmt::format("tools/list: tool {} has no string \"name\"", i),
              fmt::format("{}/tools/{}/name", ptr, i));
          return;
        }
        auto schema = field(tool, "inputSchema");
        if (!schema || !is_object(*schema)) {
          set(c, Reason::tool_input_schema_missing,
              fmt::format("tools/list: tool \"{}\" has no \"inputSchema\" object", clip(*string_field(tool, "name"))),
              fmt::format("{}/tools/{}/inputSchema", ptr, i));
          return;
        }
        ++i;
      }
      set(c, Reason::rpc_success, fmt::format("tools/list: {} tool{}", i, i == 1 ? "" : "s"));
      return;
    }
    struct ListShape {
      std::string_view method;
      Required list;  ///< the array member
    };
    static constexpr ListShape kLists[] = {
        {"resources/list", {"resources", Reason::resources_missing, Reason::resources_invalid}},
        {"resources/templates/list",
         {"resourceTemplates", Reason::resource_templates_missing, Reason::resource_templates_invalid}},
        {"prompts/list", {"prompts", Reason::prompts_missing, Reason::prompts_invalid}},
        {"resources/read", {"contents", Reason::contents_missing, Reason::contents_invalid}},
        {"prompts/get", {"messages", Reason::messages_missing, Reason::messages_invalid}},
        {"server/discover",
         {"supportedVersions", Reason::supported_versions_missing, Reason::supported_versions_invalid}}};
    for (const auto& shape : kLists) {
      if (m == shape.method) {
        if (!need(shape.list, json::Type::array, "an array")) return;
        std::size_t n = field(result, shape.list.key)->size();
        set(c, Reason::rpc_success, fmt::format("{}: {} {}", m, n, shape.list.key));
        return;
      }
    }
    if (m == "completion/complete") {
      if (!need({"completion", Reason::completion_missing, Reason::completion_invalid}, json::Type::object,
                "an object")) {
        return;
      }
    }
    set(c, Reason::rpc_success,
        m.empty() ? std::string("an empty result (method unknown)") : fmt::format("{}: result received", m));
  }

  // ---------------- SSE bodies

  struct EventSummary {
    enum class Kind { notification, server_request, response, invalid_json, not_jsonrpc } kind;
    std::string method;
    std::optional<JsonRpcId> id;  ///< response id (absent when the member is missing)
    bool is_error = false;
    Reason parse_reason = Reason::invalid_json;
    std::string parse_detail;
  };

  void classify_sse(Classification& c, std::vector<Classification>& out) {
    const Response& r = ex_.response;
    sse::Stream stream = sse::parse(r.body);
    c.sse_events = stream.events.size();
    c.stream_retry_ms = stream.retry_ms;
    if (stream.unterminated_tail) c.warnings.push_back("the stream ended inside an event; that event was dropped (WHATWG rule)");
    if (r.body_state == BodyState::truncated) c.warnings.push_back("the body was cut short of its announced length");

    std::vector<EventSummary> summaries;
    summaries.reserve(stream.events.size());
    std::optional<std::size_t> decider;   // index of the matching (or first) response
    std::optional<std::size_t> fallback;  // an id-less / null-id error, used if nothing matches
    std::size_t notifications = 0;
    std::optional<std::size_t> last_server_request;
    std::optional<std::size_t> first_invalid;
    // Once the deciding event is found, its document stays in parser_ and the events after it
    // are read with a second parser: the decider is parsed once.
    json::Parser* scan = &parser_;
    std::optional<View> decider_root;
    for (std::size_t i = 0; i < stream.events.size(); ++i) {
      const sse::Event& ev = stream.events[i];
      EventSummary s{EventSummary::Kind::not_jsonrpc, "", std::nullopt, false, Reason::invalid_json, ""};
      Parsed p = parse_json(*scan, ev.data);
      if (!p.ok) {
        s.kind = EventSummary::Kind::invalid_json;
        s.parse_reason = p.reason;
        s.parse_detail = p.detail;
        if (ev.type == "endpoint") {
          c.warnings.push_back("an `endpoint` event (legacy 2024-11-05 HTTP+SSE transport) was skipped");
          s.kind = EventSummary::Kind::not_jsonrpc;
        } else if (!first_invalid) {
          first_invalid = i;
        }
        summaries.push_back(std::move(s));
        continue;
      }
      View root = p.root;
      if (is_object(root)) {
        auto method = string_field(root, "method");
        auto idv = field(root, "id");
        if (method) {
          s.method = std::string(*method);
          s.kind = idv ? EventSummary::Kind::server_request : EventSummary::Kind::notification;
          if (idv) last_server_request = i;
          else ++notifications;
        } else {
          s.kind = EventSummary::Kind::response;
          if (idv) s.id = id_of(*idv);
          s.is_error = field(root, "error").has_value();
          if (!decider) {
            if (!c.request_id) {
              decider = i;
            } else if (s.id && *s.id == *c.request_id) {
              decider = i;
            } else if (s.is_error && (!s.id || s.id->kind == JsonRpcId::Kind::null)) {
              if (!fallback) fallback = i;
            } else {
              c.warnings.push_back(fmt::format("event {} is a response for another id ({})", i + 1,
                                               s.id ? s.id->to_json() : std::string("none")));
            }
          }
        }
      } else if (is_array(root)) {
        // A batch inside one event (2025-03-26): look for the matching element.
        s.kind = EventSummary::Kind::response;
        if (!decider) decider = i;
      }
      if (decider == i) {
        decider_root = root;
        scan = &rest_parser();
      }
      summaries.push_back(std::move(s));
    }
    if (!decider && fallback) decider = fallback;
    std::string v = c.protocol_version;
    if (decider) {
      const std::size_t i = *decider;
      if (i + 1 < summaries.size()) {
        c.warnings.push_back(fmt::format("{} more event(s) after the final response", summaries.size() - i - 1));
      }
      if (notifications > 0) c.warnings.push_back(fmt::format("{} notification(s) before the response", notifications));
      if (first_invalid && *first_invalid < i) {
        c.warnings.push_back(fmt::format("event {} was not valid JSON ({}); skipped", *first_invalid + 1,
                                         to_string(summaries[*first_invalid].parse_reason)));
      }
      View root;
      if (decider_root) {
        root = *decider_root;
      } else {
        Parsed p = parse_json(parser_, stream.events[i].data);  // the fallback: parsed again
        root = p.root;
      }
      if (is_array(root)) {
        judge_batch(c, root, out);
        return;
      }
      judge_message(c, root, "");
      if (last_server_request && *last_server_request < i && c.protocol_version >= kV20260728 &&
          c.protocol_version_source != "assumed") {
        c.warnings.push_back("a server-to-client request on the stream: forbidden from 2026-07-28");
      }
      out.push_back(std::move(c));
      return;
    }
    if (v.empty()) v = version_for(c, std::nullopt, false);
    // No final response.
    if (first_invalid) {
      const auto& s = summaries[*first_invalid];
      set(c, s.parse_reason,
          fmt::format("SSE event {} that may carry the response: {}", *first_invalid + 1, s.parse_detail));
      out.push_back(std::move(c));
      return;
    }
    const bool pre_2026 = v < kV20260728;
    if (last_server_request && !pre_2026) {
      c.warnings.push_back(fmt::format("the stream carries a server-to-client {} request: forbidden from 2026-07-28",
                                       summaries[*last_server_request].method));
    }
    if (last_server_request && pre_2026) {
      const auto& s = summaries[*last_server_request];
      bool last_is_request = *last_server_request + 1 == summaries.size() ||
                             std::all_of(summaries.begin() + static_cast<std::ptrdiff_t>(*last_server_request) + 1,
                                         summaries.end(),
                                         [](const EventSummary& e) { return e.kind == EventSummary::Kind::notification; });
      if (last_is_request && (s.method == "elicitation/create" || s.method == "sampling/createMessage" ||
                              s.method == "roots/list")) {
        set(c, Reason::server_request_pending,
            fmt::format("the stream ends with the server's {} request and no final response: answer it", s.method));
        out.push_back(std::move(c));
        return;
      }
    }
    c.resumable = stream.any_id && pre_2026;
    if (stream.events.empty() && stream.empty_data_events == 0) {
      set(c, Reason::empty_stream,
          stream.unterminated_tail ? "the stream ended inside its first event: no message was delivered"
                                   : "the server opened an event stream and sent no event");
    } else {
      set(c, Reason::no_final_response_stream,
          fmt::format("the stream ended without the final response ({} event{}, {} notification{}{})",
                      stream.events.size(), stream.events.size() == 1 ? "" : "s", notifications,
                      notifications == 1 ? "" : "s",
                      stream.empty_data_events ? fmt::format(", {} priming", stream.empty_data_events) : std::string()));
    }
    if (*c.resumable) {
      c.detail += fmt::format("; resumable from event id {}", clip(stream.last_event_id));
    }
    out.push_back(std::move(c));
  }
};

}  // namespace

std::vector<Classification> classify(const Exchange& exchange, const ContextFlags& flags, long long now_unix_seconds,
                                     ReadAlong* along) {
  if (along) *along = ReadAlong{};
  Classifier classifier(exchange, flags, now_unix_seconds, along);
  return classifier.run();
}


RequestSummary summarize_request(View body) {
  RequestSummary s;
  if (is_array(body)) {
    s.shape = RequestSummary::Shape::array;
    for (View item : body.items()) {
      if (!is_object(item) || !string_field(item, "method")) continue;
      if (auto id = field(item, "id")) s.batch_ids.push_back(id_of(*id));
    }
    return s;
  }
  if (!is_object(body)) return s;
  s.shape = RequestSummary::Shape::object;
  if (auto method = string_field(body, "method")) s.method = std::string(*method);
  if (auto id = field(body, "id")) {
    s.id = id_of(*id);
    s.id_json = s.id->to_json();  // the text the session keys responses' ids by, too
  }
  if (auto params = field(body, "params")) {
    s.has_params = true;
    s.params_hash = json::canonical_hash(*params, /*skip_meta=*/true);
    if (s.method == std::optional<std::string>("tools/call")) {
      s.tool_name = std::string(string_field(*params, "name").value_or(""));
    }
    if (auto meta = field(*params, "_meta")) {
      if (auto v = string_field(*meta, "io.modelcontextprotocol/protocolVersion")) s.protocol_version = std::string(*v);
    }
  }
  return s;
}

}  // namespace mcptriage
