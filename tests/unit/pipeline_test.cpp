// The pipeline (src/io/pipeline.hpp): block-wise and parallel reading gives the records, the
// `source` numbering and the order of one whole read on one thread; a source of its own feeds it.
#include "io/pipeline.hpp"
#include "io/read_limited.hpp"
#include "json/dom.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mcptriage::io {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/mcptriage-pipeline-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

/// The records of one exchange, as the run makes them (a skipped entry keeps its detail).
void records_of(const Exchange& ex, const ContextFlags& flags, SourceRef where, std::vector<Record>& out) {
  if (ex.skipped) {
    Record r{where, ex.format, Classification{}};
    r.c.detail = "skipped:" + std::string(to_string(ex.skipped->reason)) + " " + ex.skipped->detail;
    out.push_back(std::move(r));
    return;
  }
  auto results = classify(ex, flags, 0);
  for (std::size_t k = 0; k < results.size(); ++k) {
    Record r{where, ex.format, std::move(results[k])};
    if (results.size() > 1) r.source.element = k;
    out.push_back(std::move(r));
  }
}

/// The records of the exchanges of one whole read of input 0, numbered from 1.
std::vector<Record> classify_all(const std::vector<Exchange>& exchanges) {
  std::vector<Record> out;
  for (std::size_t k = 0; k < exchanges.size(); ++k) records_of(exchanges[k], {}, SourceRef{0, k + 1, std::nullopt}, out);
  return out;
}

/// One line per record: what must not change with --jobs or block-wise reading (line numbers
/// in details and warnings included). `name` of input i is names[i].
std::string summary(const std::vector<Record>& records, const std::vector<std::string>& names) {
  std::string out;
  for (const Record& r : records) {
    out += fmt::format("{} {} {} {} | {}", source_text(names.at(r.source.input), r.source), to_string(r.format),
                       to_string(r.c.outcome), to_string(r.c.reason), r.c.detail);
    for (const std::string& w : r.c.warnings) out += " | " + w;
    out += '\n';
  }
  return out;
}

std::string summary(const std::vector<Record>& records, const std::string& name) {
  return summary(records, std::vector<std::string>{name});
}

Work work() {
  Work w;
  w.context = [](std::size_t) { return ContextFlags{}; };
  w.records_of = [](const Exchange& ex, const ContextFlags& flags, SourceRef where, std::vector<Record>& out,
                    std::vector<std::string>&) { records_of(ex, flags, where, out); };
  return w;
}

/// The records of `inputs` through the pipeline, each batch's input index noted, and the number of
/// batches that held records.
std::pair<std::string, std::size_t> run_counting(const std::vector<Input>& inputs, unsigned jobs, std::size_t block_size) {
  PipelineOptions options;
  options.jobs = jobs;
  options.block_size = block_size;
  std::vector<std::string> names;
  for (const Input& in : inputs) names.push_back(in.name);
  std::string out;
  std::size_t batches = 0;
  run_pipeline(inputs, options, work(), [&](Batch&& batch) {
    if (batch.error) out += fmt::format("input {} error: {}\n", batch.input, *batch.error);
    if (!batch.records.empty()) ++batches;
    out += summary(batch.records, names);
  });
  return {out, batches};
}

std::string run(const std::vector<Input>& inputs, unsigned jobs, std::size_t block_size) {
  return run_counting(inputs, jobs, block_size).first;
}

Input file_input(const std::string& path) { return Input{.name = path, .path = path}; }

std::string exchange_log(int lines) {
  std::string log;
  for (int i = 1; i <= lines; ++i) {
    const std::string req = fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", i);
    if (i % 17 == 0) {
      log += "\n";  // blank lines are no exchange
    } else if (i % 13 == 0) {
      log += "{not json\n";
    } else if (i % 5 == 0) {
      log += fmt::format(R"({{"status":503,"headers":{{"content-type":"text/html"}},"body":"<h1>busy</h1>","request":{}}})", req) + "\n";
    } else if (i % 7 == 0) {
      log += fmt::format(R"({{"status":200,"headers":{{"Content-Type":"text/event-stream"}},"body":"event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"ok\"}}]}}}}\n\n","request":{}}})",
                         i, req) + "\n";
    } else {
      log += fmt::format(R"({{"status":200,"headers":{{"content-type":"application/json"}},"body":"{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"line {}\"}}],\"isError\":{}}}}}","request":{}}})",
                         i, i, i % 3 == 0 ? "true" : "false", req) + "\n";
    }
  }
  return log;
}

