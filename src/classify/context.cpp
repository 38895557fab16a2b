// The request context of an exchange (judge.hpp): classification.md §Request context. The
// captured request comes first; the flags give context only to an exchange whose capture carries
// no request of its own.
#include <fmt/format.h>

#include "classify/judge.hpp"

namespace mcptriage::classify_detail {
namespace {

/// Applies what a request body says to a fresh context; false when it is not a JSON-RPC message.
bool apply_request(const RequestInfo& s, RequestContext& ctx, MethodSource source) {
  if (s.shape == RequestInfo::Shape::batch) {
    ctx.request.shape = RequestInfo::Shape::batch;  // the kind of each element is its own
    ctx.request.batch_ids = s.batch_ids;
    return true;
  }
  if (s.shape != RequestInfo::Shape::message) return false;
  ctx.request.shape = RequestInfo::Shape::message;
  if (!s.method) {
    // A JSON-RPC response sent by the client (answering a server request, 2025-*), or a message
    // with neither a method nor a result: no result is due either way.
    ctx.request.notification = true;
    ctx.request.response = s.response;
    if (s.response) ctx.client_response_id = s.id;
    return true;
  }
  ctx.request.method = s.method;
  ctx.request.tool_name = s.tool_name;
  ctx.method_source = source;
  ctx.request.id = s.id;
  ctx.request.notification = !s.id;
  if (s.protocol_version && is_protocol_version(*s.protocol_version)) {  // else the request is judged without it
    ctx.version = *s.protocol_version;
    ctx.version_source = "request";
  }
  return true;
}

}  // namespace

RequestContext build_context(const Exchange& ex, const ContextFlags& flags, std::vector<std::string>& warnings,
                             ReadAlong* along) {
  RequestContext ctx;
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
    std::optional<RequestInfo> read;  // the body read here, when the reader did not
    const RequestInfo* info = ex.request->info ? &*ex.request->info : nullptr;
    if (!info && ex.request->body && !ex.request->body->empty()) info = &read.emplace(jsonrpc::read_request(*ex.request->body));
    if (info) {
      from_capture = apply_request(*info, ctx, MethodSource::request);
      if (!from_capture) warnings.push_back("the captured request body is not a JSON-RPC message");
      if (along && info->shape == RequestInfo::Shape::message) {
        along->request = read ? std::move(*read) : *info;
      }
    }
  }
  if (!from_capture) {
    if (flags.request && !apply_request(*flags.request, ctx, MethodSource::request)) {
      warnings.push_back(fmt::format("{} is not a JSON-RPC message; ignored",
                                     flags.request_origin.empty() ? "--request file" : flags.request_origin));
    } else if (flags.request && along && !along->request) {
      // The request given beside a capture that holds none (`--request FILE`, a sidecar) is the
      // session's request too: its tool for retry safety, its params for replays.
      along->request = *flags.request;
    }
    if (flags.id) {
      ctx.request.id = flags.id;
      ctx.request.notification = false;
      ctx.request.response = false;
      ctx.client_response_id.reset();
      ctx.request.shape = RequestInfo::Shape::message;
    }
    if (flags.method) {
      ctx.request.method = flags.method;
      ctx.method_source = MethodSource::flag;
      if (!flags.id && !flags.request && flags.method->starts_with("notifications/")) {
        ctx.request.notification = true;
        ctx.request.shape = RequestInfo::Shape::message;
      } else if (!flags.request) {
        ctx.request.shape = RequestInfo::Shape::message;
        ctx.request.notification = false;
      }
    }
  }
  if (ctx.version.empty() && flags.protocol_version) {
    ctx.version = *flags.protocol_version;
    ctx.version_source = "flag";
  }
  return ctx;
}

}  // namespace mcptriage::classify_detail
