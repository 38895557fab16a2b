// Reading JSON-RPC requests and ids from parsed JSON (mcptriage/jsonrpc.hpp has the text forms).
// Not public API.
#pragma once

#include "json/dom.hpp"
#include "mcptriage/jsonrpc.hpp"

namespace mcptriage::jsonrpc {

/// The id a JSON value is: an integer (int64 or uint64), a string (unescaped), null, or `other`
/// (a fraction, an object, ...: its minified JSON).
JsonRpcId id_of(json::View value);

/// What the JSON value `body` sent as a request says (RequestInfo): an object's `method`, `id`,
/// the canonical hash of `params` (without `_meta`), a tools/call's tool name and the protocol
/// version in `params._meta` (2026-07-28); an array is a batch (2025-03-26) with its requests'
/// ids; anything else is not JSON-RPC.
RequestInfo read_request(json::View body);

}  // namespace mcptriage::jsonrpc
