// Pairing response ids with request ids (envelope.hpp): MCP basic §Responses (the same id, type
// and value), JSON-RPC 2.0 §6 (a batch's responses answer its requests).
#include <fmt/format.h>

#include <algorithm>

#include "jsonrpc/envelope.hpp"
#include "jsonrpc/request.hpp"

namespace mcptriage::jsonrpc {

bool pair_id(Classification& c, json::View idv, std::span<const JsonRpcId> batch_ids, const std::string& prefix,
             std::string_view what) {
  if (!c.request_id && !batch_ids.empty()) {
    // A batch request: the response answers one of its requests (JSON-RPC 2.0 §6).
    const JsonRpcId id = id_of(idv);
    if (std::find(batch_ids.begin(), batch_ids.end(), id) == batch_ids.end()) {
      std::string ids;
      for (const JsonRpcId& b : batch_ids) ids += (ids.empty() ? "" : ", ") + b.to_json();
      set_verdict(c, Reason::id_mismatch,
                  fmt::format("{} id {} answers no request of the batch (ids {})", what, id.to_json(), ids),
                  prefix + "/id");
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
    set_verdict(c, Reason::id_mismatch,
                fmt::format("{} id {} does not equal request id {} (type and value)", what, c.response_id->to_json(),
                            c.request_id->to_json()),
                prefix + "/id");
    return false;
  }
  c.id_checked = true;
  return true;
}

bool answers(json::View item, const JsonRpcId& request_id) {
  auto idv = item.get("id");
  return idv && id_of(*idv) == request_id;
}

void note_unanswered(std::vector<Classification>& out, std::size_t first, std::span<const JsonRpcId> batch_ids) {
  if (batch_ids.empty() || first >= out.size()) return;
  std::string missing;
  std::size_t n = 0;
  for (const JsonRpcId& id : batch_ids) {
    const bool answered = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                      [&](const Classification& r) { return r.id_checked && r.request_id == id; });
    if (!answered) {
      missing += (missing.empty() ? "" : ", ") + id.to_json();
      ++n;
    }
  }
  if (n > 0) {
    out[first].warnings.push_back(
        fmt::format("request {} {} of the batch got no response (JSON-RPC 2.0 §6)", n == 1 ? "id" : "ids", missing));
  }
}

}  // namespace mcptriage::jsonrpc