TEST(Pipeline, ExchangeLogInBlocksAndThreadsEqualsOneWholeRead) {
  TempDir dir;
  const std::string text = exchange_log(400);
  const std::string path = dir.write("log.jsonl", text);
  auto whole = read_capture(text, path);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), path);
  ASSERT_NE(expected.find("#300 "), std::string::npos);
  ASSERT_NE(expected.find("line 390 is not valid JSON"), std::string::npos) << "a line number deep in the log";
  for (std::size_t block : {std::size_t{200}, std::size_t{4096}, std::size_t{1} << 20}) {
    for (unsigned jobs : {1u, 2u, 4u}) {
      EXPECT_EQ(run({file_input(path)}, jobs, block), expected) << "block " << block << ", jobs " << jobs;
    }
  }
}

TEST(Pipeline, MessageStreamWithRepliesAcrossBlocksIsPairedAsInOneRead) {
  // Requests answered several lines later: blocks that end between a request and its reply are
  // read again with the next block.
  std::string text;
  for (int i = 1; i <= 120; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", i) + "\n";
    if (i > 3) {
      text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"r{}"}}]}}}})",
                          i - 3, i - 3) + "\n";
    }
  }
  TempDir dir;
  const std::string path = dir.write("stream.jsonl", text);
  auto whole = read_capture(text, path);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), path);
  for (std::size_t block : {std::size_t{150}, std::size_t{1000}}) {
    for (unsigned jobs : {1u, 3u}) {
      EXPECT_EQ(run({file_input(path)}, jobs, block), expected) << "block " << block << ", jobs " << jobs;
    }
  }
}

TEST(Pipeline, PingPongStreamCutBetweenPairsIsPairedAsInOneRead) {
  // Each reply right after its request, notifications and server messages between, some
  // requests never answered: many blocks end between a request and its reply, and only the
  // lines after the last complete pair are read again (LinesBlock::consumed), more than a
  // block's 1,024 lines too.
  std::string text;
  for (int i = 1; i <= 3000; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"ping"}})", i) + "\n";
    if (i % 11 == 0) text += R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})" "\n";
    if (i % 97 != 0) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", i) + "\n";
  }
  TempDir dir;
  const std::string path = dir.write("pings.jsonl", text);
  auto whole = read_capture(text, path);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), path);
  ASSERT_NE(expected.find("#3000 "), std::string::npos);
  for (std::size_t block : {std::size_t{97}, std::size_t{4096}, std::size_t{1} << 20}) {
    for (unsigned jobs : {1u, 2u}) {
      EXPECT_EQ(run({file_input(path)}, jobs, block), expected) << "block " << block << ", jobs " << jobs;
    }
  }
}

/// The records of `text` as one whole read gives them, and through the pipeline with several
/// block sizes and jobs: they must be equal.
/// Feeds a log's text as a followed log (Feed::lines with `follow`, as --follow, the proxy and
/// the wrapper do): `lines_per_block` whole lines at a time.
class FollowedSource final : public Source {
 public:
  FollowedSource(std::string text, std::size_t lines_per_block) : text_(std::move(text)), per_(lines_per_block) {}
  void produce(Feed& feed) override {
    std::size_t pos = 0;
    std::size_t line = 0;
    while (pos < text_.size()) {
      std::size_t end = pos;
      std::size_t n = 0;
      while (end < text_.size() && n < per_) {
        const std::size_t lf = text_.find('\n', end);
        end = lf == std::string::npos ? text_.size() : lf + 1;
        ++n;
      }
      std::string block;
      block.reserve(end - pos + json::kPadding);  // parsed in place, as FileSource's blocks are
      block.append(text_, pos, end - pos);
      feed.lines(0, std::move(block), line, end == text_.size(), /*follow=*/true);
      line += n;
      pos = end;
    }
  }

 private:
  std::string text_;
  std::size_t per_;
};

std::string run_followed(const std::string& text, const std::string& name, std::size_t lines_per_block, unsigned jobs) {
  const std::vector<Input> inputs{Input{.name = name, .path = name}};
  PipelineOptions options;
  options.jobs = jobs;
  FollowedSource source(text, lines_per_block);
  std::string out;
  run_pipeline(source, inputs, options, work(), [&](Batch&& batch) {
    if (batch.error) out += fmt::format("input {} error: {}\n", batch.input, *batch.error);
    out += summary(batch.records, std::vector<std::string>{name});
  });
  return out;
}

