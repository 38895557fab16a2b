// Names of the capture enums of mcptriage/exchange.hpp, as printed in records (docs/output.md).
#include "mcptriage/exchange.hpp"

namespace mcptriage {

std::string_view to_string(CaptureFormat format) {
  switch (format) {
    case CaptureFormat::curl_i: return "curl-i";
    case CaptureFormat::raw_http: return "raw-http";
    case CaptureFormat::http_conversation: return "http-conversation";
    case CaptureFormat::har: return "har";
    case CaptureFormat::exchange_log: return "exchange-log";
    case CaptureFormat::jsonrpc_messages: return "jsonrpc-messages";
    case CaptureFormat::curl_v: return "curl-v";
    case CaptureFormat::bare_json: return "bare-json";
    case CaptureFormat::bare_sse: return "bare-sse";
    case CaptureFormat::access_log: return "access-log";
  }
  return "unknown";  // not reached: every enumerator is named above
}

std::string_view to_string(SkipReason reason) {
  switch (reason) {
    case SkipReason::not_mcp: return "not_mcp";
    case SkipReason::session_end: return "session_end";
    case SkipReason::standalone_stream: return "standalone_stream";
    case SkipReason::invalid_entry: return "invalid_entry";
    case SkipReason::notification: return "notification";
    case SkipReason::server_message: return "server_message";
    case SkipReason::client_response: return "client_response";
    case SkipReason::invalid_line: return "invalid_line";
  }
  return "unknown";  // not reached
}

}  // namespace mcptriage
