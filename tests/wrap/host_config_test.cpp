// `mcptriage wrap --config` / `--unwrap` (src/wrap/host_config.hpp): the entry rewritten in
// place, every other byte kept, each shape of the three hosts, and every refusal.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/dom.hpp"
#include "wrap/host_config.hpp"

namespace mcptriage::wrap {
namespace {

const std::vector<std::string> kOptions = {"--record", "/var/rec/e.jsonl"};

TEST(WrapHostConfig, ClaudeDesktopEntryIsRewrittenAndEverythingElseKept) {
  const std::string before = R"({
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "everything": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-everything"
      ],
      "env": {"TOKEN": "x"}
    },
    "other": {"command": "python3", "args": ["-m", "srv"]}
  }
}
)";
  auto edit = wrap_server_entry(before, "everything", "/usr/bin/mcptriage", kOptions);
  ASSERT_TRUE(edit) << edit.error();
  EXPECT_EQ(edit->where, "mcpServers");
  EXPECT_EQ(edit->text, R"({
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "everything": {
      "command": "/usr/bin/mcptriage",
      "args": ["wrap", "--record", "/var/rec/e.jsonl", "--", "npx", "-y", "@modelcontextprotocol/server-everything"],
      "env": {"TOKEN": "x"}
    },
    "other": {"command": "python3", "args": ["-m", "srv"]}
  }
}
)");
  EXPECT_EQ(edit->before, (std::vector<std::string>{"npx", "-y", "@modelcontextprotocol/server-everything"}));

  auto back = unwrap_server_entry(edit->text, "everything");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->after, edit->before);
  // args come back on one line: the meaning is the file's, the layout is ours (edit_config_file
  // restores the bytes from the backup when nothing else changed).
  EXPECT_NE(back->text.find(R"("command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"],)"),
            std::string::npos)
      << back->text;
}

TEST(WrapHostConfig, VsCodeShapesAndArgsBeforeCommandOrMissing) {
  const std::string vscode = R"({"inputs": [], "servers": {"fs": {"type": "stdio", "args": ["a b", "\"q\""], "command": "node"}}})";
  auto edit = wrap_server_entry(vscode, "fs", "/opt/mcptriage", kOptions);
  ASSERT_TRUE(edit) << edit.error();
  EXPECT_EQ(edit->where, "servers");
  EXPECT_EQ(edit->text,
            R"({"inputs": [], "servers": {"fs": {"type": "stdio", "args": ["wrap", "--record", "/var/rec/e.jsonl", "--", "node", "a b", "\"q\""], "command": "/opt/mcptriage"}}})");
  auto back = unwrap_server_entry(edit->text, "fs");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->text, vscode);

  const std::string settings = R"({"editor.fontSize": 12, "mcp": {"servers": {"git": {"command": "uvx"}}}})";
  edit = wrap_server_entry(settings, "git", "/opt/mcptriage", kOptions);
  ASSERT_TRUE(edit) << edit.error();
  EXPECT_EQ(edit->where, "mcp.servers");
  EXPECT_EQ(edit->text,
            R"({"editor.fontSize": 12, "mcp": {"servers": {"git": {"command": "/opt/mcptriage", "args": ["wrap", "--record", "/var/rec/e.jsonl", "--", "uvx"]}}}})");
  back = unwrap_server_entry(edit->text, "git");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->after, std::vector<std::string>{"uvx"});
}

TEST(WrapHostConfig, NamesWithEscapesAreFound) {
  const std::string text = R"({"mcpServers": {"caf\u00e9": {"command": "x"}}})";
  auto edit = wrap_server_entry(text, "caf\xc3\xa9", "/m", {});
  ASSERT_TRUE(edit) << edit.error();
  EXPECT_EQ(edit->after, (std::vector<std::string>{"/m", "wrap", "--", "x"}));
}

