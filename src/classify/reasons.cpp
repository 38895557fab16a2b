// The reason catalogue: one row per Reason (verdict.hpp), in enumerator order: its code, outcome,
// default retry advice, the spec section its rule comes from, a paragraph for a person and what to
// do next. `mcptriage explain` prints rows; JSON Lines records carry `spec`; docs/classification.md's
// reason tables and docs/output.schema.json's reason list are checked against it (CatalogueDocs.*).
#include <array>

#include "mcp/spec_links.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage {
namespace {

using A = Advice;
using O = Outcome;
using R = Reason;
using namespace spec;

constexpr std::array<ReasonEntry, kReasonCount> kRows{{
    {R::body_not_captured, "body_not_captured", O::NOT_CAPTURED, A::investigate, kMcpSendingMessages,
     "The capture says it holds no response body: a HAR entry without content.text, with status 0 or an _error, a "
     "captured request with no response after it, or a curl -v transfer that ended with 'curl: (N)' before any "
     "response. Nothing the server sent can be judged, so nothing is claimed about it; the spec link is the rule "
     "that could not be checked (a request must get a JSON or event-stream reply).",
     "Capture the exchange again with its response body (HAR: export with content; curl: -i or -v with the body), "
     "then classify again."},
    {R::body_absent, "body_absent", O::NOT_CAPTURED, A::investigate, kRfc9112BodyLength,
     "A 2xx response whose capture shows the headers and no body at all (a curl -D header file alone), or that "
     "ends before the first body byte (inside the header block, or chunk framing cut before any data). Without a "
     "Content-Length or Transfer-Encoding the body would run to the end of the connection, and the capture holds "
     "none of it: evidence is missing, so the exchange is neither a success nor the server's fault.",
     "Capture the body too (curl -i, or -D together with -o), then classify again."},
    {R::body_not_decoded, "body_not_decoded", O::NOT_CAPTURED, A::investigate, kRfc9110ContentEncoding,
     "A 2xx response whose body still carries a Content-Encoding that mcptriage could not decode (a coding it does "
     "not support, or bytes that are not in their coding: corrupt gzip, deflate, br or zstd data); the warning names "
     "the coding and why. The bytes say nothing "
     "about the server's JSON, so the exchange is evidence missing rather than MALFORMED_JSON blamed on the server.",
     "Capture the decoded body (curl --compressed, or a HAR exporter that stores decoded content), then classify "
     "again."},
    {R::session_invalid, "session_invalid", O::HTTP_ERROR, A::new_session, kMcpSessionManagement,
     "A 400 Bad Request whose JSON-RPC error message (or text body) names the session: the server rejected a "
     "missing, unknown or expired session id ('Session not found', 'No valid session ID provided'). A server that requires sessions should answer a request without its session id with 400 "
     "(2025 transports, Session Management); real servers also answer an unknown id this way.",
     "Start a new session: send initialize again without a session id, keep the new Mcp-Session-Id, then resend "
     "the request."},
    {R::bad_request, "bad_request", O::HTTP_ERROR, A::fix_request, kRfc9110BadRequest,
     "The server answered 400 Bad Request: it could not or would not process the request as sent (a malformed "
     "message, missing or wrong headers, an invalid MCP-Protocol-Version, a notification it did not accept). A "
     "JSON-RPC error in the body is kept in jsonrpc.error and the detail. Under 2026-07-28 a 400 carrying -32700, "
     "-32600, -32602, -32020, -32021 or -32022 is JSONRPC_ERROR instead. When the body says the server is not "
     "initialized (the TypeScript SDK's 'Bad Request: Server not initialized'), the advice is new_session: "
     "initialize again rather than fix the request.",
     "Read the body's error message, fix the request (headers, protocol version, body), and do not resend it "
     "unchanged."},
    {R::response_rejected, "response_rejected", O::HTTP_ERROR, A::investigate, kMcpSendingMessages,
     "The server answered 400 to a JSON-RPC response the client POSTed (its answer to a server request such as "
     "elicitation/create, sampling/createMessage or roots/list): it did not accept the response. A server that "
     "cannot accept a response must answer with an HTTP error status such as 400, its body at most an id-less "
     "JSON-RPC error (2025 transports, Sending Messages). Common causes: the server request it answers has "
     "expired or was cancelled, or its id is not one the server sent. The server's own request stays unanswered, "
     "so the call that triggered it will not finish as asked. A body naming the session is session_invalid.",
     "Do not resend the same response: read the error, check the id against the server request on the originating "
     "call's stream, and check that the call is still open."},
    {R::legacy_server, "legacy_server", O::HTTP_ERROR, A::fall_back_to_initialize, kMcp26BackwardCompatibility,
     "A server/discover probe answered 400, 404 or 405 without a recognised modern JSON-RPC error in the body "
     "(-32020, -32021, -32022 or -32601): the server speaks a protocol version before 2026-07-28, which has no "
     "server/discover. The 2026-07-28 transport's backward compatibility rule says a client falls back to "
     "initialize in that case. A modern error instead means a modern server: correct the request or retry with a "
     "supported version.",
     "Fall back to initialize (the 2025-11-25 handshake, then notifications/initialized) and use that version for "
     "later requests to this server; cache the era for the origin instead of probing again."},
    {R::unauthorized, "unauthorized", O::HTTP_ERROR, A::reauthorize, kMcpAuthErrors,
     "The server answered 401 Unauthorized: authorization is required, or the access token is missing, invalid or "
     "expired. Its WWW-Authenticate header points at the protected resource metadata (resource_metadata; "
     "2025-11-25 also allows a well-known URI instead) and should name the scope needed. When the body names a "
     "missing, unknown or expired session, the advice is new_session and says both: the session and the "
     "credentials.",
     "Re-authorize: read WWW-Authenticate (resource_metadata, scope), obtain a new token, then resend."},
    {R::insufficient_scope, "insufficient_scope", O::HTTP_ERROR, A::step_up_authorization, kMcpInsufficientScope,
     "The server answered 403 with WWW-Authenticate error=\"insufficient_scope\": the token is valid but lacks a "
     "scope this request needs. The challenge's scope parameter names the scopes required.",
     "Run step-up authorization for the named scopes (keeping those already granted), then retry a few times at "
     "most; after that treat it as permanent."},
    {R::forbidden, "forbidden", O::HTTP_ERROR, A::fix_request, kMcpAuthErrors,
     "The server answered 403 Forbidden without an insufficient_scope challenge: the caller lacks permission, or "
     "the request's Origin header was rejected (servers must answer an invalid Origin with 403 to prevent DNS "
     "rebinding).",
     "Check the credentials' permissions and the Origin the client sends; resending the same request will not help."},
    {R::cdn_challenge, "cdn_challenge", O::HTTP_ERROR, A::do_not_retry, kRfc9110Intermediaries,
     "A CDN or web application firewall answered in the server's place with a challenge (a JavaScript or CAPTCHA "
     "interstitial for browsers): the request never reached the MCP server. Recognised by a marker: the response "
     "headers cf-mitigated: challenge (Cloudflare), x-amzn-waf-action: challenge or captcha (AWS WAF, sent with "
     "202 and 405), x-vercel-mitigated: challenge (Vercel), or, on a 403, 429 or 503 HTML page, Cloudflare's "
     "challenge platform in the body (/cdn-cgi/challenge-platform/, _cf_chl_opt, __cf_chl_, cf-chl-, the title "
     "'Just a moment...'); the detail names it. An MCP client runs no browser, so it cannot pass the challenge, "
     "and the same request gets the same page.",
     "Do not retry automatically. Ask the site's operator to allow-list the client (its address, User-Agent or a "
     "token) in the CDN or WAF rules, or to serve the MCP endpoint on a path that is not challenged."},
    {R::session_expired, "session_expired", O::HTTP_ERROR, A::new_session, kMcpSessionManagement,
     "The server answered 404 Not Found to a request that carried Mcp-Session-Id (protocol versions before "
     "2026-07-28): the server has ended that session, and the spec requires the client to start a new one.",
     "Start a new session: send initialize without a session id, then resend the request with the new "
     "Mcp-Session-Id."},
    {R::not_found, "not_found", O::HTTP_ERROR, A::investigate, kRfc9110NotFound,
     "The server answered 404 Not Found and the capture does not show that the request carried a session id. It "
     "can mean a wrong endpoint URL, a legacy (2024-11-05 HTTP+SSE) server, or an ended session when the request "
     "did carry Mcp-Session-Id; the detail names the session case. When the body names the session, the advice is "
     "new_session. Under 2026-07-28 a 404 with a -32601 error body is JSONRPC_ERROR method_not_found instead.",
     "Check the endpoint URL; if the request carried Mcp-Session-Id, initialize again; capture the request headers "
     "to tell the cases apart."},
    {R::method_not_allowed, "method_not_allowed", O::HTTP_ERROR, A::fix_request, kRfc9110MethodNotAllowed,
     "The server answered 405 Method Not Allowed: the endpoint does not accept this HTTP method. MCP servers "
     "answer a GET with 405 when they offer no standalone stream, a DELETE when sessions cannot be ended by the "
     "client, and (2026-07-28) every GET and DELETE.",
     "Send JSON-RPC messages with POST to the MCP endpoint; treat a 405 to GET or DELETE as 'not offered'."},
    {R::not_acceptable, "not_acceptable", O::HTTP_ERROR, A::fix_request, kMcpSendingMessages,
     "The server answered 406 Not Acceptable. The client must send an Accept header listing both application/json "
     "and text/event-stream; servers (the TypeScript SDK among them) answer 406 when it does not. MCP itself "
     "defines no 406, so the rule behind it is the Accept requirement.",
     "Send Accept: application/json, text/event-stream, then resend."},
    {R::request_timeout, "request_timeout", O::HTTP_ERROR, A::retry_if_idempotent, kRfc9110RequestTimeout,
     "The server answered 408 Request Timeout: it did not receive the complete request in the time it was prepared "
     "to wait. Whether the call had any effect is unknown.",
     "Retry only a read-only or idempotent call: bounded attempts, exponential backoff with jitter."},
    {R::conflict, "conflict", O::HTTP_ERROR, A::fix_request, kRfc9110Conflict,
     "The server answered 409 Conflict: the request conflicts with the current state of the target (some servers "
     "use it for a second stream on the same session). MCP does not define 409.",
     "Read the body's message; resolve the conflict (close the other stream, refresh state) before resending."},
    {R::payload_too_large, "payload_too_large", O::HTTP_ERROR, A::fix_request, kRfc9110ContentTooLarge,
     "The server answered 413 Content Too Large: the request body is larger than it is willing to process.",
     "Send a smaller request (fewer or smaller arguments); a Retry-After, if present, says the limit is temporary."},
    {R::unsupported_media_type, "unsupported_media_type", O::HTTP_ERROR, A::fix_request, kRfc9110UnsupportedMediaType,
     "The server answered 415 Unsupported Media Type: it does not accept the request's Content-Type (or "
     "Content-Encoding). JSON-RPC messages are POSTed as application/json.",
     "Send Content-Type: application/json (and no request Content-Encoding the server rejects), then resend."},
    {R::rate_limited, "rate_limited", O::HTTP_ERROR, A::wait_retry_after, kRfc6585TooManyRequests,
     "The server answered 429 Too Many Requests: the client sent too many requests in a given time. A Retry-After "
     "header, when present, says how long to wait (after_ms). MCP does not define 429; the rule is RFC 6585's.",
     "Wait for Retry-After (or back off exponentially when there is none), then retry; never work around the limit."},
    {R::internal_server_error, "internal_server_error", O::HTTP_ERROR, A::retry_once_if_idempotent,
     kRfc9110InternalServerError,
     "The server answered 500 Internal Server Error: it failed while handling the request. Whatever the body says "
     "(even a perfect result), the status decides; the request may or may not have had its effect.",
     "At most one retry, and only for an idempotent call; otherwise report it to the server's owner with the "
     "redacted capture."},
    {R::bad_gateway, "bad_gateway", O::HTTP_ERROR, A::retry_if_idempotent, kRfc9110BadGateway,
     "A gateway or proxy answered 502 Bad Gateway: it got no valid reply from the MCP server behind it. The body "
     "is usually the proxy's page, not MCP.",
     "Retry only a read-only or idempotent call, with bounded exponential backoff and jitter; check the server "
     "behind the proxy."},
    {R::service_unavailable, "service_unavailable", O::HTTP_ERROR, A::retry_if_idempotent, kRfc9110ServiceUnavailable,
     "The server answered 503 Service Unavailable: it is overloaded or down for maintenance, usually for a while. "
     "A Retry-After header, when present, says how long.",
     "Retry only a read-only or idempotent call, after Retry-After or with bounded exponential backoff and jitter."},
    {R::gateway_timeout, "gateway_timeout", O::HTTP_ERROR, A::retry_if_idempotent, kRfc9110GatewayTimeout,
     "A gateway or proxy answered 504 Gateway Timeout: the MCP server behind it did not answer in time. The call "
     "may still have run to completion.",
     "Retry only a read-only or idempotent call, with bounded backoff; stop when side effects are unknown."},
    {R::client_error, "client_error", O::HTTP_ERROR, A::fix_request, kRfc9110ClientError,
     "The server answered a 4xx status that has no reason of its own here (402, 410, 422, ...): it refused the "
     "request as sent.",
     "Read the status and the body's message, fix the request, and do not resend it unchanged."},
    {R::server_error, "server_error", O::HTTP_ERROR, A::investigate, kRfc9110ServerError,
     "The server or a proxy answered a 5xx status that has no reason of its own here (501, 505, a vendor code): it "
     "failed or does not support what was asked.",
     "Investigate the endpoint and the server's logs; do not retry as is."},
    {R::redirect_not_followed, "redirect_not_followed", O::HTTP_ERROR, A::investigate, kRfc9110Redirection,
     "The final response captured is a 3xx redirect: the capture tool did not follow it (curl without -L), so the "
     "MCP server's own reply is not in the capture.",
     "Use the URL in the Location header as the endpoint (or capture with curl -L), then classify again."},
    {R::no_final_response_interim, "no_final_response", O::HTTP_ERROR, A::investigate, kRfc9110Informational,
     "Only an interim 1xx response (100 Continue, 103 Early Hints) was captured: a 1xx is never the final answer "
     "to a request, and the final response is not in the capture.",
     "Capture the whole exchange up to the final response, then classify again."},
    {R::content_type_missing_http, "content_type_missing", O::INVALID_HTTP_RESPONSE, A::do_not_retry,
     kMcpSendingMessages,
     "A 2xx answering a request has no Content-Type header. A request must be answered with application/json or "
     "text/event-stream, and conforming clients reject anything else; the detail says what the body would have "
     "been.",
     "Fix the server to send Content-Type: application/json (or text/event-stream for a stream); keep the capture "
     "as evidence."},
    {R::unexpected_content_type, "unexpected_content_type", O::INVALID_HTTP_RESPONSE, A::do_not_retry,
     kMcpSendingMessages,
     "A 2xx answering a request has a media type other than JSON or text/event-stream (an HTML page, text/plain). "
     "Conforming clients reject it even when the body would be a perfect result; the detail says what the body "
     "would have been (for example 'the body would be TOOL_SUCCESS (tool_success)').",
     "Check that the URL is the MCP endpoint and not a login page or proxy; fix the server's Content-Type."},
    {R::content_encoding_mismatch, "content_encoding_mismatch", O::INVALID_HTTP_RESPONSE, A::do_not_retry,
     kRfc9110ContentEncoding,
     "A 2xx whose Content-Encoding names a coding (gzip, br, ...) while its body is plain text of exactly its "
     "Content-Length: those are the bytes the server sent, and a client decodes them by the label and fails "
     "(curl --compressed exits 61, browsers report a decoding error). The detail says what the body would have been. "
     "A plain body of another length was most likely decoded by the capture tool and is judged as it is.",
     "Fix the server: send the coded bytes, or drop the Content-Encoding header for a plain body."},
    {R::empty_body, "empty_body", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "A 2xx application/json response with an empty body answering a request: a request must get one JSON-RPC "
     "response object.",
     "Fix the server to return the JSON-RPC response; keep the capture as evidence."},
    {R::accepted_for_request, "accepted_for_request", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "202 Accepted answering a JSON-RPC request. 202 with no body is only for notifications (and, before "
     "2026-07-28, for responses the client sends); a request needs a JSON or event-stream response with its result.",
     "Fix the server to answer requests with application/json or text/event-stream; check the request really has "
     "an id."},
    {R::no_content, "no_content", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "204 No Content is not a Streamable HTTP reply: a request needs a JSON or event-stream response, a "
     "notification gets 202 Accepted.",
     "Fix the server to answer with 202 (notifications) or a JSON-RPC response (requests)."},
    {R::body_on_202, "body_on_202", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "202 Accepted with a body. A server that accepts a notification (or a client's response) must return 202 with "
     "no body.",
     "Fix the server to send 202 with an empty body; keep the capture as evidence."},
    {R::notification_not_202, "notification_not_202", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "A notification was answered with a 2xx other than 202 (a response the client sent is response_not_202). The "
     "spec allows only 202 Accepted with no body when the server accepts it, or an HTTP error status when it does not.",
     "Fix the server: 202 with no body for accepted notifications, an error status otherwise."},
    {R::response_not_202, "response_not_202", O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "A JSON-RPC response the client POSTed (its answer to a server request such as elicitation/create) was "
     "answered with a 2xx other than 202. For a response, as for a notification, the server must return 202 "
     "Accepted with no body when it accepts it, or an HTTP error status when it does not (2025 transports, "
     "Sending Messages).",
     "Fix the server: 202 with no body for an accepted response, an error status otherwise."},
    {R::empty_stream, "empty_stream", O::STREAM_INCOMPLETE, A::resend_if_idempotent, kMcpSendingMessages,
     "A text/event-stream response with no events at all (or only a first event cut short): the server opened a "
     "stream and delivered nothing, not even a priming event, so the response to the request never arrived.",
     "Resend under a new id only if the call is read-only or idempotent; check the server and any proxy buffering "
     "(X-Accel-Buffering: no)."},
    {R::no_final_response_stream, "no_final_response", O::STREAM_INCOMPLETE, A::resume_stream, kMcpSendingMessages,
     "An event stream that delivered events (priming, notifications, other messages) but ended without the "
     "JSON-RPC response to the request. The stream SHOULD eventually carry it. When the stream set an event id and "
     "the version allows resumption (before 2026-07-28), stream.resumable is true and the advice is resume_stream; "
     "otherwise resend_if_idempotent (in 2026-07-28 a broken stream loses the request).",
     "Resumable: reconnect with GET and Last-Event-ID after the stream's retry delay. Not resumable: resend under "
     "a new id only if idempotent."},
    {R::event_type_not_message, "event_type_not_message", O::STREAM_INCOMPLETE, A::do_not_retry, kMcpSendingMessages,
     "The response to the request came only in an SSE event whose event field is not message (event: result, for "
     "example); the detail names the type. EventSource-style parsing (the WHATWG HTML event stream "
     "interpretation, which the TypeScript and Python SDK clients follow) hands a client only message events, so "
     "the client never receives the response and the call hangs until its timeout. The MCP spec names no event "
     "type; the link is the rule that the stream carries the response. A resumed stream would send it the same "
     "way, so stream.resumable is false.",
     "Fix the server to send JSON-RPC messages as message events (no event field, or event: message); resending "
     "the request gets the same stream."},
    {R::interrupted, "interrupted", O::STREAM_INCOMPLETE, A::resend_if_idempotent, kMcpSendingMessages,
     "mcptriage was reading the exchange live (standard input from a pipe or a terminal) when a signal (SIGINT, "
     "SIGTERM or SIGHUP: Ctrl-C) ended the wait: the verdict is what had arrived by then, and the final response "
     "had not. It says nothing against the server; the stream may have been about to deliver it. The run exits "
     "128 plus the signal's number (130 after SIGINT).",
     "Wait longer, or give --idle-timeout/--timeout for a bounded wait; if the server keeps the stream open "
     "without answering, check the tool's progress notifications and the server's logs."},
    {R::idle_timeout, "idle_timeout", O::STREAM_INCOMPLETE, A::resend_if_idempotent, kMcpSendingMessages,
     "mcptriage was reading the exchange live and no byte arrived for --idle-timeout: the stream stalled before "
     "its final response, and the verdict is what had arrived by then.",
     "Check why the server (or a proxy buffering the stream) went silent; raise --idle-timeout if the tool is "
     "slow and sends no progress or keep-alive events."},
    {R::timeout, "timeout", O::STREAM_INCOMPLETE, A::resend_if_idempotent, kMcpSendingMessages,
     "mcptriage was reading the exchange live and the whole input took longer than --timeout: the verdict is "
     "what had arrived by then, and the final response had not.",
     "Raise --timeout if the tool is expected to run that long; otherwise check the server for a call that "
     "never finishes."},
    {R::truncated, "truncated", O::MALFORMED_JSON, A::do_not_retry, kRfc9112Incomplete,
     "The body is cut short: fewer bytes than its Content-Length, or chunk framing that ends before its last "
     "chunk. An incomplete message is never judged a success, even when the bytes present parse.",
     "Capture again (the network, a proxy or the capture tool cut it); if the server cuts its replies, keep the "
     "capture for investigation."},
    {R::cut_at_limit, "cut_at_limit", O::MALFORMED_JSON, A::investigate, kRfc8259Parsers,
     "The body was longer than --max-body, so mcptriage read only that much and could not judge the rest. The cut "
     "is mcptriage's own limit on the size of text it accepts (as RFC 8259 allows a parser), not the sender's "
     "fault.",
     "Raise --max-body (for example --max-body 64M) and classify again."},
    {R::undecodable_gzip, "undecodable_gzip", O::MALFORMED_JSON, A::do_not_retry, kRfc9110Gzip,
     "The body is gzip data (it starts with 1f 8b) that could not be decompressed: it is cut short or corrupt; the "
     "warning says why.",
     "Capture again, or capture the decoded body (curl --compressed); keep the capture if the server sends broken "
     "gzip."},
    {R::trailing_data, "trailing_data", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Grammar,
     "A complete JSON value followed by more text. A JSON text is exactly one value surrounded by optional white "
     "space, so a client's JSON parser rejects the body.",
     "Look at what follows the value (a second message glued on, debug output, a capture tool's -w text); fix the "
     "server or the capture."},
    {R::invalid_json, "invalid_json", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Grammar,
     "The body (or the data of the SSE event that should carry the response) is not valid JSON: a syntax error or a "
     "UTF-8 byte order mark. (Integers beyond 64 bits, numbers beyond the double range and lone surrogate escapes "
     "are valid JSON, RFC 8259 §6 and §8.2: they are read, with a warning.) The detail says where the parser "
     "stopped.",
     "Do not replay; keep the redacted raw response, request id and version, and fix the server's serialisation."},
    {R::invalid_utf8, "invalid_utf8", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Encoding,
     "The JSON text is not valid UTF-8. JSON exchanged between systems must be encoded in UTF-8.",
     "Fix the server to encode its JSON in UTF-8; keep the capture as evidence."},
    {R::empty_json, "empty_json", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Grammar,
     "Only white space where a JSON value was expected: a JSON text must hold one value.",
     "Fix the server to return the JSON-RPC message; keep the capture as evidence."},
    {R::too_deep, "too_deep", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Parsers,
     "The JSON nests deeper than 1,024 levels, the limit of the parser mcptriage uses (RFC 8259 lets a parser "
     "limit the depth of nesting). Client parsers have similar limits.",
     "Inspect the server's output; a legitimate reply is rarely this deep."},
    {R::too_large, "too_large", O::MALFORMED_JSON, A::do_not_retry, kRfc8259Parsers,
     "The JSON document is too large for the parser (about 4 GiB); RFC 8259 lets a parser limit the size of texts "
     "it accepts.",
     "Inspect the server's output; a reply this large is unlikely to be usable by any client."},
    {R::not_an_object, "not_an_object", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResponses,
     "The message is valid JSON but not a JSON object (a string, a number, null, or an array element that is not "
     "an object). A JSON-RPC response is an object.",
     "Fix the server to answer with a JSON-RPC 2.0 response object; keep the capture as evidence."},
    {R::batch_not_allowed, "batch_not_allowed", O::INVALID_ENVELOPE, A::do_not_retry, kMcpBatchingRemoved,
     "A JSON array (a batch) answered the request, but the protocol version in force has no batching: batches "
     "exist only in 2025-03-26, and 2025-06-18 removed them.",
     "Check the protocol version (header, --protocol-version); under 2025-06-18 and later fix the server to send "
     "one response object."},
    {R::empty_batch, "empty_batch", O::INVALID_ENVELOPE, A::do_not_retry, kJsonRpcBatch,
     "The reply is an empty JSON array. A batch response holds one response per request that is not a "
     "notification, and a server must not answer with an empty array.",
     "Fix the server; keep the capture as evidence."},
    {R::duplicate_member_envelope, "duplicate_member", O::INVALID_ENVELOPE, A::do_not_retry, kRfc8259Objects,
     "A member name is repeated in the JSON-RPC envelope (or inside error). Names in an object should be unique; "
     "with duplicates, parsers disagree on the value, so the meaning is ambiguous and never a success. The pointer "
     "names the duplicate.",
     "Fix the server's serialisation; keep the capture as evidence."},
    {R::jsonrpc_version, "jsonrpc_version", O::INVALID_ENVELOPE, A::do_not_retry, kJsonRpcResponseObject,
     "The jsonrpc member is missing or not the string \"2.0\": every MCP message must be a JSON-RPC 2.0 message.",
     "Fix the server to send \"jsonrpc\": \"2.0\"."},
    {R::not_a_response, "not_a_response", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResponses,
     "The message that should be the response is a request or a notification (it has a method). A response carries "
     "result or error and the id of the request it answers.",
     "Check that the capture pairs the right messages; otherwise fix the server."},
    {R::result_and_error, "result_and_error", O::INVALID_ENVELOPE, A::do_not_retry, kJsonRpcResponseObject,
     "The response has both result and error. Exactly one of them must be present.",
     "Fix the server; keep the capture as evidence."},
    {R::no_result_or_error, "no_result_or_error", O::INVALID_ENVELOPE, A::do_not_retry, kJsonRpcResponseObject,
     "The response has neither result nor error. Exactly one of them must be present.",
     "Fix the server; keep the capture as evidence."},
    {R::id_invalid_type, "id_invalid_type", O::INVALID_ENVELOPE, A::do_not_retry, kMcpRequests,
     "The response id is neither a string nor an integer (nor null): a fraction, a boolean, an object. MCP ids are "
     "strings or integers.",
     "Fix the server to echo the request's id unchanged."},
    {R::id_missing, "id_missing", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResultResponses,
     "A result without an id: a result response must include the id of the request it answers, or the client "
     "cannot pair it.",
     "Fix the server to echo the request's id."},
    {R::id_null, "id_null", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResultResponses,
     "A result with \"id\": null: a result response must carry the request's id, and MCP request ids are never "
     "null.",
     "Fix the server to echo the request's id."},
    {R::id_mismatch, "id_mismatch", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResultResponses,
     "The response id differs in type or value from the request's (1 and \"1\" differ), or answers no request of a "
     "captured batch. A client cannot pair it with its request.",
     "Check that the capture pairs the right request and response (--id, the request file); otherwise fix the "
     "server to echo the id exactly."},
    {R::result_not_object, "result_not_object", O::INVALID_ENVELOPE, A::do_not_retry, kMcpResultResponses,
     "The result member is not a JSON object. MCP results are objects (an empty one at least).",
     "Fix the server to return an object result."},
    {R::error_not_object, "error_not_object", O::INVALID_ENVELOPE, A::do_not_retry, kMcpErrorResponses,
     "The error member is not a JSON object: an error response carries an object with code and message.",
     "Fix the server's error responses."},
    {R::error_code_not_integer, "error_code_not_integer", O::INVALID_ENVELOPE, A::do_not_retry, kMcpErrorResponses,
     "error.code is missing, fractional or not a number: error codes must be integers.",
     "Fix the server's error responses."},
    {R::error_message_not_string, "error_message_not_string", O::INVALID_ENVELOPE, A::do_not_retry, kMcpErrorResponses,
     "error.message is missing or not a string: an error response must carry a code and a message.",
     "Fix the server's error responses."},
    {R::parse_error, "parse_error", O::JSONRPC_ERROR, A::fix_request, kJsonRpcErrorObject,
     "The server answered with JSON-RPC error -32700 Parse error: it could not parse the request as JSON.",
     "Check the request body is valid JSON (quoting in the shell, encoding), fix it and send again."},
    {R::invalid_request, "invalid_request", O::JSONRPC_ERROR, A::fix_request, kJsonRpcErrorObject,
     "The server answered with JSON-RPC error -32600 Invalid Request: the request is JSON but not a valid JSON-RPC "
     "request (a receiver that requires tasks may also send it for a request without one).",
     "Fix the request envelope (jsonrpc, id, method, params) and send again."},
    {R::method_not_found, "method_not_found", O::JSONRPC_ERROR, A::fix_request, kJsonRpcErrorObject,
     "The server answered with JSON-RPC error -32601 Method not found: it does not implement the method, or the "
     "capability behind it was not advertised. Under 2026-07-28 it comes with HTTP 404.",
     "Check the method name and the server's capabilities (initialize or server/discover) before calling it."},
    {R::invalid_params, "invalid_params", O::JSONRPC_ERROR, A::fix_request, kJsonRpcErrorObject,
     "The server answered with JSON-RPC error -32602 Invalid params: an unknown tool, arguments that fail the "
     "schema, a bad cursor, a missing _meta field (2026-07-28). Before 2026-07-28 an unsupported protocol version "
     "in initialize is also -32602, with data.supported; then the advice is retry_with_supported_version.",
     "Fix the parameters (tool name, arguments against the tool's inputSchema); do not resend the same call."},
    {R::internal_error, "internal_error", O::JSONRPC_ERROR, A::retry_once_if_idempotent, kJsonRpcErrorObject,
     "The server answered with JSON-RPC error -32603 Internal error: it failed while handling the request.",
     "At most one retry, and only for an idempotent call; report it to the server's owner with the redacted "
     "capture."},
    {R::resource_not_found, "resource_not_found", O::JSONRPC_ERROR, A::fix_request, kMcpResourceErrors,
     "The server answered with -32002 Resource not found (2025 versions; 2026-07-28 uses -32602 and clients should "
     "still accept -32002): the resource URI does not exist.",
     "Check the URI against resources/list or the resource templates."},
    {R::session_not_found, "session_not_found", O::JSONRPC_ERROR, A::new_session, kMcpSessionManagement,
     "The server answered with -32001, which the TypeScript SDK sends for 'Session not found'. The spec gives "
     "-32001 no fixed meaning (2026-07-28 calls -32000..-32019 legacy); the rule behind it is the session rule "
     "that an ended session must be re-initialized.",
     "Start a new session (initialize again), then resend."},
    {R::server_not_initialized, "server_not_initialized", O::JSONRPC_ERROR, A::new_session, kMcpInitialization,
     "The server answered with a JSON-RPC error saying it is not initialized ('Server not initialized'), or with "
     "-32002 to a method other than resources/* whose message names no resource: servers that follow LSP send -32002 ServerNotInitialized (MCP's "
     "-32002 is Resource not found, which only a resources/ request can get). The server has no initialized session "
     "for this request: initialize (and notifications/initialized) must come before any other request. The "
     "request itself is not at fault.",
     "Initialize again (initialize, then notifications/initialized), keep the new Mcp-Session-Id, then resend the "
     "request unchanged."},
    {R::url_elicitation_required, "url_elicitation_required", O::JSONRPC_ERROR, A::investigate,
     kMcpUrlElicitationRequired,
     "The server answered with -32042 URL elicitation required (2025-11-25 only): the request cannot proceed until "
     "the user completes the URL-mode elicitations listed in error.data.elicitations.",
     "Show the user the elicitation URLs, wait for them to complete, then retry the original request."},
    {R::header_mismatch, "header_mismatch", O::JSONRPC_ERROR, A::fix_request, kMcp26ServerValidation,
     "The server answered with -32020 HeaderMismatch (2026-07-28): a required MCP header (MCP-Protocol-Version, "
     "Mcp-Method, Mcp-Name) is missing or malformed, or disagrees with the request body. It comes with HTTP 400.",
     "Make the headers match the body (protocol version, method, name), then send again."},
    {R::missing_client_capability, "missing_client_capability", O::JSONRPC_ERROR, A::fix_request, kMcp26Meta,
     "The server answered with -32021 MissingRequiredClientCapability (2026-07-28): serving the request needs a "
     "client capability the request's _meta did not declare; data.requiredCapabilities lists them.",
     "Declare the required capabilities in io.modelcontextprotocol/clientCapabilities (if the client has them), "
     "then send again."},
    {R::unsupported_protocol_version, "unsupported_protocol_version", O::JSONRPC_ERROR, A::retry_with_supported_version,
     kMcp26VersionNegotiation,
     "The server answered with -32022 UnsupportedProtocolVersion (2026-07-28): it does not implement the requested "
     "protocol version; data.supported lists the versions it does.",
     "Retry with a version from data.supported that the client implements, or tell the user no common version "
     "exists."},
    {R::server_defined_error, "server_defined_error", O::JSONRPC_ERROR, A::investigate, kMcp26ErrorCodes,
     "A JSON-RPC error with a code in -32099..-32000 that has no reason of its own: implementation-defined server "
     "errors. 2026-07-28 calls -32000..-32019 legacy codes with no fixed meaning and reserves -32020..-32099 for "
     "the spec.",
     "Read the error message; do not resend the same call unchanged."},
    {R::reserved_error_code, "reserved_error_code", O::JSONRPC_ERROR, A::investigate, kJsonRpcErrorObject,
     "A JSON-RPC error with a code in -32768..-32100, the range JSON-RPC reserves for predefined errors, that no "
     "specification defines.",
     "Read the error message; report the undefined code to the server's owner."},
    {R::application_error, "application_error", O::JSONRPC_ERROR, A::investigate, kMcp26ErrorCodes,
     "A JSON-RPC error with a code outside the reserved range: an application-defined error, whose meaning only "
     "the server documents.",
     "Read the error message and the server's documentation; do not resend the same call unchanged."},
    {R::content_missing, "content_missing", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "A tool result without content. Every CallToolResult must have a content array (it may be empty); a task "
     "handle is recognised separately.",
     "Fix the server to return content (an empty array at least); keep the capture as evidence."},
    {R::content_not_array, "content_not_array", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "The tool result's content is not an array (an object, a string): the client cannot read the tool's output.",
     "Fix the server to return content as an array of content blocks."},
    {R::content_item_not_object, "content_item_not_object", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "An item of content is not an object: every content block is an object with a type.",
     "Fix the server's content blocks; the pointer names the item."},
    {R::content_type_missing_item, "content_type_missing", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "A content item has no string type: a client cannot tell a text block from an image.",
     "Fix the server's content blocks; the pointer names the item."},
    {R::content_type_unknown, "content_type_unknown", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "A content item's type is not a content block of the protocol version in force (text, image, audio, resource; "
     "resource_link from 2025-06-18). tool_use and tool_result belong to sampling messages, not tool results.",
     "Fix the server, or check the protocol version (resource_link needs 2025-06-18 or later)."},
    {R::content_field_missing, "content_field_missing", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "A content item lacks a field its type requires: text needs text; image and audio need data and mimeType; "
     "resource_link needs uri and name; resource needs resource with uri and text or blob. The pointer names the "
     "field.",
     "Fix the server's content blocks."},
    {R::is_error_not_boolean, "is_error_not_boolean", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpCallToolResult,
     "isError is present but not a boolean: the client cannot tell whether the tool failed.",
     "Fix the server to send isError as true or false (or leave it out)."},
    {R::structured_content_not_object, "structured_content_not_object", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcpStructuredContent,
     "structuredContent is not a JSON object under 2025-06-18 or 2025-11-25, where structured content is an object "
     "(2026-07-28 allows any JSON value).",
     "Fix the server, or check the protocol version."},
    {R::structured_content_schema_mismatch, "structured_content_schema_mismatch", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcpOutputSchema,
     "The input holds the tool's outputSchema (an earlier tools/list result) and this result's structuredContent "
     "is missing or does not conform; servers must return conforming structured results and clients should "
     "validate them. The pointer names the first mismatch; the subset of JSON Schema checked is in docs/output.md.",
     "Fix the tool's output or its outputSchema so that they agree."},
    {R::result_type_not_string_tool_result, "result_type_not_string", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcp26ResultType,
     "A tools/call result's resultType is not a string. resultType (2026-07-28) is a string naming the kind of "
     "result.",
     "Fix the server to send resultType as \"complete\", \"input_required\" or an advertised extension value."},
    {R::unknown_result_type_tool_result, "unknown_result_type", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcp26ResultType,
     "A tools/call result's resultType is not complete, input_required or task. A client must treat a resultType "
     "it does not recognise as invalid.",
     "Fix the server, or, for an extension's value, check that the client declared that extension."},
    {R::input_required_empty_tool_result, "input_required_empty", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "A tools/call result with resultType input_required but neither inputRequests nor requestState: an "
     "InputRequiredResult must carry at least one of them.",
     "Fix the server's InputRequiredResult."},
    {R::input_requests_not_object_tool_result, "input_requests_not_object", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "A tools/call input_required result whose inputRequests is not an object (a map from keys to input requests).",
     "Fix the server's InputRequiredResult."},
    {R::request_state_not_string_tool_result, "request_state_not_string", O::INVALID_TOOL_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "A tools/call input_required result whose requestState is not a string (an opaque string the client echoes).",
     "Fix the server's InputRequiredResult."},
    {R::task_id_missing, "task_id_missing", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpCreatingTasks,
     "A task handle (2025-11-25 result.task, or a 2026-07-28 resultType task) without a string taskId: the client "
     "cannot poll the task.",
     "Fix the server's CreateTaskResult."},
    {R::task_status_missing, "task_status_missing", O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpCreatingTasks,
     "A task handle without a string status.",
     "Fix the server's CreateTaskResult."},
    {R::duplicate_member_tool_result, "duplicate_member", O::INVALID_TOOL_RESULT, A::do_not_retry, kRfc8259Objects,
     "A member name is repeated inside a tool result. With duplicates, parsers disagree on the value, so the "
     "result is ambiguous and never a success. The pointer names the duplicate.",
     "Fix the server's serialisation."},
    {R::protocol_version_missing, "protocol_version_missing", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result has no protocolVersion (a string), which its result schema requires.",
     "Fix the server's initialize result."},
    {R::protocol_version_invalid, "protocol_version_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result's protocolVersion (a string) has another JSON type.",
     "Fix the server's initialize result."},
    {R::capabilities_missing, "capabilities_missing", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result has no capabilities (an object), which its result schema requires.",
     "Fix the server's initialize result."},
    {R::capabilities_invalid, "capabilities_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result's capabilities (an object) has another JSON type.",
     "Fix the server's initialize result."},
    {R::server_info_missing, "server_info_missing", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result has no serverInfo (an object), which its result schema requires.",
     "Fix the server's initialize result."},
    {R::server_info_invalid, "server_info_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpInitialization,
     "The initialize result's serverInfo (an object) has another JSON type.",
     "Fix the server's initialize result."},
    {R::tools_missing, "tools_missing", O::INVALID_RESULT, A::do_not_retry, kMcpListingTools,
     "The tools/list result has no tools (an array), which its result schema requires.",
     "Fix the server's tools/list result."},
    {R::tools_invalid, "tools_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpListingTools,
     "The tools/list result's tools (an array) has another JSON type.",
     "Fix the server's tools/list result."},
    {R::tool_name_missing, "tool_name_missing", O::INVALID_RESULT, A::do_not_retry, kMcpTool,
     "A tool in a tools/list result is not an object with a string name.",
     "Fix the server's tool definitions; the pointer names the tool."},
    {R::tool_input_schema_missing, "tool_input_schema_missing", O::INVALID_RESULT, A::do_not_retry, kMcpTool,
     "A tool in a tools/list result has no inputSchema object, which every tool definition requires.",
     "Fix the server's tool definitions (a tool without parameters has {\"type\": \"object\"})."},
    {R::resources_missing, "resources_missing", O::INVALID_RESULT, A::do_not_retry, kMcpListingResources,
     "The resources/list result has no resources (an array), which its result schema requires.",
     "Fix the server's resources/list result."},
    {R::resources_invalid, "resources_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpListingResources,
     "The resources/list result's resources (an array) has another JSON type.",
     "Fix the server's resources/list result."},
    {R::resource_templates_missing, "resource_templates_missing", O::INVALID_RESULT, A::do_not_retry,
     kMcpResourceTemplates,
     "The resources/templates/list result has no resourceTemplates (an array), which its result schema requires.",
     "Fix the server's resources/templates/list result."},
    {R::resource_templates_invalid, "resource_templates_invalid", O::INVALID_RESULT, A::do_not_retry,
     kMcpResourceTemplates,
     "The resources/templates/list result's resourceTemplates (an array) has another JSON type.",
     "Fix the server's resources/templates/list result."},
    {R::prompts_missing, "prompts_missing", O::INVALID_RESULT, A::do_not_retry, kMcpListingPrompts,
     "The prompts/list result has no prompts (an array), which its result schema requires.",
     "Fix the server's prompts/list result."},
    {R::prompts_invalid, "prompts_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpListingPrompts,
     "The prompts/list result's prompts (an array) has another JSON type.",
     "Fix the server's prompts/list result."},
    {R::contents_missing, "contents_missing", O::INVALID_RESULT, A::do_not_retry, kMcpReadingResources,
     "The resources/read result has no contents (an array), which its result schema requires.",
     "Fix the server's resources/read result."},
    {R::contents_invalid, "contents_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpReadingResources,
     "The resources/read result's contents (an array) has another JSON type.",
     "Fix the server's resources/read result."},
    {R::messages_missing, "messages_missing", O::INVALID_RESULT, A::do_not_retry, kMcpGettingPrompt,
     "The prompts/get result has no messages (an array), which its result schema requires.",
     "Fix the server's prompts/get result."},
    {R::messages_invalid, "messages_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpGettingPrompt,
     "The prompts/get result's messages (an array) has another JSON type.",
     "Fix the server's prompts/get result."},
    {R::supported_versions_missing, "supported_versions_missing", O::INVALID_RESULT, A::do_not_retry,
     kMcp26DiscoverResponse,
     "The server/discover result has no supportedVersions (an array), which its result schema requires.",
     "Fix the server's server/discover result."},
    {R::supported_versions_invalid, "supported_versions_invalid", O::INVALID_RESULT, A::do_not_retry,
     kMcp26DiscoverResponse,
     "The server/discover result's supportedVersions (an array) has another JSON type.",
     "Fix the server's server/discover result."},
    {R::completion_missing, "completion_missing", O::INVALID_RESULT, A::do_not_retry, kMcpCompleteResult,
     "The completion/complete result has no completion (an object), which its result schema requires.",
     "Fix the server's completion/complete result."},
    {R::completion_invalid, "completion_invalid", O::INVALID_RESULT, A::do_not_retry, kMcpCompleteResult,
     "The completion/complete result's completion (an object) has another JSON type.",
     "Fix the server's completion/complete result."},
    {R::input_required_not_allowed, "input_required_not_allowed", O::INVALID_RESULT, A::do_not_retry,
     kMcp26MrtrSupportedRequests,
     "resultType input_required answering a method other than tools/call, prompts/get and resources/read: servers "
     "must not send an InputRequiredResult on any other request.",
     "Fix the server."},
    {R::task_not_allowed, "task_not_allowed", O::INVALID_RESULT, A::do_not_retry, kMcpTasksExtension,
     "resultType task answering a method that cannot create tasks (the tasks extension lets tools/call create "
     "them); a client must treat it as invalid.",
     "Fix the server."},
    {R::result_type_not_string_result, "result_type_not_string", O::INVALID_RESULT, A::do_not_retry, kMcp26ResultType,
     "A result (of a method other than tools/call) whose resultType is not a string.",
     "Fix the server to send resultType as a string."},
    {R::unknown_result_type_result, "unknown_result_type", O::INVALID_RESULT, A::do_not_retry, kMcp26ResultType,
     "A result (of a method other than tools/call) whose resultType is not one the client recognises; it must be "
     "treated as invalid.",
     "Fix the server, or check that the client declared the extension that defines the value."},
    {R::input_required_empty_result, "input_required_empty", O::INVALID_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "An input_required result (prompts/get, resources/read, or a method not known) with neither inputRequests nor "
     "requestState.",
     "Fix the server's InputRequiredResult."},
    {R::input_requests_not_object_result, "input_requests_not_object", O::INVALID_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "An input_required result (not of tools/call) whose inputRequests is not an object.",
     "Fix the server's InputRequiredResult."},
    {R::request_state_not_string_result, "request_state_not_string", O::INVALID_RESULT, A::do_not_retry,
     kMcp26InputRequiredResult,
     "An input_required result (not of tools/call) whose requestState is not a string.",
     "Fix the server's InputRequiredResult."},
    {R::duplicate_member_result, "duplicate_member", O::INVALID_RESULT, A::do_not_retry, kRfc8259Objects,
     "A member name is repeated inside the result of a method other than tools/call; the meaning is ambiguous and "
     "never a success. The pointer names the duplicate.",
     "Fix the server's serialisation."},
    {R::tool_success, "tool_success", O::TOOL_SUCCESS, A::none, kMcpToolResult,
     "A final tools/call result of valid shape with isError absent or false: the tool ran and succeeded. The "
     "detail counts the content items and quotes the first text.",
     "Nothing to do."},
    {R::tool_error, "tool_error", O::TOOL_ERROR, A::hand_error_to_model, kMcpToolErrors,
     "A final tools/call result of valid shape with isError true: the tool ran and reported an error (an API "
     "failure, invalid input from 2025-11-25 on, a business-logic error). The detail quotes the first text item.",
     "Hand the error text to the model so it can correct itself (the spec's SHOULD); do not replay blindly."},
    {R::rpc_success, "rpc_success", O::RPC_SUCCESS, A::none, kMcpResultResponses,
     "A valid success result of a method other than tools/call (initialize, tools/list, ping, server/discover, "
     "...), with the shape its method requires where mcptriage checks it.",
     "Nothing to do."},
    {R::accepted, "accepted", O::ACCEPTED, A::none, kMcpSendingMessages,
     "202 Accepted with no body, answering a notification (a response the client sent is response_accepted): the "
     "server took the message. With no request context a warning says the request kind was not known.",
     "Nothing to do."},
    {R::response_accepted, "response_accepted", O::ACCEPTED, A::none, kMcpSendingMessages,
     "202 Accepted with no body, answering a JSON-RPC response the client POSTed (its answer to a server request "
     "such as elicitation/create, sampling/createMessage or roots/list; the detail names the server request's id): "
     "the server took it (2025 transports, Sending Messages: a response or notification the server accepts gets "
     "202). 2026-07-28 has no server requests and a client must not send responses; under it a warning says so.",
     "Nothing to do: the server's request is answered; its result arrives on the originating call's stream."},
    {R::input_required, "input_required", O::INPUT_REQUIRED, A::resend_with_input, kMcp26InputRequiredResult,
     "A result with resultType input_required (2026-07-28 multi round-trip requests): the server needs input "
     "(elicitation, sampling, roots) before it can finish; the detail lists the input requests.",
     "Gather the inputs, then send the request again under a new id with inputResponses (same keys) and "
     "requestState echoed unchanged."},
    {R::server_request_pending, "server_request_pending", O::INPUT_REQUIRED, A::resend_with_input, kMcpSendingMessages,
     "Before 2026-07-28: the event stream ends with a server-to-client request (elicitation/create, "
     "sampling/createMessage, roots/list) and no final response; the server waits for the client's answer.",
     "Answer the server's request (POST its response), then read the rest of the stream."},
    {R::task_created, "task_created", O::TASK_CREATED, A::poll_task, kMcpCreatingTasks,
     "tools/call was answered with a task handle (2025-11-25 result.task, or 2026-07-28 tasks extension resultType "
     "task): the call runs on, and its result comes later.",
     "Poll the task with tasks/get after its poll interval (after_ms), then fetch the result."},
}};

constexpr bool in_enumerator_order() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (kRows[i].reason != static_cast<Reason>(i)) return false;
  }
  return true;
}
static_assert(in_enumerator_order(), "kRows lists every Reason once, in enumerator order");