/// The log read whole gives the records of `marker`, and the same records read in blocks of
/// a file (with a carry read again) and read as a followed log (one LinesStream).
void expect_blockwise_equals_whole(const std::string& text, const std::string& marker) {
  TempDir dir;
  const std::string path = dir.write("stream.jsonl", text);
  auto whole = read_capture(text, path);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), path);
  ASSERT_NE(expected.find(marker), std::string::npos) << "the case holds what it is about";
  for (std::size_t block : {std::size_t{97}, std::size_t{5000}, std::size_t{1} << 16}) {
    for (unsigned jobs : {1u, 2u}) {
      EXPECT_EQ(run({file_input(path)}, jobs, block), expected) << "block " << block << ", jobs " << jobs;
    }
  }
  for (std::size_t lines : {std::size_t{1}, std::size_t{7}, std::size_t{500}}) {
    for (unsigned jobs : {1u, 2u}) {
      EXPECT_EQ(run_followed(text, path, lines, jobs), expected) << "followed, " << lines << " lines a block, jobs " << jobs;
    }
  }
}

TEST(Pipeline, StreamWithRequestsAlwaysInFlightIsPairedAsInOneRead) {
  // Replies three requests behind, ids out of order now and then: some request is always
  // waiting, so blocks are cut at the first waiting request and the replies already read are
  // skipped when the rest is read again.
  std::string text;
  for (int i = 1; i <= 4000; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", i) + "\n";
    if (i % 50 == 0) text += R"({"jsonrpc":"2.0","method":"notifications/message","params":{}})" "\n";
    if (i > 3) {
      const int answered = i % 7 == 0 ? i - 1 : (i % 7 == 1 && i > 8 ? i - 5 : i - 3);
      text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[]}}}})", answered) + "\n";
    }
  }
  expect_blockwise_equals_whole(text, "#4000 ");
}

TEST(Pipeline, ServerRequestsAnsweredAcrossACutArePairedAsInOneRead) {
  // New-user trial: a server request before a block's cut, answered by the client after it,
  // was read again without its request and became a stray tool result.
  std::string text;
  for (int i = 1; i <= 3000; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", i) + "\n";
    if (i % 9 == 0) text += fmt::format(R"({{"jsonrpc":"2.0","id":"s{}","method":"roots/list"}})", i) + "\n";
    if (i > 3) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[]}}}})", i - 3) + "\n";
    if (i % 9 == 4 && i > 9) text += fmt::format(R"({{"jsonrpc":"2.0","id":"s{}","result":{{"roots":[]}}}})", i - 4) + "\n";
  }
  expect_blockwise_equals_whole(text, "client_response");
}

TEST(Pipeline, EventsWithoutTheirResponseDoNotHoldTheRestOfTheLog) {
  // New-user trial: SSE events whose response never came kept every later line waiting (the
  // log read whole, 615 MB for 50 MB). They are given up after the pairing window too.
  std::string text = R"({"dir":"c2s","message":{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"slow"}}})" "\n";
  for (int k = 1; k <= 2; ++k) {
    text += fmt::format(R"({{"dir":"s2c","sse":{{"event":"message","id":"e{}"}},"message":{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progress":{}}}}}}})", k, k) + "\n";
  }
  for (int i = 1; i <= 2500; ++i) {
    text += fmt::format(R"({{"dir":"c2s","message":{{"jsonrpc":"2.0","id":{},"method":"ping"}}}})", i) + "\n";
    text += fmt::format(R"({{"dir":"s2c","message":{{"jsonrpc":"2.0","id":{},"result":{{}}}}}})", i) + "\n";
  }
  expect_blockwise_equals_whole(text, "no response after them");
}

TEST(Pipeline, MessagesBrokenOverLinesAreJoinedAsInOneRead) {
  // Issue 28: replies pretty-printed over lines (some while other requests wait), broken
  // notifications, text that never makes a message, an unclosed `{`: joined, or judged line by
  // line, the same in one read, in blocks of a file, and in a followed log (LinesStream) where a
  // message is split across blocks.
  std::string text;
  for (int i = 1; i <= 900; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", i) + "\n";
    if (i % 5 == 0) text += fmt::format("{{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/progress\",\n  \"params\": {{\n    \"progress\": {}\n  }}\n}}\n", i);
    if (i % 13 == 0) text += "{\n  oops\n}\n[info] handled\n";
    if (i % 97 == 0) text += "{\n  \"never\": [\n";
    if (i > 2) {
      const int answered = i - 2;
      if (answered % 2 == 0) {
        text += fmt::format("{{\n  \"jsonrpc\": \"2.0\",\n  \"id\": {},\n  \"result\": {{\n    \"content\": [\n      {{\n"
                            "        \"type\": \"text\",\n        \"text\": \"r{}\"\n      }}\n    ]\n  }}\n}}\n",
                            answered, answered);
      } else {
        text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[]}}}})", answered) + "\n";
      }
    }
  }
  expect_blockwise_equals_whole(text, "MALFORMED_JSON message_over_lines | the server wrote this response over 12 lines");
}

