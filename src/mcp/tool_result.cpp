// The tool result (results.hpp): MCP server/tools §Tool result, schema CallToolResult and
// ContentBlock; structuredContent (server/tools §Structured content) by version.
#include <fmt/format.h>

#include <array>
#include <charconv>
#include <span>

#include "mcp/results.hpp"
#include "mcp/versions.hpp"

namespace mcptriage::mcp {

using json::View;

void judge_tool_result(Classification& c, View result, const std::string& ptr) {
  const std::string& v = c.protocol_version;
  auto content = result.get("content");
  if (!content) {
    set_verdict(c, Reason::content_missing, "a tool result without \"content\"", ptr + "/content");
    return;
  }
  if (!content->is_array()) {
    set_verdict(c, Reason::content_not_array,
                fmt::format("\"content\" is {}, not an array", json::type_phrase(*content)), ptr + "/content");
    return;
  }
  std::size_t i = 0;
  std::string_view first_text;  // a view into the parsed body: tool output can be large
  for (View item : content->items()) {
    // The item's JSON Pointer, built only for a finding (this loop runs for every tool result).
    auto ip = [&] { return fmt::format("{}/content/{}", ptr, i); };
    if (!item.is_object()) {
      set_verdict(c, Reason::content_item_not_object,
                  fmt::format("content item {} is {}, not an object", i, json::type_phrase(item)), ip());
      return;
    }
    auto type = item.string_at("type");
    if (!type) {
      set_verdict(c, Reason::content_type_missing_item, fmt::format("content item {} has no string \"type\"", i),
                  ip() + "/type");
      return;
    }
    static constexpr std::array<std::string_view, 1> kText{"text"}, kResource{"resource"};
    static constexpr std::array<std::string_view, 2> kMedia{"data", "mimeType"}, kLink{"uri", "name"};
    std::span<const std::string_view> required;
    if (*type == "text") required = kText;
    else if (*type == "image" || *type == "audio") required = kMedia;
    else if (*type == "resource_link" && in_force(Rule::resource_link, v)) required = kLink;
    else if (*type == "resource") required = kResource;
    else {
      set_verdict(c, Reason::content_type_unknown,
                  fmt::format("content item {} has type \"{}\", not a content block type of {}", i, clipped(*type), v),
                  ip() + "/type");
      return;
    }
    for (auto name : required) {
      auto f = item.get(name);
      bool ok = f.has_value() && (name == "resource" ? f->is_object() : f->is_string());
      if (!ok) {
        set_verdict(c, Reason::content_field_missing,
                    fmt::format("{} content item {} needs {} \"{}\"", *type, i,
                                name == "resource" ? "an object" : "a string", name),
                    ip() + "/" + std::string(name));
        return;
      }
    }
    if (*type == "resource") {
      const View res = *item.get("resource");
      bool uri_ok = res.string_at("uri").has_value();
      bool body_ok = res.string_at("text").has_value() || res.string_at("blob").has_value();
      if (!uri_ok || !body_ok) {
        set_verdict(
            c, Reason::content_field_missing,
            fmt::format("resource content item {} needs \"resource.uri\" and \"resource.text\" or \"resource.blob\"",
                        i),
            ip() + (uri_ok ? "/resource/text" : "/resource/uri"));
        return;
      }
    }
    if (*type == "text" && first_text.empty()) first_text = *item.string_at("text");
    ++i;
  }
  bool is_error = false;
  if (auto ie = result.get("isError")) {
    if (auto b = ie->boolean()) {
      is_error = *b;
    } else {
      set_verdict(c, Reason::is_error_not_boolean,
                  fmt::format("\"isError\" is {}, not a boolean", json::type_phrase(*ie)), ptr + "/isError");
      return;
    }
  }
  if (auto sc = result.get("structuredContent")) {
    if (in_force(Rule::structured_content_object, v) && !sc->is_object()) {
      set_verdict(
          c, Reason::structured_content_not_object,
          fmt::format("\"structuredContent\" is {}; before 2026-07-28 it must be an object", json::type_phrase(*sc)),
          ptr + "/structuredContent");
      return;
    }
  }
  // The detail, appended in place: "N content item(s)[: first text]" (every tool result).
  std::string detail;
  if (is_error) {
    if (first_text.empty()) {
      detail = "the tool reported an error (isError: true)";
    } else {
      detail = "the tool reported an error: ";
      append_clipped(detail, first_text);
    }
  } else {
    char digits[24];
    detail.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, i).ptr - digits));
    detail += i == 1 ? " content item" : " content items";
    if (!first_text.empty()) {
      detail += ": ";
      append_clipped(detail, first_text);
    }
  }
  set_verdict(c, is_error ? Reason::tool_error : Reason::tool_success, std::move(detail));
}

}  // namespace mcptriage::mcp