/// For each reason, the first reason with its code: reasons that share a code share this.
constexpr std::array<Reason, kReasonCount> kFirstOfCode = [] {
  std::array<Reason, kReasonCount> first{};
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    std::size_t k = 0;
    while (kRows[k].name != kRows[i].name) ++k;
    first[i] = kRows[k].reason;
  }
  return first;
}();

}  // namespace

std::string_view to_string(Reason r) { return kRows[static_cast<std::size_t>(r)].name; }

Outcome outcome_of(Reason r) { return kRows[static_cast<std::size_t>(r)].outcome; }

const ReasonEntry& reason_entry(Reason r) { return kRows[static_cast<std::size_t>(r)]; }

std::span<const ReasonEntry> reason_catalogue() { return kRows; }

std::vector<Reason> reasons_named(std::string_view name) {
  std::vector<Reason> out;
  for (const ReasonEntry& row : kRows) {
    if (row.name == name) out.push_back(row.reason);
  }
  return out;
}

bool same_code(Reason a, Reason b) {
  return kFirstOfCode[static_cast<std::size_t>(a)] == kFirstOfCode[static_cast<std::size_t>(b)];
}

std::vector<std::string_view> reason_names() {
  std::vector<std::string_view> out;
  for (const ReasonEntry& row : kRows) {
    if (kFirstOfCode[static_cast<std::size_t>(row.reason)] == row.reason) out.push_back(row.name);
  }
  return out;
}

}  // namespace mcptriage