TEST(Pipeline, AWrapRecordingsBrokenRepliesAreJoinedAsInOneRead) {
  // The same through a wrap recording (`line` members with their direction), as mcptriage wrap
  // feeds its run core.
  auto line = [](std::string_view dir, std::string_view text) {
    std::string escaped;
    for (char c : text) {
      if (c == '"' || c == '\\') escaped += '\\';
      escaped += c;
    }
    return fmt::format(R"({{"transport":"stdio","dir":"{}","t":"2026-12-06T10:00:00.000000Z","line":"{}","bytes":{}}})",
                       dir, escaped, text.size()) + "\n";
  };
  std::string text;
  for (int i = 1; i <= 600; ++i) {
    text += fmt::format(R"({{"transport":"stdio","dir":"c2s","t":"2026-12-06T10:00:00.000000Z","message":{{"jsonrpc":"2.0","id":{},"method":"ping"}}}})", i) + "\n";
    for (std::string_view l : {"{", "  \"jsonrpc\": \"2.0\",", "  \"result\": {},"}) text += line("s2c", l);
    if (i % 7 == 0) text += line("c2s", "stray");  // ends the join: the server's lines each on their own
    text += line("s2c", fmt::format("  \"id\": {}", i));
    text += line("s2c", "}");
  }
  text += R"({"transport":"stdio","t":"2026-12-06T10:00:01.000000Z","exit":{"code":0},"stderr":[]})" "\n";
  expect_blockwise_equals_whole(text, "MALFORMED_JSON message_over_lines | the server wrote this response over 5 lines");
}

TEST(Pipeline, ALostReplyDoesNotHoldTheRestOfTheLog) {
  // Request 0 is never answered, request 1 is answered after the pairing window (4,096 replies
  // to later requests): both are given up as never answered in one read and in blocks alike,
  // and the late reply stands alone.
  std::string text = R"({"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"lost"}})" "\n"
                     R"({"jsonrpc":"2.0","id":"late","method":"tools/call","params":{"name":"slow"}})" "\n";
  for (int i = 1; i <= 4100; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"ping"}})", i) + "\n";
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", i) + "\n";
  }
  text += R"({"jsonrpc":"2.0","id":"late","result":{"content":[]}})" "\n";
  expect_blockwise_equals_whole(text, "no reply within 4096 lines");
}

TEST(Pipeline, ThousandsOfRequestsInFlightArePairedWithTheirReplies) {
  // Issue 28, found by a new user's trial of mcptriage wrap: a host that writes 20,000 pings at
  // once and reads the replies after (in order) got 16,000 false NOT_CAPTURED records, as each
  // request waited more than 4,096 lines; and a followed log read its waiting lines again with
  // every block. Requests and the replies to the oldest one waiting do not count in the window.
  std::string text;
  constexpr int kPings = 20000;
  for (int i = 1; i <= kPings; ++i) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"ping"}})", i) + "\n";
  for (int i = 1; i <= kPings; ++i) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", i) + "\n";
  auto whole = read_capture(text, "flood");
  ASSERT_TRUE(whole.has_value());
  ASSERT_EQ(whole->size(), std::size_t{kPings});
  for (const Exchange& ex : *whole) ASSERT_TRUE(ex.warnings.empty()) << ex.source << ": " << ex.warnings.front();
  expect_blockwise_equals_whole(text, "#20000 ");
}

TEST(Pipeline, ALostReplyAmongThousandsInFlightIsGivenUpAfterTheWindow) {
  // The same flood with request 1's reply lost and the rest answered in order: request 1 is
  // given up after 4,096 replies to later requests, all the others are paired.
  std::string text;
  constexpr int kPings = 6000;
  for (int i = 1; i <= kPings; ++i) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"ping"}})", i) + "\n";
  for (int i = 2; i <= kPings; ++i) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", i) + "\n";
  auto whole = read_capture(text, "flood");
  ASSERT_TRUE(whole.has_value());
  ASSERT_EQ(whole->size(), std::size_t{kPings});
  ASSERT_FALSE((*whole)[0].warnings.empty());
  EXPECT_NE((*whole)[0].warnings.front().find("no reply within 4096 lines"), std::string::npos);
  for (std::size_t k = 1; k < whole->size(); ++k) ASSERT_TRUE((*whole)[k].warnings.empty()) << (*whole)[k].source;
  expect_blockwise_equals_whole(text, "no reply within 4096 lines");
}

