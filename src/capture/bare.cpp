// Bare-body readers: a JSON or event-stream body saved without status line or headers.
#include <optional>
#include <string>
#include <utility>


#include "capture/body.hpp"
#include "capture/readers.hpp"
#include "json/dom.hpp"

namespace mcptriage::capture {

namespace {

std::vector<Exchange> bare_exchange(std::string_view bytes, std::string_view name,
                                    const CaptureOptions& options, CaptureFormat format) {
  Exchange ex;
  ex.source = source_name(name, 1);
  ex.format = format;
  ex.response.http_version = "";
  ex.response.status = options.assumed_status;
  ex.response.body = keep_for_limit(bytes, {}, options.max_body);
  ex.response.body_state = BodyState::complete;
  ex.response.transport_captured = false;
  ex.warnings.push_back("transport not captured; status assumed " +
                        std::to_string(options.assumed_status));
  std::vector<Exchange> out;
  out.push_back(std::move(ex));
  return out;
}

/// A JSON object with a "log" object holding an "entries" array and no "jsonrpc" member: the
/// root of a HAR 1.2 file (HAR 1.2 "log"), whatever the order of its members.
bool looks_like_har(std::string_view bytes) {
  if (bytes.find("\"log\"") == std::string_view::npos || bytes.find("\"entries\"") == std::string_view::npos) return false;
  json::Parser parser;
  auto root = parser.parse(bytes);
  if (!root || !root->is_object()) return false;
  if (root->get("jsonrpc")) return false;
  auto log = root->get("log");
  if (!log || !log->is_object()) return false;
  auto entries = log->get("entries");
  return entries && entries->is_array();
}

/// The method of a JSON-RPC request (an object with a string "method", an "id" and neither
/// "result" nor "error": JSON-RPC 2.0 §4), or of the first request of a batch array holding
/// only requests and notifications; nothing for anything else (responses, invalid JSON).
std::optional<std::string> request_method(std::string_view bytes) {
  if (bytes.find("\"method\"") == std::string_view::npos) return std::nullopt;
  json::Parser parser;
  auto root = parser.parse(bytes);
  if (!root) return std::nullopt;
  auto message_method = [](const json::View& v) -> std::optional<std::string_view> {
    if (!v.is_object() || v.get("result") || v.get("error")) return std::nullopt;
    return v.string_at("method");
  };
  if (root->is_object()) {
    const auto method = message_method(*root);
    if (method && root->get("id")) return std::string(*method);
    return std::nullopt;
  }
  if (!root->is_array()) return std::nullopt;
  std::optional<std::string> first;
  for (const json::View item : root->items()) {
    const auto method = message_method(item);
    if (!method) return std::nullopt;
    if (!first && item.get("id")) first = std::string(*method);
  }
  return first;
}

}  // namespace

bool sniff_bare_json(std::string_view text) {
  return !text.empty() && (text.front() == '{' || text.front() == '[');
}

std::expected<std::vector<Exchange>, CaptureError> read_bare_json(std::string_view bytes,
                                                                  std::string_view name,
                                                                  const CaptureOptions& options) {
  // A HAR whose "log" is not its first member (an exporter's comment before it) is a HAR:
  // sniff_har looks at the first member only, to tell formats apart from the first bytes.
  if (looks_like_har(bytes)) return read_har(bytes, name, options);
  // The user's mistake, not the server's: a request saved as the input (docs/formats.md).
  if (const auto method = request_method(bytes)) {
    return std::unexpected(CaptureError{"this is a JSON-RPC request (\"method\": \"" + *method +
                                        "\"), not a response: give it with --request FILE and the response as the input"});
  }
  // The JSON is not validated here: the classifier reports invalid JSON as such.
  return bare_exchange(bytes, name, options, CaptureFormat::bare_json);
}

bool sniff_bare_sse(std::string_view text) {
  for (std::string_view field : {"data:", "event:", "id:", "retry:", ":"}) {
    if (text.substr(0, field.size()) == field) return true;
  }
  return false;
}

std::expected<std::vector<Exchange>, CaptureError> read_bare_sse(std::string_view bytes,
                                                                 std::string_view name,
                                                                 const CaptureOptions& options) {
  return bare_exchange(bytes, name, options, CaptureFormat::bare_sse);
}

}  // namespace mcptriage::capture
