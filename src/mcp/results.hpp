// MCP result rules: the result of each method whose shape is checked (tools/call and tasks/result
// in tool_result.cpp; initialize, tools/list, the list methods, tasks, 2026-07-28 MRTR
// input_required in results.cpp). They write the verdict into a Classification whose envelope
// has passed (jsonrpc/envelope.hpp). Not public API.
#pragma once

#include <string>
#include <string_view>

#include "json/dom.hpp"
#include "mcptriage/verdict.hpp"

namespace mcptriage::mcp {

/// tools/call, and tasks/result (which returns what tools/call would have returned).
bool is_tool_method(std::string_view method);

/// Sets c.method (and method_source inferred) from the members of `result` when the request's
/// method is not known (classification.md §Request context): tools/call for tool-result members,
/// initialize, server/discover, the list methods, resources/read, prompts/get, completion/complete
/// by their members; an empty result (only `_meta`, `resultType`) leaves the method "" with a
/// warning; anything else is taken as tools/call.
void infer_method(Classification& c, json::View result);

/// Judges the object `result` (at JSON Pointer `ptr`) of a response to c.method (inferred when
/// unknown) under c.protocol_version: `resultType` (2026-07-28: input_required, task, complete;
/// MCP basic §resultType, MRTR), a 2025-11-25 task handle, then the method's own shape. Sets the
/// verdict: a success, INPUT_REQUIRED, TASK_CREATED, INVALID_TOOL_RESULT or INVALID_RESULT.
void judge_result(Classification& c, json::View result, const std::string& ptr);

/// A tools/call (or tasks/result) result of resultType complete (MCP server/tools §Tool result,
/// schema CallToolResult): `content` an array of content blocks of known types with their
/// required members (`resource_link` from 2025-06-18), `isError` a boolean, `structuredContent`
/// an object from 2025-06-18 until 2026-07-28. TOOL_SUCCESS or TOOL_ERROR ("N content items:
/// first text"), else INVALID_TOOL_RESULT with the pointer of the fault.
void judge_tool_result(Classification& c, json::View result, const std::string& ptr);

}  // namespace mcptriage::mcp