TEST(Pipeline, LogFromTheEnvironmentInBlocksEqualsOneWholeRead) {
  // A diagnostic for logs found in the field: MCPTRIAGE_BLOCKWISE_LOG=FILE compares FILE read in
  // blocks (the CLI's 512 KB, and 4 KB) with one whole read.
  const char* file = std::getenv("MCPTRIAGE_BLOCKWISE_LOG");
  if (file == nullptr) GTEST_SKIP() << "set MCPTRIAGE_BLOCKWISE_LOG=FILE";
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto whole = read_capture(text, file);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), file);
  for (std::size_t block : {std::size_t{1} << 19, std::size_t{4096}}) {
    for (unsigned jobs : {1u, 2u}) {
      const std::string got = run({file_input(file)}, jobs, block);
      if (got == expected) continue;
      std::size_t at = 0;
      while (at < got.size() && at < expected.size() && got[at] == expected[at]) ++at;
      const std::size_t from = expected.rfind('\n', at) == std::string::npos ? 0 : expected.rfind('\n', at) + 1;
      ADD_FAILURE() << "block " << block << ", jobs " << jobs << ": first difference\nwhole:  "
                    << expected.substr(from, expected.find('\n', at) - from) << "\nblocks: "
                    << got.substr(from, got.find('\n', at) - from);
    }
  }
}

TEST(Pipeline, ACutAtTheFirstWaitingRequestSkipsTheRepliesAlreadyRead) {
  // Replies two requests behind: no line is free of a waiting request, so the cut is made at
  // the first request still waiting, and the replies after it that answered earlier requests
  // are read as blank when the rest is read again.
  std::string text;
  for (int i = 1; i <= 40; ++i) {
    text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"ping"}})", i) + "\n";
    if (i > 2) text += fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", i - 2) + "\n";
  }
  const std::size_t half = text.find('\n', text.size() / 2) + 1;
  auto first = read_lines_block(std::string_view(text).substr(0, half), "s", 0, {}, 0, false, /*more_follows=*/true);
  ASSERT_TRUE(first.has_value());
  ASSERT_GT(first->consumed, 0u);
  EXPECT_FALSE(first->carry_skip.empty()) << "replies after the cut that answered requests before it";
  auto rest = read_lines_block(std::string_view(text).substr(first->consumed), "s", first->exchanges.size(), {},
                               first->consumed_lines, false, false, first->carry_skip);
  ASSERT_TRUE(rest.has_value());
  auto whole = read_capture(text, "s");
  ASSERT_TRUE(whole.has_value());
  std::vector<Exchange> parts = std::move(first->exchanges);
  for (auto& ex : rest->exchanges) parts.push_back(std::move(ex));
  EXPECT_EQ(summary(classify_all(parts), "s"), summary(classify_all(*whole), "s"));
}

TEST(Pipeline, ABlockCutAfterARequestIsReadUpToTheLastCompletePair) {
  const std::string pair1 = R"({"jsonrpc":"2.0","id":1,"method":"ping"})" "\n" R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n";
  const std::string note = R"({"jsonrpc":"2.0","method":"notifications/progress"})" "\n";
  const std::string open2 = R"({"jsonrpc":"2.0","id":2,"method":"ping"})" "\n";
  const std::string text = pair1 + note + open2 + note;
  auto cut = read_lines_block(text, "s", 0, {}, 10, false, /*more_follows=*/true);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->consumed, pair1.size() + note.size()) << "up to the line after which nothing waited";
  EXPECT_EQ(cut->consumed_lines, 3u);
  ASSERT_EQ(cut->exchanges.size(), 2u) << "the pair, and the notification (skipped)";
  EXPECT_TRUE(cut->exchanges[1].skipped);
  // The end of a log (nothing follows): request 2 is read as never answered.
  auto last = read_lines_block(text, "s", 0, {}, 10, false, /*more_follows=*/false);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->consumed, 0u);
  EXPECT_EQ(last->exchanges.size(), 4u);
  // Nothing complete before the open request: nothing to give out yet.
  auto none = read_lines_block(open2 + note, "s", 0, {}, 0, false, /*more_follows=*/true);
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->consumed, 0u);
  EXPECT_FALSE(none->self_contained);
}

