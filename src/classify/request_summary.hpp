// The classifier's reading of a JSON request body (RequestSummary, mcptriage/exchange.hpp), for
// the capture readers that parse request bodies themselves.
#pragma once

#include "json/dom.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

/// What the classifier needs of the JSON value `body` sent as a request: an object's `method`,
/// `id`, the canonical hash of `params` (without `_meta`, json::canonical_hash), a tools/call's
/// tool name and the protocol version in `params._meta` (2026-07-28); an array is a batch
/// (2025-03-26). Members are looked up first-wins (View::get), as for a body read as text.
RequestSummary summarize_request(json::View body);

}  // namespace mcptriage
