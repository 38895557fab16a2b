// Collecting inputs (src/io/inputs.hpp, body_pairing.hpp): curl -v body pairing, the walk.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/body_pairing.hpp"
#include "io/inputs.hpp"
#include "mcptriage/jsonrpc.hpp"

namespace mcptriage::io {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("mcptriage-inputs-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

/// What a walk reports, as text.
struct Notes final : InputReport {
  std::vector<std::string> lines;
  void input_error(std::string_view name, std::string_view why) override {
    lines.push_back("error " + fs::path(name).filename().string() + ": " + std::string(why));
  }
  void skipped(std::string_view path, std::string_view why) override {
    lines.push_back("skipped " + fs::path(path).filename().string() + " (" + std::string(why) + ")");
  }
};

TEST(BodyPairing, StderrFindsStdout) {
  TempDir dir;
  std::ofstream(dir.path / "call-stderr.txt") << "* x\n";
  std::ofstream(dir.path / "call-stdout.txt") << "{}";
  std::ofstream(dir.path / "lone.stderr") << "* x\n";
  EXPECT_EQ(paired_body_path((dir.path / "call-stderr.txt").string()), (dir.path / "call-stdout.txt").string());
  EXPECT_TRUE(is_paired_body((dir.path / "call-stdout.txt").string()));
  EXPECT_FALSE(paired_body_path((dir.path / "lone.stderr").string()));
  EXPECT_FALSE(is_paired_body((dir.path / "lone.stderr").string()));
  EXPECT_FALSE(paired_body_path((dir.path / "stderr").string())) << "the word must follow - _ or .";
}

TEST(Inputs, AFolderGivesItsCapturesSortedWithTheirSidecarsAndBodies) {
  TempDir dir;
  fs::create_directories(dir.path / "sub");
  fs::create_directories(dir.path / ".git");
  std::ofstream(dir.path / "b.txt") << "x";
  std::ofstream(dir.path / "a.txt") << "x";
  std::ofstream(dir.path / "a.request.json") << "{}";
  std::ofstream(dir.path / "sub" / "c.json") << "x";
  std::ofstream(dir.path / "README.md") << "x";
  std::ofstream(dir.path / ".hidden") << "x";
  std::ofstream(dir.path / "call-stderr.txt") << "* x\n";
  std::ofstream(dir.path / "call-stdout.txt") << "{}";
  Notes notes;
  const std::vector<std::string> args{dir.path.string(), (dir.path / "missing.txt").string(), "-"};
  std::vector<Input> inputs = collect_inputs(args, notes);
  pair_bodies(inputs, "");
  std::vector<std::string> names;
  for (const Input& in : inputs) names.push_back(in.path.empty() ? in.name : fs::path(in.name).lexically_relative(dir.path).string());
  EXPECT_EQ(names, (std::vector<std::string>{"a.txt", "b.txt", "call-stderr.txt", "sub/c.json", "stdin"}));
  ASSERT_EQ(inputs.size(), 5u);
  EXPECT_EQ(inputs[0].walked_sidecar, (dir.path / "a.request.json").string());
  EXPECT_EQ(inputs[1].walked_sidecar, "") << "walked, no sidecar: no lookup later";
  EXPECT_EQ(inputs[2].body_path, (dir.path / "call-stdout.txt").string()) << "the stdout half is no input of its own";
  EXPECT_FALSE(inputs[4].walked_sidecar) << "standard input";
  EXPECT_EQ(notes.lines, (std::vector<std::string>{"skipped .git (hidden folder)", "skipped .hidden (hidden file)",
                                                   "skipped README.md (documentation or manifest, not a capture)",
                                                   "error missing.txt: no such file or folder"}));
}

TEST(Inputs, ASidecarGivesTheRequestOrAWarning) {
  TempDir dir;
  std::ofstream(dir.path / "x.txt") << "x";
  std::ofstream(dir.path / "x.request.json") << R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  const Input beside{.name = "x.txt", .path = (dir.path / "x.txt").string()};
  ContextFlags flags = context_for(beside, ContextFlags{});
  ASSERT_TRUE(flags.request);
  EXPECT_EQ(flags.request->method, std::optional<std::string>("ping"));
  EXPECT_EQ(flags.request->id, jsonrpc::parse_id("1"));
  EXPECT_EQ(flags.request_origin, "request sidecar x.request.json");
  ContextFlags given;
  given.request = jsonrpc::read_request(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  EXPECT_EQ(context_for(beside, given).request, given.request) << "--request wins";
  Input unreadable = beside;
  unreadable.walked_sidecar = (dir.path / "gone.request.json").string();
  flags = context_for(unreadable, ContextFlags{});
  EXPECT_FALSE(flags.request);
  ASSERT_EQ(flags.warnings.size(), 1u);
  EXPECT_EQ(flags.warnings[0], "request sidecar gone.request.json could not be read (No such file or directory): judged without it");
}

}  // namespace
}  // namespace mcptriage::io