TEST(Pipeline, ManyFilesKeepTheirOrderWithAnyJobs) {
  TempDir dir;
  std::vector<Input> inputs;
  std::string expected;
  for (int i = 0; i < 60; ++i) {
    const std::string body =
        i % 4 == 0 ? "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n\r\nbusy"
                   : fmt::format("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"
                                 R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"x"}}]}}}})",
                                 i);
    const std::string path = dir.write(fmt::format("c{:03}.txt", i), body);
    inputs.push_back(file_input(path));
    auto ex = read_capture(body, path);
    ASSERT_TRUE(ex.has_value());
    expected += summary(classify_all(*ex), path);
  }
  inputs.push_back(Input{.name = "missing", .path = (dir.path / "missing.txt").string()});
  const std::string one = run(inputs, 1, 1 << 20);
  EXPECT_EQ(one.substr(0, expected.size()), expected);
  EXPECT_NE(one.find("input 60 error: "), std::string::npos);
  EXPECT_EQ(run(inputs, 2, 1 << 20), one);
  EXPECT_EQ(run(inputs, 5, 1 << 20), one);
}

// Small files go to the workers in groups (Pipeline::kGroupFiles); a large log, a missing file
// and a folder between them end a group. Records, errors and their order must be those of one
// thread reading file by file.
TEST(Pipeline, SmallFilesInGroupsKeepTheirOrderAndErrors) {
  TempDir dir;
  std::vector<Input> inputs;
  for (int i = 0; i < 70; ++i) {
    std::string path;
    if (i == 20) {
      path = dir.write("big.jsonl", exchange_log(300));  // larger than the block size: read as a stream
    } else if (i == 37) {
      path = (dir.path / "missing.json").string();  // an error between small files
    } else if (i == 38) {
      path = dir.path.string();  // a folder given as a file: an error too
    } else if (i == 50) {
      path = dir.write(fmt::format("f{}.json", i), "{not json");
    } else {
      path = dir.write(fmt::format("f{}.json", i), R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"f)" +
                                                       std::to_string(i) + R"("}]}})");
    }
    inputs.push_back(file_input(path));
  }
  const std::string expected = run(inputs, 1, 4096);
  ASSERT_NE(expected.find("input 37 error"), std::string::npos) << expected;
  ASSERT_NE(expected.find("input 38 error"), std::string::npos) << expected;
  ASSERT_NE(expected.find("f69.json#1"), std::string::npos) << expected;
  for (unsigned jobs : {2u, 3u, 4u}) EXPECT_EQ(run(inputs, jobs, 4096), expected) << "jobs " << jobs;
}

/// A HAR file of `entries` entries: tool calls (JSON and event-stream answers, tool errors, 503s),
/// a page asset (skipped: not MCP) and an entry that is not an object (skipped: invalid).
std::string har_file(int entries) {
  std::string har = R"({"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[)";
  for (int i = 1; i <= entries; ++i) {
    if (i > 1) har += ',';
    if (i % 50 == 0) {
      har += "42";
      continue;
    }
    if (i % 11 == 0) {
      har += R"({"request":{"method":"GET","url":"http://127.0.0.1/app.js","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"text/javascript","text":"var x = 1"}}})";
      continue;
    }
    const std::string req = fmt::format(R"({{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{{\"name\":\"t\"}}}})", i);
    std::string body, type = "application/json";
    int status = 200;
    if (i % 7 == 0) {
      status = 503;
      type = "text/plain";
      body = "busy";
    } else if (i % 5 == 0) {
      type = "text/event-stream";
      body = fmt::format(R"(event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"ok\"}}]}}}}\n\n)", i);
    } else {
      body = fmt::format(R"({{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"entry {}\"}}],\"isError\":{}}}}})",
                         i, i, i % 3 == 0 ? "true" : "false");
    }
    har += fmt::format(R"({{"request":{{"method":"POST","url":"http://127.0.0.1:3001/mcp","headers":[{{"name":"Content-Type","value":"application/json"}}],"postData":{{"mimeType":"application/json","text":"{}"}}}},"response":{{"status":{},"headers":[{{"name":"Content-Type","value":"{}"}}],"content":{{"mimeType":"{}","text":"{}"}}}}}})",
                       req, status, type, type, body);
  }
  har += "]}}";
  return har;
}

