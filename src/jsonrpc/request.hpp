// Reading JSON-RPC requests and ids from parsed JSON (mcptriage/jsonrpc.hpp has the text forms).
// Not public API.
#pragma once

#include <optional>
#include <string_view>

#include "json/dom.hpp"
#include "mcptriage/jsonrpc.hpp"

namespace mcptriage::jsonrpc {

/// The id a JSON value is: an integer (int64 or uint64, or any number whose exact value is an
/// integer: `1.0`, an integer beyond 64 bits), a string (unescaped), null, or `other` (a
/// fraction, an object, ...: its minified JSON). A number's text is its exact value in canonical
/// form (json::exact_number), so that ids compare by value: `1.0` is `1`.
JsonRpcId id_of(json::View value);

/// An id written as JSON text (a message's `id` member as it was sent: `1`, `1.0`, `"a"`), read by
/// value as the classifier reads a response's id (JSON-RPC 2.0 §5: `1.0` and `1` are one id, as
/// JavaScript and Python clients match them). nullopt for text that is not one JSON
/// value (the proxy's final-event timing compares the ids it skims this way).
std::optional<JsonRpcId> id_from_json(std::string_view json_text);

/// What the JSON value `body` sent as a request says (RequestInfo): an object's `method`, `id`,
/// the canonical hash of `params` (without `_meta`), a tools/call's tool name and the protocol
/// version in `params._meta` (2026-07-28); an array is a batch (2025-03-26) with its requests'
/// ids; anything else is not JSON-RPC.
RequestInfo read_request(json::View body);

}  // namespace mcptriage::jsonrpc
