// The spec sections the reason catalogue cites (reasons.cpp, outcomes.cpp). MCP sections are
// modelcontextprotocol.io pages of the version whose rule it is: 2025-11-25 (the version assumed when
// nothing says) unless the rule exists only in another version (2025-03-26 batches, the 2025-06-18
// changelog, 2026-07-28 rules); anchors are the page headings' slugs, checked against the headings of
// modelcontextprotocol/modelcontextprotocol docs/specification/<version>/*.mdx at b0f60ba (2026-08-22).
// RFC sections are rfc-editor.org section anchors; JSON-RPC 2.0 is jsonrpc.org/specification.
#pragma once

#include <string_view>

namespace mcptriage::spec {

inline constexpr std::string_view kMcpSendingMessages =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server";
inline constexpr std::string_view kMcpSessionManagement =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management";
inline constexpr std::string_view kMcpListening =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#listening-for-messages-from-the-server";
inline constexpr std::string_view kMcpStreamableHttp =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http";
inline constexpr std::string_view kMcpAuthorization =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-flow-steps";
inline constexpr std::string_view kMcpAuthErrors =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#error-handling";
inline constexpr std::string_view kMcpInsufficientScope =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#runtime-insufficient-scope-errors";
inline constexpr std::string_view kMcpMessages =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#messages";
inline constexpr std::string_view kMcpRequests =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#requests";
inline constexpr std::string_view kMcpResponses =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#responses";
inline constexpr std::string_view kMcpResultResponses =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#result-responses";
inline constexpr std::string_view kMcpErrorResponses =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#error-responses";
inline constexpr std::string_view kMcpNotifications =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications";
inline constexpr std::string_view kMcpBatchingRemoved =
    "https://modelcontextprotocol.io/specification/2025-06-18/changelog#major-changes";
inline constexpr std::string_view kMcpToolResult =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result";
inline constexpr std::string_view kMcpStructuredContent =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content";
inline constexpr std::string_view kMcpOutputSchema =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema";
inline constexpr std::string_view kMcpToolErrors =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling";
inline constexpr std::string_view kMcpCallToolResult =
    "https://modelcontextprotocol.io/specification/2025-11-25/schema#calltoolresult";
inline constexpr std::string_view kMcpListingTools =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools";
inline constexpr std::string_view kMcpTool =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool";
inline constexpr std::string_view kMcpStdio =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio";
inline constexpr std::string_view kMcpStdioShutdown =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio";
inline constexpr std::string_view kMcpTimeouts =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts";
inline constexpr std::string_view kMcpInitialization =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization";
inline constexpr std::string_view kMcpListingResources =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#listing-resources";
inline constexpr std::string_view kMcpResourceTemplates =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#resource-templates";
inline constexpr std::string_view kMcpReadingResources =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#reading-resources";
inline constexpr std::string_view kMcpResourceErrors =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling";
inline constexpr std::string_view kMcpListingPrompts =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#listing-prompts";
inline constexpr std::string_view kMcpGettingPrompt =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/prompts#getting-a-prompt";
inline constexpr std::string_view kMcpCompleteResult =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion#completeresult";
inline constexpr std::string_view kMcpCreatingTasks =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks#creating-tasks";
inline constexpr std::string_view kMcpUrlElicitationRequired =
    "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#url-elicitation-required-error";
inline constexpr std::string_view kMcp26ResultType =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic#resulttype";
inline constexpr std::string_view kMcp26ErrorCodes =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes";
inline constexpr std::string_view kMcp26ServerValidation =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation";
inline constexpr std::string_view kMcp26Meta = "https://modelcontextprotocol.io/specification/2026-07-28/basic#meta";
inline constexpr std::string_view kMcp26VersionNegotiation =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#protocol-version-negotiation";
inline constexpr std::string_view kMcp26Mrtr =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#multi-round-trip-requests";
inline constexpr std::string_view kMcp26InputRequiredResult =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#inputrequiredresult";
inline constexpr std::string_view kMcp26MrtrSupportedRequests =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#supported-requests";
inline constexpr std::string_view kMcp26BackwardCompatibility =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility";
inline constexpr std::string_view kMcp26DiscoverResponse =
    "https://modelcontextprotocol.io/specification/2026-07-28/server/discover#response";
inline constexpr std::string_view kMcpTasksExtension =
    "https://modelcontextprotocol.io/extensions/tasks/overview#how-tasks-work";
inline constexpr std::string_view kJsonRpcResponseObject = "https://www.jsonrpc.org/specification#response_object";
inline constexpr std::string_view kJsonRpcErrorObject = "https://www.jsonrpc.org/specification#error_object";
inline constexpr std::string_view kJsonRpcBatch = "https://www.jsonrpc.org/specification#batch";
inline constexpr std::string_view kRfc8259Grammar = "https://www.rfc-editor.org/rfc/rfc8259#section-2";
inline constexpr std::string_view kRfc8259Objects = "https://www.rfc-editor.org/rfc/rfc8259#section-4";
inline constexpr std::string_view kRfc8259Encoding = "https://www.rfc-editor.org/rfc/rfc8259#section-8.1";
inline constexpr std::string_view kRfc8259Parsers = "https://www.rfc-editor.org/rfc/rfc8259#section-9";
inline constexpr std::string_view kRfc9112BodyLength = "https://www.rfc-editor.org/rfc/rfc9112#section-6.3";
inline constexpr std::string_view kRfc9112Incomplete = "https://www.rfc-editor.org/rfc/rfc9112#section-8";
inline constexpr std::string_view kRfc9110ContentEncoding = "https://www.rfc-editor.org/rfc/rfc9110#section-8.4";
inline constexpr std::string_view kRfc9110Gzip = "https://www.rfc-editor.org/rfc/rfc9110#section-8.4.1.3";
inline constexpr std::string_view kRfc9110Intermediaries = "https://www.rfc-editor.org/rfc/rfc9110#section-3.7";
inline constexpr std::string_view kRfc9110Status = "https://www.rfc-editor.org/rfc/rfc9110#section-15";
inline constexpr std::string_view kRfc9110Informational = "https://www.rfc-editor.org/rfc/rfc9110#section-15.2";
inline constexpr std::string_view kRfc9110Redirection = "https://www.rfc-editor.org/rfc/rfc9110#section-15.4";
inline constexpr std::string_view kRfc9110ClientError = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5";
inline constexpr std::string_view kRfc9110BadRequest = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.1";
inline constexpr std::string_view kRfc9110NotFound = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5";
inline constexpr std::string_view kRfc9110MethodNotAllowed = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.6";
inline constexpr std::string_view kRfc9110RequestTimeout = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.9";
inline constexpr std::string_view kRfc9110Conflict = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.10";
inline constexpr std::string_view kRfc9110ContentTooLarge = "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.14";
inline constexpr std::string_view kRfc9110UnsupportedMediaType =
    "https://www.rfc-editor.org/rfc/rfc9110#section-15.5.16";
inline constexpr std::string_view kRfc9110ServerError = "https://www.rfc-editor.org/rfc/rfc9110#section-15.6";
inline constexpr std::string_view kRfc9110InternalServerError = "https://www.rfc-editor.org/rfc/rfc9110#section-15.6.1";
inline constexpr std::string_view kRfc9110BadGateway = "https://www.rfc-editor.org/rfc/rfc9110#section-15.6.3";
inline constexpr std::string_view kRfc9110ServiceUnavailable = "https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4";
inline constexpr std::string_view kRfc9110GatewayTimeout = "https://www.rfc-editor.org/rfc/rfc9110#section-15.6.5";
inline constexpr std::string_view kRfc6585TooManyRequests = "https://www.rfc-editor.org/rfc/rfc6585#section-4";

}  // namespace mcptriage::spec