// A HAR file read as a document (over the block size, or standard input) is checked whole, then
// classified and delivered in batches as its entries are read (docs/performance.md, "One large
// HAR"): the records, their numbering and their order must be those of one whole read.
TEST(Pipeline, ALargeHarIsDeliveredInBatchesAsOneWholeRead) {
  TempDir dir;
  const std::string text = har_file(700);
  const std::string path = dir.write("session.har", text);
  auto whole = read_capture(text, path);
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), path);
  ASSERT_NE(expected.find("#699 "), std::string::npos) << "the numbering runs through the batches";
  ASSERT_NE(expected.find("invalid_entry"), std::string::npos) << expected.substr(0, 2000);
  for (unsigned jobs : {1u, 2u, 4u}) {
    const auto [records, batches] = run_counting({file_input(path)}, jobs, 4096);
    EXPECT_EQ(records, expected) << "jobs " << jobs;
    EXPECT_GE(batches, 2u) << "jobs " << jobs << ": delivered at once, not batch by batch";
  }
  // Read whole by a worker (smaller than the block size): one batch, the same records.
  const auto [records, batches] = run_counting({file_input(path)}, 1, std::size_t{1} << 24);
  EXPECT_EQ(records, expected);
  EXPECT_EQ(batches, 1u);
}

// A fault anywhere, even after the last entry, makes the HAR an input error with no records:
// nothing may be delivered before the whole document is known to be valid. A HAR the entry walk
// declines but one parse accepts (a repeated "log": the parse's reading decides) is read whole.
TEST(Pipeline, ALargeHarWithAFaultAtItsEndGivesAnErrorAndNoRecord) {
  TempDir dir;
  const std::string text = har_file(700);
  const std::string cut = text.substr(0, text.size() - 2);
  const std::string repeated = text.substr(0, text.size() - 1) + ",\"log\":{\"entries\":[]}}";
  for (const std::string& bad : {cut, text + " {}", cut + "],\"entries\":[]}}", repeated}) {
    const std::string path = dir.write("bad.har", bad);
    auto whole = read_capture(bad, path);
    for (unsigned jobs : {1u, 2u}) {
      const auto [records, batches] = run_counting({file_input(path)}, jobs, 4096);
      if (!whole) {
        EXPECT_EQ(records, "input 0 error: " + whole.error().message + "\n") << "jobs " << jobs;
        EXPECT_EQ(batches, 0u);
      } else {
        EXPECT_TRUE(bad == repeated) << bad.substr(bad.size() - 40);
        EXPECT_EQ(records, summary(classify_all(*whole), path));
        EXPECT_EQ(batches, 1u);
      }
    }
  }
}

TEST(Pipeline, DefaultJobsIsAtLeastOne) { EXPECT_GE(default_jobs(), 1u); }

Exchange bare_reply(int id) {
  auto read = read_capture(fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{}}}})", id), "live");
  EXPECT_TRUE(read.has_value());
  return std::move(read->front());
}

/// A source of exchanges read elsewhere (as a live reader or the proxy will be): two parts of
/// input 0, then input 1 whole.
class ReadySource final : public Source {
 public:
  void produce(Feed& feed) override {
    feed.exchanges(0, {bare_reply(1), bare_reply(2)}, true);
    feed.exchanges(0, {bare_reply(3)}, true);
    feed.document(1, R"({"jsonrpc":"2.0","id":9,"result":{}})");
  }
};

TEST(Pipeline, FedExchangesAreNumberedOnAcrossPartsAndMarkedLive) {
  const std::vector<Input> inputs = {Input{.name = "live"}, Input{.name = "doc"}};
  for (unsigned jobs : {1u, 2u}) {
    PipelineOptions options;
    options.jobs = jobs;
    ReadySource source;
    std::string out;
    run_pipeline(source, inputs, options, work(), [&](Batch&& batch) {
      out += fmt::format("batch input {} first {} live {}:", batch.input, batch.first, batch.live);
      for (const Record& r : batch.records) out += " " + source_text(inputs[r.source.input].name, r.source);
      out += '\n';
    });
    EXPECT_EQ(out,
              "batch input 0 first true live true: live#1 live#2\n"
              "batch input 0 first false live true: live#3\n"
              "batch input 1 first true live false: doc#1\n")
        << "jobs " << jobs;
  }
}