TEST(WrapHostConfig, AByteOrderMarkIsKept) {
  const std::string text = "\xEF\xBB\xBF{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}";
  auto edit = wrap_server_entry(text, "a", "/bin/mcptriage", {});
  ASSERT_TRUE(edit) << edit.error();
  EXPECT_EQ(edit->text, "\xEF\xBB\xBF{\"mcpServers\": {\"a\": {\"command\": \"/bin/mcptriage\", \"args\": [\"wrap\", \"--\", \"x\"]}}}");
  auto back = unwrap_server_entry(edit->text, "a");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->text, "\xEF\xBB\xBF{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": []}}}");
}

TEST(WrapHostConfig, RefusalsSayWhyAndChangeNothing) {
  auto refused = [](std::string_view text, std::string_view name, std::string_view says) {
    auto edit = wrap_server_entry(text, name, "/m", kOptions);
    ASSERT_FALSE(edit) << text;
    EXPECT_NE(edit.error().find(says), std::string::npos) << edit.error();
  };
  refused(R"({"mcpServers": {"a": {"command": "x"}}, // a comment
})",
          "a", "not JSON");
  refused(R"({"mcpServers": {"a": {"command": "x",}}})", "a", "not JSON");
  refused(R"([1, 2])", "a", "not an object");
  refused(R"({"tools": {"a": {"command": "x"}}})", "a", "unknown configuration shape");
  refused(R"({"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}})", "c", "(servers: a, b)");
  refused(R"({"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}})", "a", "appears twice");
  refused(R"({"mcpServers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}})", "a", "in both");
  refused(R"({"mcpServers": {"a": {"url": "https://example.com/mcp"}}})", "a", "remote server");
  refused(R"({"servers": {"a": {"type": "http", "url": "http://127.0.0.1/mcp"}}})", "a", "type \"http\"");
  refused(R"({"mcpServers": {"a": {"args": ["x"]}}})", "a", "no \"command\"");
  refused(R"({"mcpServers": {"a": {"command": "x", "args": "y"}}})", "a", "not an array");
  refused(R"({"mcpServers": {"a": {"command": "x", "args": [1]}}})", "a", "not a string");
  refused(R"({"mcpServers": {"a": {"command": "x", "command": "y"}}})", "a", "twice");
  refused(R"({"mcpServers": {"a": {"command": "/usr/local/bin/mcptriage", "args": ["wrap", "--", "x"]}}})", "a",
          "already runs through mcptriage wrap");

  auto not_wrapped = unwrap_server_entry(R"({"mcpServers": {"a": {"command": "x"}}})", "a");
  ASSERT_FALSE(not_wrapped);
  EXPECT_NE(not_wrapped.error().find("does not run through mcptriage wrap"), std::string::npos);
  auto no_command = unwrap_server_entry(R"({"mcpServers": {"a": {"command": "mcptriage", "args": ["wrap", "--"]}}})",
                                        "a");
  ASSERT_FALSE(no_command);
}

}  // namespace
}  // namespace mcptriage::wrap

namespace mcptriage::json {
namespace {

TEST(JsonMemberValueRange, PointsAtTheValueWithoutTheSpaceAfterIt) {
  const std::string text = R"({"a": {"s": "x\"y"  , "n": 12 , "arr": [1, [2]] ,"o": {"k": null}	}, "a2": true})";
  auto at = [&](std::vector<std::string_view> path) {
    auto r = member_value_range(text, path);
    return r ? text.substr(r->begin, r->end - r->begin) : std::string("<none>");
  };
  EXPECT_EQ(at({"a", "s"}), R"("x\"y")");
  EXPECT_EQ(at({"a", "n"}), "12");
  EXPECT_EQ(at({"a", "arr"}), "[1, [2]]");
  EXPECT_EQ(at({"a", "o"}), R"({"k": null})");
  EXPECT_EQ(at({"a2"}), "true");
  EXPECT_EQ(at({"a", "missing"}), "<none>");
  EXPECT_EQ(at({"a2", "x"}), "<none>");
  EXPECT_EQ(at({}), "<none>");
}

}  // namespace
}  // namespace mcptriage::json
