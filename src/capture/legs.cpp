// Streamable HTTP legs that are no JSON-RPC call (legs.hpp): one rule for HAR and JSON Lines logs.
#include "capture/legs.hpp"

#include "http/tokens.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/sse.hpp"

namespace mcptriage::capture {

std::string request_for_detail(const Request& request) {
  const std::string_view url = request.target;
  const std::size_t cut = url.find_first_of("?#");
  std::string out = request.method_line.empty() ? std::string("?") : request.method_line;
  out += ' ';
  out += url.substr(0, cut);
  if (cut != std::string_view::npos) out += "?...";
  return out;
}

std::optional<Skip> non_call_leg(const Request& request, const Response& response) {
  const std::string_view method = request.method_line;
  const std::string status = std::to_string(response.status);
  if (method == "DELETE") {
    return Skip{SkipReason::session_end,
                request_for_detail(request) + " -> " + status +
                    ": ends the MCP session (Streamable HTTP, session management); no JSON-RPC message to classify"};
  }
  if (method == "OPTIONS") {
    return Skip{SkipReason::not_mcp, request_for_detail(request) + " -> " + status + ": a CORS preflight"};
  }
  if (method != "GET" || response.body_state == BodyState::not_captured ||
      find_header(request.headers, "last-event-id")) {
    return std::nullopt;
  }
  std::string detail = request_for_detail(request) + " -> " + status;
  const std::string media = http::media_type(find_header(response.headers, "content-type").value_or(""));
  if (media == "text/event-stream") {
    const sse::Stream stream = sse::parse(response.body);
    detail += " event stream with " + std::to_string(stream.events.size()) +
              " event(s): the standalone server stream carries server messages, no response to a request";
  } else {
    detail += ": a GET is no JSON-RPC exchange (405 means the server offers no standalone stream)";
  }
  return Skip{SkipReason::standalone_stream, std::move(detail)};
}

}  // namespace mcptriage::capture
