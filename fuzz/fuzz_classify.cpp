// Fuzz target: the classifier on an Exchange built from the fuzz bytes.
// The first byte picks the status, the media type (JSON, SSE, bare JSON, bare SSE) and the body
// state; the whole input is the body. Bytes after a "\0\0" separator, when there, are the
// captured request body instead. Each input is classified without request context, with
// --id 1 --method tools/call, and with a captured request (headers and body).
// Checks (fuzz_checks.cpp): never success on incomplete evidence, deterministic JSONL, every
// JSONL line valid JSON and UTF-8, safe table text.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "mcptriage/classify.hpp"

namespace {

constexpr std::array<int, 8> kStatuses = {200, 200, 202, 200, 400, 404, 204, 500};
constexpr std::string_view kRequest =
    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> request_body;
  if (const std::size_t sep = body.find(std::string_view("\0\0", 2)); sep != std::string_view::npos) {
    request_body = std::string(body.substr(sep + 2));
    body = body.substr(0, sep);
  }
  const unsigned mode = size > 0 ? data[0] : 0;

  mcptriage::Exchange ex;
  ex.source = "fuzz#1";
  ex.response.status = kStatuses[mode & 7];
  ex.response.body = std::string(body);
  switch ((mode >> 3) & 3) {
    case 0:
      ex.format = mcptriage::CaptureFormat::curl_i;
      ex.response.headers.push_back({"Content-Type", "application/json"});
      break;
    case 1:
      ex.format = mcptriage::CaptureFormat::curl_i;
      ex.response.headers.push_back({"Content-Type", "text/event-stream"});
      ex.response.headers.push_back({"Retry-After", std::string(body.substr(0, 32))});
      break;
    case 2:
      ex.format = mcptriage::CaptureFormat::bare_json;
      ex.response.transport_captured = false;
      break;
    default:
      ex.format = mcptriage::CaptureFormat::bare_sse;
      ex.response.transport_captured = false;
      break;
  }
  static constexpr std::array<mcptriage::BodyState, 4> kStates = {
      mcptriage::BodyState::complete, mcptriage::BodyState::complete, mcptriage::BodyState::truncated,
      mcptriage::BodyState::absent};
  ex.response.body_state = kStates[(mode >> 5) & 3];

  // 1. no request context
  fuzzcheck::classify_checked(ex, {});
  // 2. flags: --id 1 --method tools/call (or --request with the fuzzed request body)
  mcptriage::ContextFlags flags;
  flags.id = mcptriage::JsonRpcId{mcptriage::JsonRpcId::Kind::integer, "1"};
  flags.method = "tools/call";
  if (request_body) flags.request = mcptriage::jsonrpc::read_request(*request_body);
  fuzzcheck::classify_checked(ex, flags);
  // 3. a captured request: headers and body
  mcptriage::Request request;
  request.method_line = "POST";
  request.target = "/mcp";
  request.headers.push_back({"Mcp-Session-Id", "0123456789abcdef"});
  request.headers.push_back({"MCP-Protocol-Version", (mode & 0x80) ? "2026-07-28" : "2025-06-18"});
  request.body = request_body ? *request_body : std::string(kRequest);
  ex.request = std::move(request);
  fuzzcheck::classify_checked(ex, {});
  return 0;
}
