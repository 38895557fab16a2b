// The outcome catalogue (an entry per Outcome, for `mcptriage explain OUTCOME`) and the
// vocabulary of skipped records (docs/output.md "Skipped records"), which are not classified.
#include <array>

#include "verdict/spec_links.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage {
namespace {

using A = Advice;
using O = Outcome;
using namespace spec;

constexpr std::array<OutcomeEntry, kOutcomeCount> kOutcomes{{
    {O::TOOL_SUCCESS, A::none, kMcpToolResult,
     "A final tools/call result of valid shape with isError absent or false: the tool succeeded.",
     "Nothing to do."},
    {O::TOOL_ERROR, A::hand_error_to_model, kMcpToolErrors,
     "A final tools/call result of valid shape with isError true: the tool ran and reported an error, a tool "
     "execution error rather than a protocol error.",
     "Hand the error text to the model (the spec's SHOULD); do not replay blindly."},
    {O::RPC_SUCCESS, A::none, kMcpResultResponses,
     "A valid success result of a method other than tools/call (initialize, tools/list, ping, server/discover, "
     "...).",
     "Nothing to do."},
    {O::INPUT_REQUIRED, A::resend_with_input, kMcp26Mrtr,
     "The call is not finished: the server needs input first, as a 2026-07-28 input_required result or, before "
     "2026-07-28, a server-to-client request that ends the stream.",
     "Gather the inputs (or answer the server's request) and continue the call; it is not a failure."},
    {O::TASK_CREATED, A::poll_task, kMcpCreatingTasks,
     "tools/call was answered with a task handle: the work continues as a task whose result comes later.",
     "Poll the task (tasks/get) after its poll interval."},
    {O::ACCEPTED, A::none, kMcpSendingMessages,
     "202 Accepted with no body answering a notification (or a client's response): the only valid reply to one.",
     "Nothing to do."},
    {O::HTTP_ERROR, A::investigate, kRfc9110Status,
     "A non-2xx HTTP status. The status decides whatever the body says (a 500 with a perfect result is still "
     "HTTP_ERROR); a JSON-RPC error in the body is kept as a detail. The exception: under 2026-07-28, a JSON-RPC "
     "error the spec pairs with 400 or 404 is JSONRPC_ERROR. The reason names the status.",
     "Follow the advice of the reason: re-authorize, start a new session, back off, or fix the request."},
    {O::INVALID_HTTP_RESPONSE, A::do_not_retry, kMcpSendingMessages,
     "A 2xx that is not a valid Streamable HTTP reply: to a request, a Content-Type that is neither "
     "application/json nor text/event-stream, an empty body, or 202/204; to a notification, anything but 202 with "
     "no body.",
     "Do not replay; fix the server (or the endpoint URL) and keep the capture as evidence."},
    {O::STREAM_INCOMPLETE, A::resend_if_idempotent, kMcpSendingMessages,
     "An event stream that ended without the final response to the request. stream.resumable says whether it can "
     "be resumed with Last-Event-ID (an event id was set and the version is before 2026-07-28).",
     "Resumable: reconnect with GET and Last-Event-ID. Otherwise resend under a new id only if idempotent."},
    {O::MALFORMED_JSON, A::do_not_retry, kRfc8259Grammar,
     "The JSON body, or the data of the SSE event that should carry the response, is not valid JSON, is cut short, "
     "or has text after the value.",
     "Do not replay; keep the redacted raw response, request id and version for investigation."},
    {O::INVALID_ENVELOPE, A::do_not_retry, kMcpResponses,
     "Valid JSON that is not a JSON-RPC 2.0 response to this request: not an object, a batch where the version has "
     "none, jsonrpc not \"2.0\", both or neither of result and error, an id that is missing or does not match.",
     "Do not replay; keep the evidence and fix the server."},
    {O::JSONRPC_ERROR, A::investigate, kMcpErrorResponses,
     "A well-formed JSON-RPC error response: the server understood the message and refused or failed it. The "
     "reason names the error code.",
     "Follow the advice of the reason: fix the parameters, retry with a supported version, start a new session."},
    {O::INVALID_TOOL_RESULT, A::do_not_retry, kMcpToolResult,
     "A tools/call (or tasks/result) result of the wrong shape: content missing or not an array, a bad content "
     "item, isError not a boolean, an unknown resultType, structuredContent that breaks the tool's outputSchema.",
     "Do not replay; fix the server's tool result."},
    {O::INVALID_RESULT, A::do_not_retry, kMcpResultResponses,
     "The result of another method with the wrong shape for that method, where mcptriage checks its schema "
     "(initialize, tools/list, resources/*, prompts/*, completion/complete, server/discover).",
     "Do not replay; fix the server's result."},
    {O::NOT_CAPTURED, A::investigate, kMcpSendingMessages,
     "The capture holds no response body, or no response at all: nothing can be judged, so nothing is claimed.",
     "Capture the response body and classify again."},
    {O::AUTH_LEG, A::none, kMcpAuthorization,
     "A leg of MCP authorization: protected resource metadata, authorization server metadata, client registration, "
     "an authorization request or its callback, a token or refresh request (or a bare response shaped like one). It "
     "is no JSON-RPC exchange: the authorization triage judges it within its flow (the record's auth member; one "
     "auth_flow record per flow names the step that broke). It is failed only when the leg itself failed.",
     "Read the auth_flow record of its flow (mcptriage explain AUTH_FAILED, docs/auth.md)."},
}};

constexpr bool in_enumerator_order() {
  for (std::size_t i = 0; i < kOutcomes.size(); ++i) {
    if (kOutcomes[i].outcome != static_cast<Outcome>(i)) return false;
  }
  return true;
}
static_assert(in_enumerator_order(), "kOutcomes lists every Outcome once, in enumerator order");

constexpr std::array<SkipReasonEntry, 8> kSkipReasons{{
    {"not_mcp", kMcpStreamableHttp,
     "A HAR entry with no JSON-RPC message in its request or response and no MCP header: a page, an asset, "
     "favicon.ico, a form POST, a CORS preflight. It is not an exchange with the MCP endpoint.",
     "Nothing to do; filter the HAR to the MCP endpoint if the noise matters."},
    {"session_end", kMcpSessionManagement,
     "A HAR DELETE: the client ending its MCP session (no JSON-RPC message).",
     "Nothing to do."},
    {"standalone_stream", kMcpListening,
     "A HAR GET that opened the standalone server stream: server messages, no response to a request (a 405 means "
     "the server offers none).",
     "Nothing to do."},
    {"invalid_entry", "",
     "A HAR entry that is not an object or has no request: the HAR file itself is damaged.",
     "Export the HAR again."},
    {"notification", kMcpNotifications,
     "A client notification in a JSON-RPC message stream: the receiver must not reply, so there is nothing to "
     "judge.",
     "Nothing to do."},
    {"server_message", kMcpMessages,
     "A server notification or request logged on its own line: not a reply to a client request.",
     "Nothing to do."},
    {"client_response", kMcpSendingMessages,
     "The client's answer to a server request in a message stream: the server accepts it with 202 and no body; "
     "there is no reply to judge.",
     "Nothing to do."},
    {"invalid_line", "",
     "A JSON Lines line that is not JSON, not an object, or neither a message nor an exchange (a log cut mid-line "
     "ends with one). A line that is not JSON at all also makes the run exit 3.",
     "Check how the log was written and whether it was cut short."},
}};

}  // namespace

const OutcomeEntry& outcome_entry(Outcome o) { return kOutcomes[static_cast<std::size_t>(o)]; }

std::span<const OutcomeEntry> outcome_catalogue() { return kOutcomes; }

std::span<const SkipReasonEntry> skip_reason_catalogue() { return kSkipReasons; }

}  // namespace mcptriage