/// Feeds one exchange, then waits for bytes on a pipe that never gets any, as a reader of a
/// quiet standard input does.
class WaitingSource final : public Source {
 public:
  explicit WaitingSource(int fd) : fd_(fd) {}
  void produce(Feed& feed) override {
    feed.exchanges(0, {bare_reply(1)}, true);
    char byte;
    const ssize_t n = read_interruptible(fd_, &byte, 1, feed.stop_fd());
    waited_out = n < 0 && errno == ECANCELED;
  }
  bool waited_out = false;

 private:
  int fd_;
};

TEST(Pipeline, AConsumerThatStopsEndsAReadThatWaitsForEver) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  struct Closer {
    int a, b;
    ~Closer() {
      ::close(a);
      ::close(b);
    }
  } closer{fds[0], fds[1]};
  struct OutputGone {};
  const std::vector<Input> inputs = {Input{.name = "quiet"}};
  PipelineOptions options;
  options.jobs = 2;
  WaitingSource source(fds[0]);
  std::size_t batches = 0;
  EXPECT_THROW(run_pipeline(source, inputs, options, work(),
                            [&](Batch&&) {
                              ++batches;
                              throw OutputGone{};  // as a closed standard output does
                            }),
               OutputGone);
  EXPECT_EQ(batches, 1u);
  EXPECT_TRUE(source.waited_out) << "the read was interrupted, not left waiting";
}

/// Feeds a JSON Lines text a line at a time, each line a block of its own with `follow` set (as
/// --follow feeds a log written a line at a time), then an empty last block. `fed`: the lines fed
/// so far (with one job, a batch is taken inside the feed call of its block).
class LineByLineSource final : public Source {
 public:
  explicit LineByLineSource(std::string text) : text_(std::move(text)) {}
  void produce(Feed& feed) override {
    for (std::size_t pos = 0; pos < text_.size();) {
      const std::size_t end = text_.find('\n', pos) + 1;
      std::string block = feed.buffer();
      block.assign(text_, pos, end - pos);
      pos = end;
      feed.lines(0, std::move(block), fed++, false, /*follow=*/true);
    }
    feed.lines(0, std::string(), fed, true, /*follow=*/true);
  }
  std::size_t fed = 0;

 private:
  std::string text_;
};

TEST(Pipeline, AFollowedLogGivesEachRecordWhenItsExchangeCompletesAsOneReadWould) {
  // A request (id 2, line 3) waits while 12 pairs go by (more blocks than a log read at once reads
  // again before its end), then its reply comes (line 28); a last request is never answered.
  auto request = [](int id) {
    return fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"t"}}}})", id) + "\n";
  };
  auto reply = [](int id) {
    return fmt::format(R"({{"jsonrpc":"2.0","id":{},"result":{{"content":[{{"type":"text","text":"r{}"}}]}}}})", id, id) +
           "\n";
  };
  std::string text = request(1) + reply(1) + request(2);
  for (int id = 3; id <= 14; ++id) text += request(id) + reply(id);
  text += reply(2) + request(99);
  auto whole = read_capture(text, "log");
  ASSERT_TRUE(whole.has_value());
  const std::string expected = summary(classify_all(*whole), "log");
  for (unsigned jobs : {1u, 3u}) {
    PipelineOptions options;
    options.jobs = jobs;
    LineByLineSource source(text);
    std::string out;
    std::vector<std::pair<std::size_t, std::size_t>> taken;  // (exchange, lines fed when taken)
    bool all_follow = true;
    run_pipeline(source, std::vector<Input>{Input{.name = "log", .path = "log"}}, options, work(), [&](Batch&& batch) {
      all_follow = all_follow && batch.follow && !batch.live;
      for (const Record& r : batch.records) taken.emplace_back(r.source.exchange, source.fed);
      out += summary(batch.records, "log");
    });
    EXPECT_EQ(out, expected) << "jobs " << jobs;
    EXPECT_TRUE(all_follow) << "jobs " << jobs;
    if (jobs != 1) continue;
    ASSERT_EQ(taken.size(), 15u);
    EXPECT_EQ(taken[0], (std::pair<std::size_t, std::size_t>{1, 2})) << "#1 once its reply (line 2) is read";
    // #2 and the 12 exchanges after it, which wait with it, once its reply (line 28) is read.
    for (std::size_t k = 1; k <= 13; ++k) EXPECT_EQ(taken[k].second, 28u) << "#" << taken[k].first;
    EXPECT_EQ(taken[14], (std::pair<std::size_t, std::size_t>{15, 29})) << "the one never answered, at the end";
  }
}

}  // namespace
}  // namespace mcptriage::io
