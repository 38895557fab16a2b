// The run's configuration (src/cli/config.hpp): options resolved against an environment built
// here, never this process's: output format by terminal, colour with NO_COLOR and TERM=dumb,
// the progress rules, the clock, and usage errors.
#include "cli/config.hpp"

#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "io/duration.hpp"

namespace mcptriage::cli {
namespace {

/// A terminal on every stream, nothing set, the clock at 1000.
Env terminal() {
  Env env;
  env.stdin_tty = env.stdout_tty = env.stderr_tty = true;
  env.clock = 1000;
  return env;
}

/// A pipe or file on every stream.
Env pipes() {
  Env env;
  env.clock = 1000;
  return env;
}

RawOptions with_input() {
  RawOptions raw;
  raw.inputs = {"capture.txt"};
  return raw;
}

Config resolved(const RawOptions& raw, const Env& env) {
  auto config = resolve_config(raw, env);
  EXPECT_TRUE(config.has_value()) << (config ? "" : config.error().text);
  return config ? *config : Config{};
}

TEST(Config, FormatDefaultsToTheTableOnATerminalOnly) {
  EXPECT_EQ(resolved(with_input(), terminal()).format, OutputFormat::table);
  EXPECT_EQ(resolved(with_input(), pipes()).format, OutputFormat::jsonl);
  RawOptions raw = with_input();
  raw.format = "jsonl";
  EXPECT_EQ(resolved(raw, terminal()).format, OutputFormat::jsonl);
  raw.format = "table";
  EXPECT_EQ(resolved(raw, pipes()).format, OutputFormat::table);
}

TEST(Config, ColourAutoNeedsATerminalThatIsNotDumb) {
  EXPECT_TRUE(resolved(with_input(), terminal()).color);
  Env dumb = terminal();
  dumb.term = "dumb";
  EXPECT_FALSE(resolved(with_input(), dumb).color);
  Env xterm = terminal();
  xterm.term = "xterm-256color";
  EXPECT_TRUE(resolved(with_input(), xterm).color);
  RawOptions table = with_input();
  table.format = "table";
  EXPECT_FALSE(resolved(table, pipes()).color) << "a table into a pipe";
}

TEST(Config, NoColorWinsOverEverythingButOnlyWhenNotEmpty) {
  RawOptions always = with_input();
  always.color = "always";
  Env env = terminal();
  env.no_color = "1";
  EXPECT_FALSE(resolved(with_input(), env).color);
  EXPECT_FALSE(resolved(always, env).color) << "--color always still yields to NO_COLOR";
  env.no_color = "";
  EXPECT_TRUE(resolved(with_input(), env).color) << "NO_COLOR set but empty is not set (no-color.org)";
}

TEST(Config, ColourAlwaysAndNever) {
  RawOptions always = with_input();
  always.color = "always";
  always.format = "table";
  Env dumb = pipes();
  dumb.term = "dumb";
  EXPECT_TRUE(resolved(always, dumb).color) << "always: a pipe and TERM=dumb too";
  RawOptions never = with_input();
  never.color = "never";
  EXPECT_FALSE(resolved(never, terminal()).color);
  always.format = "jsonl";
  EXPECT_FALSE(resolved(always, terminal()).color) << "JSON Lines is never coloured";
}

TEST(Config, ProgressShowsOnATerminalForManyInputsWithoutCi) {
  const Progress on_terminal = resolved(with_input(), terminal()).progress;
  EXPECT_FALSE(on_terminal.shown(19));
  EXPECT_TRUE(on_terminal.shown(20));
  Env ci = terminal();
  ci.ci = "true";
  EXPECT_FALSE(resolved(with_input(), ci).progress.shown(1000));
  Env empty_ci = terminal();
  empty_ci.ci = "";
  EXPECT_TRUE(resolved(with_input(), empty_ci).progress.shown(20)) << "CI set but empty is not set";
  Env piped_stderr = terminal();
  piped_stderr.stderr_tty = false;
  EXPECT_FALSE(resolved(with_input(), piped_stderr).progress.shown(1000));
  RawOptions forced = with_input();
  forced.progress = true;
  EXPECT_TRUE(resolved(forced, ci).progress.shown(1)) << "--progress shows it anywhere";
  EXPECT_TRUE(resolved(forced, pipes()).progress.shown(0));
}

TEST(Config, DurationsOfTheLiveTimeouts) {
  using std::chrono::milliseconds;
  using io::parse_duration;  // the one grammar, also the proxy's (tests/proxy/unit_test.cpp)
  EXPECT_EQ(parse_duration("30s"), milliseconds(30'000));
  EXPECT_EQ(parse_duration("2m"), milliseconds(120'000));
  EXPECT_EQ(parse_duration("500ms"), milliseconds(500));
  EXPECT_EQ(parse_duration("1h"), milliseconds(3'600'000));
  EXPECT_EQ(parse_duration("7"), milliseconds(7'000));  // seconds when no unit
  for (const char* bad : {"", "0s", "s", "-1s", "1.5s", "2x", "10 s", "99999999999999s"}) {
    EXPECT_FALSE(parse_duration(bad)) << bad;
  }
}

TEST(Config, TheClockIsMcptriageNowWhenSet) {
  EXPECT_EQ(resolved(with_input(), pipes()).now, 1000);
  Env fixed = pipes();
  fixed.mcptriage_now = "1796083200";
  EXPECT_EQ(resolved(with_input(), fixed).now, 1796083200);
  fixed.mcptriage_now = "";
  EXPECT_EQ(resolved(with_input(), fixed).now, 1000) << "empty: the system's clock";
}

TEST(Config, StandardInputIsTheInputWhenNoneIsGivenAndItIsNoTerminal) {
  EXPECT_EQ(resolved(RawOptions{}, pipes()).inputs, std::vector<std::string>{"-"});
  auto on_terminal = resolve_config(RawOptions{}, terminal());
  ASSERT_FALSE(on_terminal.has_value());
  EXPECT_EQ(on_terminal.error().text,
            "mcptriage: error: no input: give capture files or folders, or pipe a capture into stdin\n"
            "Run with --help for usage.\n");
}

TEST(Config, FollowTakesOneFileByItsName) {
  RawOptions raw = with_input();
  raw.follow = true;
  EXPECT_TRUE(resolved(raw, pipes()).follow);
  auto usage = [](RawOptions r, const Env& env) {
    auto c = resolve_config(r, env);
    return c ? std::string("(no error)") : c.error().text;
  };
  raw.inputs = {"a.jsonl", "b.jsonl"};
  EXPECT_EQ(usage(raw, pipes()), "mcptriage: error: --follow follows one log (2 inputs given)\n");
  raw.inputs = {"-"};
  EXPECT_TRUE(usage(raw, pipes()).starts_with("mcptriage: error: --follow follows a file by its name"));
  raw.inputs = {};  // no input, standard input a pipe: standard input
  EXPECT_TRUE(usage(raw, pipes()).starts_with("mcptriage: error: --follow follows a file by its name"));
  raw.inputs = {"a.jsonl"};
  raw.body_file = "body.txt";
  EXPECT_EQ(usage(raw, pipes()), "mcptriage: error: --body does not go with --follow (a log holds its bodies)\n");
}

TEST(Config, UsageErrorsNameTheFlag) {
  RawOptions bad_id = with_input();
  bad_id.id = "01";
  auto id = resolve_config(bad_id, pipes());
  ASSERT_FALSE(id.has_value());
  EXPECT_TRUE(id.error().text.starts_with("mcptriage: error: --id 01 is neither a JSON integer")) << id.error().text;
  RawOptions bad_expect = with_input();
  bad_expect.expect = {"TOOL_SUCCESS,NOPE"};
  auto expect = resolve_config(bad_expect, pipes());
  ASSERT_FALSE(expect.has_value());
  EXPECT_EQ(expect.error().text, "mcptriage: error: --expect: 'NOPE' is not an outcome name (see docs/classification.md)\n");
  RawOptions missing = with_input();
  missing.request_file = "/nonexistent/request.json";
  auto request = resolve_config(missing, pipes());
  ASSERT_FALSE(request.has_value());
  EXPECT_EQ(request.error().text, "mcptriage: error: --request /nonexistent/request.json: No such file or directory\n");
}

TEST(Config, AnUnpublishedVersionIsANoteThatStaysBeforeALaterError) {
  RawOptions raw = with_input();
  raw.protocol_version = "2025-05-01";
  const Config ok = resolved(raw, pipes());
  EXPECT_EQ(ok.flags.protocol_version, "2025-05-01");
  EXPECT_TRUE(ok.notes.starts_with("mcptriage: note: --protocol-version 2025-05-01 is not a published MCP version"));
  raw.fail_on = {""};
  auto bad = resolve_config(raw, pipes());
  ASSERT_FALSE(bad.has_value());
  EXPECT_TRUE(bad.error().text.starts_with("mcptriage: note: ")) << bad.error().text;
  EXPECT_NE(bad.error().text.find("\nmcptriage: error: --fail-on: no outcome name given"), std::string::npos);
}

TEST(Options, ParsedFromArgv) {
  const char* argv[] = {"mcptriage", "--id", "", "--max-input", "2K", "-j", "3", "a.txt", "-"};
  auto raw = parse_options(9, argv);
  ASSERT_TRUE(raw.has_value());
  EXPECT_EQ(raw->id, std::optional<std::string>("")) << "--id '' is given, and empty";
  EXPECT_FALSE(raw->protocol_version);
  EXPECT_EQ(raw->max_input, 2048u);
  EXPECT_EQ(raw->jobs, 3u);
  EXPECT_EQ(raw->inputs, (std::vector<std::string>{"a.txt", "-"}));
}

TEST(Options, UsageErrorsAndHelpAreExitsWithTheirText) {
  const char* bad[] = {"mcptriage", "--format", "xml"};
  auto err = parse_options(3, bad);
  ASSERT_FALSE(err.has_value());
  EXPECT_EQ(err.error().code, 2);
  EXPECT_TRUE(err.error().err.starts_with("mcptriage: error: --format: ")) << err.error().err;
  EXPECT_TRUE(err.error().err.ends_with("\nRun with --help for usage.\n"));
  const char* help[] = {"mcptriage", "--help"};
  auto h = parse_options(2, help);
  ASSERT_FALSE(h.has_value());
  EXPECT_EQ(h.error().code, 0);
  EXPECT_NE(h.error().out.find("--max-input"), std::string::npos);
  EXPECT_TRUE(h.error().err.empty());
}

}  // namespace
}  // namespace mcptriage::cli
