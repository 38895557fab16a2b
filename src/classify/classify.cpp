// The classifier's layer order (shared/classification.md "One exchange, four layers"): transport
// (capture facts, status, media type), then the framing of the body (JSON, or an event stream:
// sse_body.cpp), then for each JSON-RPC message the envelope and id pairing (src/jsonrpc) and the
// result rules of MCP (src/mcp). The non-2xx statuses are http_status.cpp's; the request context
// is context.cpp's; the rules that change between protocol versions are src/mcp/versions.cpp's.
#include "mcptriage/classify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "classify/judge.hpp"
#include "http/tokens.hpp"
#include "jsonrpc/envelope.hpp"
#include "jsonrpc/request.hpp"
#include "mcp/results.hpp"
#include "mcp/versions.hpp"
#include "mcptriage/advice.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage {
namespace classify_detail {

using json::View;

/// The warning for JSON that RFC 8259 allows and simdjson refuses, read by the parser's second,
/// exact reading (json::Leniency): what differs between clients. RFC 8259 §6 (numbers: no limit
/// on range or precision; interoperable only within IEEE 754 doubles), §8.2 (unpaired
/// surrogates: allowed, their meaning unpredictable).
std::string leniency_warning(const json::Leniency& l) {
  std::string parts;
  auto add = [&parts](std::string part) { parts += (parts.empty() ? "" : "; ") + std::move(part); };
  if (l.big_integers > 0) {
    add(fmt::format("{} integer(s) beyond 64 bits: JavaScript's JSON.parse rounds them to the nearest double "
                    "(ids and values may change), Python reads them exactly, parsers with 64-bit integers refuse "
                    "them (RFC 8259 §6)",
                    l.big_integers));
  }
  if (l.out_of_range > 0) {
    add(fmt::format("{} number(s) beyond the double range: JavaScript and Python read them as Infinity, "
                    "strict parsers refuse them (RFC 8259 §6)",
                    l.out_of_range));
  }
  if (l.lone_surrogates > 0) {
    add(fmt::format("{} escaped unpaired surrogate(s) (\\uD800-\\uDFFF): JavaScript and Python keep them, "
                    "strict parsers (serde_json, simdjson) refuse the text, UTF-8 encoders make them U+FFFD, as "
                    "read here (RFC 8259 §8.2)",
                    l.lone_surrogates));
  }
  return fmt::format("valid JSON that clients read differently: {}", parts);
}

Parsed parse_json(json::Parser& parser, std::string_view text, bool padded) {
  Parsed p;
  auto parsed = parser.parse(text, padded);
  if (parsed) {
    p.ok = true;
    p.root = *parsed;
    if (parser.leniency().any()) p.leniency = leniency_warning(parser.leniency());
    return p;
  }
  const json::ParseError& err = parsed.error();
  p.detail = fmt::format("not valid JSON: {}", err.message);
  if (text.starts_with("\xEF\xBB\xBF")) {
    // The parser says "improper structure"; the cause is the byte order mark.
    p.reason = Reason::invalid_json;
    // Clients differ (docs/classification.md): fetch-based ones strip it, strict parsers refuse it.
    p.detail = "the body starts with a UTF-8 byte order mark (EF BB BF): JSON sent over a network must not "
               "(RFC 8259 §8.1); fetch-based clients (the TypeScript SDK) strip it, as they decode the body as "
               "UTF-8 text first, while strict parsers refuse it (JSON.parse of text that keeps it, Python's "
               "json.loads)";
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

Parsed parse_json(json::Parser& parser, const std::string& text) {
  return parse_json(parser, std::string_view(text), text.capacity() - text.size() >= json::kPadding);
}

json::Parser& body_parser() {
  thread_local json::Parser parser;
  return parser;
}

Judgement::Judgement(const Exchange& ex, const ContextFlags& flags, long long now, ReadAlong* along)
    : ex_(ex), now_(now), along_(along) {
  base_.transport_captured = ex.response.transport_captured;
  base_.http_status = ex.response.status;
  if (auto ct = find_header(ex.response.headers, "content-type")) base_.content_type = std::string(*ct);
  base_.warnings = ex.warnings;
  ctx_ = build_context(ex, flags, base_.warnings, along);
  base_.request_id = ctx_.request.id;
  base_.method = ctx_.request.method.value_or("");
  if (base_.method == "tools/call") base_.tool = ctx_.request.tool_name;
  base_.method_source = ctx_.method_source;
  base_.notification = ctx_.notification() && !ctx_.client_response();
  base_.client_response_id = ctx_.client_response_id;
  base_.session_id_sent = ctx_.session_id_sent;
  base_.protocol_version = ctx_.version;
  base_.protocol_version_source = ctx_.version_source;
  if (ctx_.client_response() && !ctx_.version.empty() &&
      !mcp::in_force(mcp::Rule::server_requests_on_stream, ctx_.version)) {
    // 2026-07-28 transport, Sending Messages: "The client MUST NOT send JSON-RPC responses".
    base_.warnings.push_back(fmt::format(
        "protocol version {} has no server requests (multi round-trip requests replace them) and a client must not "
        "POST a JSON-RPC response",
        clipped(ctx_.version)));
  }
}

std::string Judgement::client_response_text() const {
  return fmt::format("the client's JSON-RPC response to the server's request id {}",
                     clipped(ctx_.client_response_id->to_json()));
}

const std::string& Judgement::version_for(Classification& c, std::optional<View> message, bool batch) {
  if (!c.protocol_version.empty()) return c.protocol_version;
  std::optional<std::string_view> v;  // a constant, or a view into the parsed message
  if (batch) v = mcp::version_rule(mcp::Rule::batching).first;
  if (!v && message) v = mcp::inferred_version(*message);
  if (v && !v->empty()) {
    c.protocol_version = *v;
    c.protocol_version_source = "inferred";
  } else {
    c.protocol_version = std::string(mcp::kAssumedVersion);
    c.protocol_version_source = "assumed";
  }
  return c.protocol_version;
}

void Judgement::finish(std::vector<Classification>& out) {
  for (auto& c : out) {
    if (c.protocol_version.empty()) version_for(c, std::nullopt, false);
    c.retry = advise(c, ex_.response.headers, now_);
  }
  if (along_ && tool_result_ && out.size() == 1 && out.front().outcome == Outcome::TOOL_SUCCESS &&
      out.front().method == "tools/call") {
    along_->tool_result_found = true;
    along_->structured_content = std::move(*tool_result_);
  }
}

// ---------------------------------------------------------------------------------------------
// Transport

Judgement::Framing Judgement::transport(Classification& c, std::vector<Classification>& out) {
  const Response& r = ex_.response;
  auto decide = [&](Reason reason, std::string detail) {
    set_verdict(c, reason, std::move(detail));
    out.push_back(std::move(c));
    return Framing::decided;
  };
  if (r.body_state == BodyState::not_captured) {
    std::string detail = fmt::format("HTTP {}: the capture holds no response body; nothing can be judged", r.status);
    if (r.status == 0 && ex_.request) {
      detail = "the capture holds the request but no response; nothing can be judged";
    } else if (r.status == 0) {
      detail = "the capture holds no request and no response (the transfer failed before sending it: see the "
               "warning); nothing can be judged";
    }
    return decide(Reason::body_not_captured, std::move(detail));
  }
  const std::string media = http::media_type(c.content_type);
  if (r.transport_captured) {
    // Content-Type is a singleton field (RFC 9110 8.3): a second one that differs leaves the
    // media type to the client (Node's fetch joins them, "A, B"). Judged by the first, said.
    std::string others;
    std::size_t fields = 0;
    for (const Header& h : r.headers) {
      if (!http::iequals(h.name, "Content-Type")) continue;
      if (++fields > 1 && h.value != c.content_type) others += (others.empty() ? "" : ", ") + clipped(h.value);
    }
    if (!others.empty()) {
      c.warnings.push_back(fmt::format("{} Content-Type fields ({}, then {}): judged by the first; clients differ "
                                       "(Node's fetch joins them into one value)",
                                       fields, clipped(c.content_type), others));
    }
  }
  if (auto marker = http::challenge_marker(r.status, r.headers, r.body)) {
    // A CDN or WAF answered in the server's place (docs/classification.md "CDN and WAF challenges").
    return decide(Reason::cdn_challenge,
                  fmt::format("HTTP {}{}{}: a CDN or WAF challenge page ({}), not the MCP server's reply{}: the {} never "
                              "reached the MCP server, and a client without a browser cannot pass the challenge",
                              r.status, r.reason.empty() ? "" : " ", r.reason, *marker,
                              ctx_.client_response() ? " to " + client_response_text() : std::string(),
                              ctx_.client_response() ? "response" : ctx_.notification() ? "notification" : "request"));
  }
  const bool is_json_media = media == "application/json" || media.ends_with("+json");
  const bool is_sse_media = media == "text/event-stream";
  // "HTTP 200 OK", for the details of the failures only (not built for every exchange).
  auto status_text = [&r] { return fmt::format("HTTP {}{}{}", r.status, r.reason.empty() ? "" : " ", r.reason); };

  if (r.status < 200 || r.status > 299) {
    judge_non_2xx(c, is_json_media || (!r.transport_captured && ex_.format == CaptureFormat::bare_json), status_text(), out);
    return Framing::decided;
  }
  if (r.body_state == BodyState::absent) {
    return decide(Reason::body_absent, fmt::format("{}: the capture shows headers but no body", status_text()));
  }
  const bool empty_body = std::all_of(r.body.begin(), r.body.end(),
                                      [](char ch) { return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t'; });
  if (r.body_state == BodyState::truncated && empty_body) {
    // Cut before any body byte (inside the header block, or chunk framing without data):
    // nothing to judge, so never ACCEPTED or an empty-body verdict on the server.
    return decide(Reason::body_absent,
                  fmt::format("{}: the capture ends before the body; nothing can be judged", status_text()));
  }
  // A Content-Length with no one valid length (RFC 9112 §6.3 rule 5): the framing is invalid and a
  // client discards the response, so nothing it holds reached the caller. Transfer-Encoding
  // overrides Content-Length (rule 3), and a body the capture tool made (bare bodies) has none.
  if (r.transport_captured) {
    const auto coding = find_header(r.headers, "Transfer-Encoding");
    const auto length = find_header(r.headers, "Content-Length");
    if (coding && length) {
      // RFC 9112 6.1: a server must not send both; 6.3 rule 3: handled as an error (Node's
      // fetch, as the TypeScript SDK uses it, fails with HPE_UNEXPECTED_CONTENT_LENGTH).
      return decide(Reason::invalid_content_length,
                    fmt::format("{} with both Transfer-Encoding {} and Content-Length {}: a server must not send "
                                "both (RFC 9112 6.1), and clients reject the response (RFC 9112 6.3){}",
                                status_text(), clipped(*coding), clipped(*length), hypothetical()));
    }
    if (auto values = coding ? std::nullopt : http::invalid_content_length(r.headers)) {
      return decide(Reason::invalid_content_length,
                    fmt::format("{} with Content-Length \"{}\": no one valid length, so the message framing is "
                                "invalid and a client discards the response (RFC 9112 6.3){}",
                                status_text(), clipped(*values), hypothetical()));
    }
  }
  // Notifications and client responses: 202 with no body is the only valid reply (MCP 2025
  // transports, Sending Messages: "a JSON-RPC response or notification").
  if (ctx_.notification()) {
    const bool response = ctx_.client_response();
    const std::string what = response ? client_response_text() : "a notification";
    if (r.status == 202 && empty_body) {
      return decide(response ? Reason::response_accepted : Reason::accepted,
                    fmt::format("202 Accepted with no body, answering {}", what));
    }
    if (r.status == 202) {
      return decide(Reason::body_on_202,
                    fmt::format("202 answering {} must have no body; it has {} bytes", what, r.body.size()));
    }
    return decide(response ? Reason::response_not_202 : Reason::notification_not_202,
                  fmt::format("{} answering {}; the spec requires 202 Accepted with no body", status_text(), what));
  }
  if (r.status == 202 || r.status == 204) {
    if (ctx_.kind_known()) {
      return decide(r.status == 202 ? Reason::accepted_for_request : Reason::no_content,
                    fmt::format("{} answering a JSON-RPC request: a request needs a JSON or SSE response", status_text()));
    }
    if (r.status == 202 && empty_body) {
      set_verdict(c, Reason::accepted, "202 Accepted with no body");
      c.warnings.push_back("request kind unknown: 202 is valid only for a notification or a client response");
      out.push_back(std::move(c));
      return Framing::decided;
    }
    if (r.status == 202) {
      return decide(Reason::body_on_202,
                    fmt::format("202 with a {}-byte body: 202 answers notifications and must have no body", r.body.size()));
    }
    return decide(Reason::no_content, "204 No Content is not a Streamable HTTP reply");
  }
  if (!r.undecoded_coding.empty()) {
    // Compressed bytes the tool cannot decode say nothing about the server's JSON.
    return decide(Reason::body_not_decoded,
                  fmt::format("{}: the body is Content-Encoding {}, which mcptriage cannot decode; nothing can be judged",
                              status_text(), clipped(r.undecoded_coding)));
  }
  if (r.plain_under_coding) {
    // Plain bytes of exactly their Content-Length under a coding: sent so, and no client can
    // decode them by the label (docs/formats.md "Content codings", issue 14).
    const auto coding = find_header(r.headers, "Content-Encoding");
    return decide(Reason::content_encoding_mismatch,
                  fmt::format("{}: Content-Encoding {}, but the body is {} bytes of plain text, all of its "
                              "Content-Length: no client can decode it{}",
                              status_text(), clipped(coding.value_or("")), r.body.size(), hypothetical()));
  }
  // No transport captured: the framing is the reader's (a bare event-stream body), or, in a HAR
  // entry `--export-har` wrote from one, the content.mimeType it kept (docs/bundle.md).
  if (!r.transport_captured) {
    return ex_.format == CaptureFormat::bare_sse || (ex_.format == CaptureFormat::har && is_sse_media) ? Framing::sse
                                                                                                       : Framing::json;
  }
  if (is_sse_media) return Framing::sse;
  if (is_json_media) {
    if (empty_body) {
      return decide(Reason::empty_body,
                    fmt::format("{} application/json with an empty body: a request needs a JSON-RPC response",
                                status_text()));
    }
    return Framing::json;
  }
  // A 2xx whose media type is neither JSON nor SSE: conforming clients reject it.
  std::string would = hypothetical();
  return decide(c.content_type.empty() ? Reason::content_type_missing_http : Reason::unexpected_content_type,
                fmt::format("{} with Content-Type {}; only application/json or text/event-stream are valid{}",
                            status_text(), c.content_type.empty() ? "(none)" : clipped(c.content_type), would));
}

/// What the body would have been with a valid media type, as "; the body would be X (reason)".
std::string Judgement::hypothetical() {
  const std::string& body = ex_.response.body;
  if (http::all_space(body)) return "; the body is empty";
  std::vector<Classification> tmp;
  Classification c = base_;
  auto first = body.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (body[first] == '{' || body[first] == '[')) {
    judge_json_body(c, tmp);
  } else if (body.starts_with("data:") || body.starts_with("event:") || body.starts_with("id:") || body.starts_with(":")) {
    judge_sse_body(std::move(c), body, tmp);
  } else {
    return "; the body is not JSON";
  }
  if (tmp.empty()) return "";
  return fmt::format("; the body would be {} ({})", to_string(tmp.front().outcome), to_string(tmp.front().reason));
}

// ---------------------------------------------------------------------------------------------
// JSON bodies and messages

void Judgement::judge_json_body(Classification& c, std::vector<Classification>& out) {
  const Response& r = ex_.response;
  if (r.body_state == BodyState::truncated) {
    if (r.cut_at_max_body) {
      set_verdict(c, Reason::cut_at_limit,
                  fmt::format("the body is larger than --max-body and was cut at {} bytes; raise --max-body to judge it",
                              r.body.size()));
    } else {
      set_verdict(c, Reason::truncated,
                  fmt::format("the body was cut short: {} bytes captured, fewer than announced", r.body.size()));
    }
    version_for(c, std::nullopt, false);
    out.push_back(std::move(c));
    return;
  }
  Parsed p = parse_json(body_parser(), r.body);
  if (!p.ok && http::looks_gzip(r.body)) {
    // The reader could not inflate it (cut or corrupt gzip); its warning says why.
    set_verdict(c, Reason::undecodable_gzip, "the body is gzip data that could not be decompressed (cut short or corrupt)");
    version_for(c, std::nullopt, false);
    out.push_back(std::move(c));
    return;
  }
  if (!p.ok) {
    set_verdict(c, p.reason, p.detail);
    version_for(c, std::nullopt, false);
    out.push_back(std::move(c));
    return;
  }
  const std::size_t first = out.size();
  if (!p.leniency.empty()) c.warnings.push_back(std::move(p.leniency));
  if (p.root.is_array()) {
    judge_batch(c, p.root, out);
  } else {
    judge_message(c, p.root, "");
    if (!ctx_.batch_ids().empty()) {
      c.warnings.push_back("a batch request answered by one response, not an array of them (JSON-RPC 2.0 §6)");
    }
    out.push_back(std::move(c));
  }
  jsonrpc::note_unanswered(out, first, ctx_.batch_ids());
}

void Judgement::judge_batch(Classification& c, View root, std::vector<Classification>& out) {
  std::string v = version_for(c, std::nullopt, true);
  if (!mcp::in_force(mcp::Rule::batching, v)) {
    set_verdict(c, Reason::batch_not_allowed,
                fmt::format("a JSON array (batch) reply, but protocol version {} has no batching (removed in 2025-06-18)", v));
    out.push_back(std::move(c));
    return;
  }
  const std::size_t n = root.size();
  if (n == 0) {
    set_verdict(c, Reason::empty_batch, "an empty JSON array is not a JSON-RPC batch response");
    out.push_back(std::move(c));
    return;
  }
  // With a known request id, only its response decides; otherwise every element is a record.
  std::size_t i = 0;
  for (View item : root.items()) {
    if (c.request_id && !jsonrpc::answers(item, *c.request_id)) {
      ++i;
      continue;
    }
    Classification ci = c;
    judge_message(ci, item, "/" + std::to_string(i));
    ci.warnings.push_back(fmt::format("batch element {} of {}", i, n));
    out.push_back(std::move(ci));
    ++i;
  }
  if (out.empty()) {
    set_verdict(c, Reason::id_mismatch, fmt::format("no element of the batch answers request id {}", c.request_id->to_json()));
    out.push_back(std::move(c));
  }
}

void Judgement::judge_message(Classification& c, View msg, const std::string& prefix) {
  version_for(c, msg, false);
  if (msg.is_object()) {
    if (auto id = msg.get("id")) c.response_id = jsonrpc::id_of(*id);
  }
  auto env = jsonrpc::check_envelope(msg, prefix);
  if (!env) {
    jsonrpc::Finding& f = env.error();
    if (f.reason == Reason::duplicate_member_result) {
      if (auto result = msg.get("result"); result && result->is_object() && c.method.empty()) {
        mcp::infer_method(c, *result);
      }
      if (mcp::is_tool_method(c.method)) f.reason = Reason::duplicate_member_tool_result;
    }
    set_verdict(c, f.reason, std::move(f.detail), std::move(f.pointer));
    return;
  }
  if (env->error) {
    c.error_code = env->error_code;
    c.error_message = std::string(env->error_message);
    c.body_hint = jsonrpc::error_text_hint(env->error_message);
    if (env->error_data) mcp::read_supported_versions(*env->error_data, c.supported_versions);
    if ((!env->id || env->id->is_null()) &&
        (ex_.format == CaptureFormat::bare_json || ex_.format == CaptureFormat::bare_sse)) {
      // A bare body (`curl -s`, no `-i`): an error without an id is one the server sent before it
      // read the request (-32700, -32600), and the status that came with it (often 400) is lost.
      c.warnings.push_back(fmt::format("error {} cannot be paired with the request, and the body was saved without "
                                       "its status line and headers (curl -s): use `curl -si` to keep the status and "
                                       "headers",
                                       env->id ? "with \"id\": null" : "without \"id\""));
    } else if (!env->id || env->id->is_null()) {
      c.warnings.push_back(env->id ? "error with \"id\": null cannot be paired with the request (lenient: JSON-RPC 2.0 "
                                     "allows it, MCP does not)"
                                   : "error without \"id\" cannot be paired with the request (the server could not "
                                     "read the id)");
    } else if (!jsonrpc::pair_id(c, *env->id, ctx_.batch_ids(), prefix, "error response")) {
      return;
    }
    if (c.method.empty()) c.method_source = MethodSource::inferred;
    const Reason reason = jsonrpc::error_reason(env->error_code, env->error_message, c.method);
    set_verdict(c, reason,
                fmt::format("JSON-RPC error {}: {}{}", env->error_code, clipped(env->error_message),
                            env->error_code == -32001 && reason == Reason::server_defined_error
                                ? " (-32001 has no fixed meaning and this message names no session: a gateway's or "
                                  "the TypeScript SDK's timeout uses it too)"
                                : ""));
    return;
  }
  if (!jsonrpc::pair_id(c, *env->id, ctx_.batch_ids(), prefix, "response")) return;
  const View result = *env->result;
  if (!result.is_object()) {
    set_verdict(c, Reason::result_not_object, fmt::format("\"result\" is {}, not an object", json::type_phrase(result)),
                prefix + "/result");
    return;
  }
  mcp::judge_result(c, result, prefix + "/result");
  if (along_ && prefix.empty() && c.outcome == Outcome::TOOL_SUCCESS && c.method == "tools/call") {
    auto sc = result.get("structuredContent");
    tool_result_.emplace(sc ? std::optional<std::string>(json::minified(*sc)) : std::nullopt);
  }
}

void apply_live_end(LiveEnd live_end, std::vector<Classification>& out) {
  if (live_end == LiveEnd::none) return;
  // Read live and cut by the reader (a signal, a timeout): what is missing is the reader's
  // doing, not the server's; the verdict names it (docs/classification.md, STREAM_INCOMPLETE).
  const Reason reason = live_end == LiveEnd::interrupted    ? Reason::interrupted
                        : live_end == LiveEnd::idle_timeout ? Reason::idle_timeout
                                                            : Reason::timeout;
  const char* cause = live_end == LiveEnd::interrupted    ? "a signal ended the wait"
                      : live_end == LiveEnd::idle_timeout ? "no byte arrived for --idle-timeout"
                                                          : "the input took longer than --timeout";
  for (Classification& rec : out) {
    if (rec.outcome == Outcome::STREAM_INCOMPLETE || rec.reason == Reason::truncated ||
        rec.reason == Reason::empty_body) {
      set_verdict(rec, reason, fmt::format("{} before the final response; judged on what had arrived: {}", cause, rec.detail));
    }
  }
}

}  // namespace classify_detail

std::vector<Classification> classify(const Exchange& exchange, const ContextFlags& flags, long long now_unix_seconds,
                                     ReadAlong* along) {
  if (exchange.judged) {  // judged event by event by the live reader, which kept no body
    if (along) *along = exchange.judged->along;
    return exchange.judged->records;
  }
  if (along) *along = ReadAlong{};
  classify_detail::Judgement judgement(exchange, flags, now_unix_seconds, along);
  std::vector<Classification> out;
  Classification c = judgement.base();
  if (exchange.oauth_leg) {
    // A leg of MCP authorization: no JSON-RPC to judge; src/auth judges it within its flow.
    std::string detail = "a leg of MCP authorization (no JSON-RPC): HTTP " + std::to_string(exchange.response.status);
    set_verdict(c, Reason::auth_leg_ok, std::move(detail));
    c.notification = false;  // a registration's JSON body is no JSON-RPC notification
    std::erase_if(c.warnings, [](const std::string& w) { return w.find("not a JSON-RPC message") != std::string::npos; });
    out.push_back(std::move(c));
    judgement.finish(out);
    return out;
  }
  if (exchange.stdio != StdioEnd::none) {
    // What the stdio wrapper saw (a wrap recording, docs/wrap.md): no response to judge layer by layer.
    const Reason reason = exchange.stdio == StdioEnd::not_jsonrpc_line ? Reason::stdout_not_jsonrpc
                          : exchange.stdio == StdioEnd::server_exited  ? Reason::server_exited
                          : exchange.stdio == StdioEnd::broken_message ? Reason::message_over_lines
                                                                       : Reason::shutdown_in_flight;
    set_verdict(c, reason, exchange.stdio_detail);
    if (reason == Reason::stdout_not_jsonrpc || reason == Reason::message_over_lines) c.notification = false;
    out.push_back(std::move(c));
    judgement.finish(out);
    return out;
  }
  switch (judgement.transport(c, out)) {
    case classify_detail::Judgement::Framing::decided: break;
    case classify_detail::Judgement::Framing::json: judgement.judge_json_body(c, out); break;
    case classify_detail::Judgement::Framing::sse: judgement.judge_sse_body(std::move(c), exchange.response.body, out); break;
  }
  classify_detail::apply_live_end(exchange.live_end, out);
  if (exchange.broken_lines > 0) {
    // A message broken over lines (docs/classification.md): what a host could parse decides, as a
    // perfect result with the wrong Content-Type is INVALID_HTTP_RESPONSE; the detail says what
    // the joined message would have been.
    for (Classification& rec : out) {
      std::string detail = fmt::format("{}; joined back, it is {} ({}): {}", exchange.broken_detail,
                                       to_string(rec.outcome), to_string(rec.reason), rec.detail);
      set_verdict(rec, Reason::message_over_lines, std::move(detail));
    }
  }
  judgement.finish(out);
  return out;
}

}  // namespace mcptriage
