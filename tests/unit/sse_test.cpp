// Unit tests for the server-sent events parser (mcptriage::sse::parse).
#include "mcptriage/sse.hpp"
#include "sse/blocks.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <algorithm>

namespace {

using mcptriage::sse::parse;
using mcptriage::sse::Stream;
using namespace std::string_literals;
using namespace std::string_view_literals;

/// Reads a whole file as bytes; empty when it cannot be opened.
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SseParse, EmptyInputYieldsNothing) {
  const Stream s = parse("");
  EXPECT_TRUE(s.events.empty());
  EXPECT_EQ(s.comments, 0u);
  EXPECT_FALSE(s.retry_ms.has_value());
  EXPECT_FALSE(s.unterminated_tail);
  EXPECT_FALSE(s.any_id);
}

TEST(SseParse, SingleEventDefaultsToMessageType) {
  const Stream s = parse("data: hello\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].type, "message");
  EXPECT_EQ(s.events[0].data, "hello");
  EXPECT_FALSE(s.events[0].id_set_here);
  EXPECT_FALSE(s.unterminated_tail);
}

TEST(SseParse, MixedLineEndingsCrLfAndCr) {
  const Stream s = parse("data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\rdata: e\n\r\n");
  ASSERT_EQ(s.events.size(), 5u);
  EXPECT_EQ(s.events[0].data, "a");
  EXPECT_EQ(s.events[1].data, "b");
  EXPECT_EQ(s.events[2].data, "c");
  EXPECT_EQ(s.events[3].data, "d");
  EXPECT_EQ(s.events[4].data, "e");
  EXPECT_FALSE(s.unterminated_tail);
}

TEST(SseParse, LfCrIsTwoLineEnds) {
  // "\n\r" is LF then a lone CR: two line ends, so the second is a blank line.
  const Stream s = parse("data: x\n\r");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "x");
}

TEST(SseParse, CrAtEndOfChunkFollowedByLfIsOneLineEnd) {
  // "\r\n" must count once: "data: a\r\n" + "data: b\r\n\r\n" is one event with two lines.
  const Stream s = parse("data: a\r\ndata: b\r\n\r\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "a\nb");
  // A CR as the very last byte ends the line; with no blank line after it the event is dropped.
  const Stream t = parse("data: a\r");
  EXPECT_TRUE(t.events.empty());
  EXPECT_TRUE(t.unterminated_tail);
  // ...and with a second CR it is a blank line and dispatches.
  const Stream u = parse("data: a\r\r");
  ASSERT_EQ(u.events.size(), 1u);
  EXPECT_EQ(u.events[0].data, "a");
}

TEST(SseParse, LeadingBomIgnoredOnce) {
  const Stream s = parse("\xEF\xBB\xBF" "data: x\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "x");
  // A second BOM is part of the field name, which is then unknown and ignored.
  const Stream t = parse("\xEF\xBB\xBF\xEF\xBB\xBF" "data: x\n\n");
  EXPECT_TRUE(t.events.empty());
  // A BOM not at the start is ordinary data.
  const Stream u = parse("data: \xEF\xBB\xBFx\n\n");
  ASSERT_EQ(u.events.size(), 1u);
  EXPECT_EQ(u.events[0].data, "\xEF\xBB\xBFx");
}

TEST(SseParse, CommentsCountedAndIgnored) {
  const Stream s = parse(":\n: keep-alive\ndata: x\n:mid\n\n: trailing\n");
  EXPECT_EQ(s.comments, 4u);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "x");
  EXPECT_FALSE(s.unterminated_tail);  // a comment alone does not make an unterminated event
}

TEST(SseParse, OnlyOneLeadingSpaceStripped) {
  const Stream s = parse("data:  x\n\ndata:y\n\ndata:\tz\n\ndata: a: b \n\n");
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_EQ(s.events[0].data, " x");
  EXPECT_EQ(s.events[1].data, "y");
  EXPECT_EQ(s.events[2].data, "\tz");
  EXPECT_EQ(s.events[3].data, "a: b ");  // split at the first colon; trailing space kept
}

TEST(SseParse, MultiLineDataJoinedWithLf) {
  const Stream s = parse("data: one\ndata: two\ndata:\ndata: four\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "one\ntwo\n\nfour");
}

TEST(SseParse, OnlyOneTrailingLfRemoved) {
  const Stream s = parse("data: x\ndata:\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "x\n");
}

TEST(SseParse, PrimingEventCountedAsEmptyData) {
  // MCP 2025-11-25 priming event: an id and an empty data line.
  const Stream s = parse("id: prime-1\ndata:\n\ndata: real\n\n");
  EXPECT_EQ(s.empty_data_events, 1u);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "real");
  EXPECT_EQ(s.events[0].last_event_id, "prime-1");
  EXPECT_FALSE(s.events[0].id_set_here);
  EXPECT_TRUE(s.any_id);
}

TEST(SseParse, TwoEmptyDataLinesAreNotEmptyData) {
  const Stream s = parse("data:\ndata:\n\n");
  EXPECT_EQ(s.empty_data_events, 0u);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "\n");
}

TEST(SseParse, BlockWithoutDataDispatchesNothing) {
  const Stream s = parse("id: 7\n\nretry: 10\n\nevent: foo\n\n\n\n");
  EXPECT_TRUE(s.events.empty());
  EXPECT_EQ(s.empty_data_events, 0u);
  EXPECT_EQ(s.last_event_id, "7");
  EXPECT_EQ(s.retry_ms, 10);
  EXPECT_FALSE(s.unterminated_tail);
}

TEST(SseParse, EventTypeResetAfterDispatch) {
  const Stream s = parse("event: progress\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n");
  ASSERT_EQ(s.events.size(), 3u);
  EXPECT_EQ(s.events[0].type, "progress");
  EXPECT_EQ(s.events[1].type, "message");
  EXPECT_EQ(s.events[2].type, "message");  // empty `event:` means the default
}

TEST(SseParse, EventTypeFromDatalessBlockDoesNotLeak) {
  const Stream s = parse("event: lost\n\ndata: x\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].type, "message");
}

TEST(SseParse, FieldNamesAreCaseSensitive) {
  const Stream s = parse("Data: x\nEVENT: y\nId: z\ndata: w\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "w");
  EXPECT_EQ(s.events[0].type, "message");
  EXPECT_EQ(s.last_event_id, "");
  EXPECT_FALSE(s.any_id);
}

TEST(SseParse, FieldWithoutColon) {
  // `data` alone appends an empty line; `event` alone sets an empty type.
  const Stream s = parse("data: a\ndata\ndata: b\n\nevent: x\nevent\ndata: c\n\n");
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0].data, "a\n\nb");
  EXPECT_EQ(s.events[1].type, "message");
  EXPECT_EQ(s.events[1].data, "c");
  // `data` alone as the only line is a priming-style empty event.
  const Stream t = parse("data\n\n");
  EXPECT_TRUE(t.events.empty());
  EXPECT_EQ(t.empty_data_events, 1u);
}

TEST(SseParse, IdPersistsAcrossEvents) {
  const Stream s = parse("id: 1\ndata: a\n\ndata: b\n\n");
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0].last_event_id, "1");
  EXPECT_TRUE(s.events[0].id_set_here);
  EXPECT_EQ(s.events[1].last_event_id, "1");
  EXPECT_FALSE(s.events[1].id_set_here);
  EXPECT_EQ(s.last_event_id, "1");
  EXPECT_TRUE(s.any_id);
}

TEST(SseParse, EmptyIdResetsLastEventId) {
  const Stream s = parse("id: 1\ndata: a\n\nid:\ndata: b\n\ndata: c\n\n");
  ASSERT_EQ(s.events.size(), 3u);
  EXPECT_EQ(s.events[0].last_event_id, "1");
  EXPECT_EQ(s.events[1].last_event_id, "");
  EXPECT_TRUE(s.events[1].id_set_here);
  EXPECT_EQ(s.events[2].last_event_id, "");
  EXPECT_EQ(s.last_event_id, "");
  EXPECT_TRUE(s.any_id);  // an earlier block did set a non-empty id
}

TEST(SseParse, EmptyIdOnlyIsNotAnyId) {
  const Stream s = parse("id\ndata: a\n\nid:\ndata: b\n\n");
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_TRUE(s.events[0].id_set_here);
  EXPECT_FALSE(s.any_id);
}

TEST(SseParse, IdWithNulIgnored) {
  const std::string body = "id: good\ndata: a\n\nid: b\0d\ndata: b\n\n"s;
  const Stream s = parse(body);
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[1].last_event_id, "good");
  EXPECT_FALSE(s.events[1].id_set_here);
  EXPECT_EQ(s.last_event_id, "good");
}

TEST(SseParse, RetryDigitsOnly) {
  EXPECT_EQ(parse("retry: 3000\n").retry_ms, 3000);
  EXPECT_EQ(parse("retry:0\n").retry_ms, 0);
  EXPECT_EQ(parse("retry: 0042\n").retry_ms, 42);
  EXPECT_FALSE(parse("retry: 3000ms\n").retry_ms.has_value());
  EXPECT_FALSE(parse("retry: -1\n").retry_ms.has_value());
  EXPECT_FALSE(parse("retry: +1\n").retry_ms.has_value());
  EXPECT_FALSE(parse("retry: 1.5\n").retry_ms.has_value());
  EXPECT_FALSE(parse("retry:  100\n").retry_ms.has_value());  // second space is not a digit
  EXPECT_FALSE(parse("retry:\n").retry_ms.has_value());
  EXPECT_FALSE(parse("Retry: 5\n").retry_ms.has_value());
  // An invalid value keeps the previous valid one.
  EXPECT_EQ(parse("retry: 100\n\nretry: x\n\n").retry_ms, 100);
  EXPECT_EQ(parse("retry: 100\n\nretry: 200\n\n").retry_ms, 200);
}

TEST(SseParse, RetryOverflowIgnored) {
  EXPECT_EQ(parse("retry: 9223372036854775807\n").retry_ms, 9223372036854775807LL);
  EXPECT_EQ(parse("retry: 7\nretry: 9223372036854775808\n").retry_ms, 7);
  EXPECT_FALSE(parse("retry: 99999999999999999999999999999\n").retry_ms.has_value());
}

TEST(SseParse, UnterminatedTailDropped) {
  const Stream s = parse("data: a\n\ndata: b\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "a");
  EXPECT_TRUE(s.unterminated_tail);
  // A last line with no line end at all is also an unterminated event.
  const Stream t = parse("data: a\n\ndata: b");
  ASSERT_EQ(t.events.size(), 1u);
  EXPECT_TRUE(t.unterminated_tail);
  // Ending right after a blank line is clean.
  EXPECT_FALSE(parse("data: a\n\n").unterminated_tail);
  // A trailing comment (terminated or not) is not an event.
  EXPECT_FALSE(parse("data: a\n\n: ping\n").unterminated_tail);
  EXPECT_FALSE(parse("data: a\n\n: ping").unterminated_tail);
}

TEST(SseParse, UnterminatedTailIdNotCommitted) {
  // Per spec the last event ID string is only updated on a blank line.
  const Stream s = parse("id: 1\ndata: a\n\nid: 2\ndata: b\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.last_event_id, "1");
  EXPECT_TRUE(s.unterminated_tail);
}

TEST(SseParse, UnknownFieldsIgnored) {
  const Stream s = parse("foo: bar\ndata: x\nbaz\n\n");
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data, "x");
}

TEST(SseParse, BinaryAndNulBytesDoNotCrash) {
  std::string body;
  for (int round = 0; round < 4; ++round) {
    for (int b = 0; b < 256; ++b) body.push_back(static_cast<char>(b));
  }
  body += "\n\ndata: \0\xFF\xFE\n\n"s;
  const Stream s = parse(body);
  ASSERT_FALSE(s.events.empty());
  EXPECT_EQ(s.events.back().data, "\0\xFF\xFE"s);
}

TEST(SseParse, ManyEmptyEventsLinear) {
  constexpr std::size_t kCount = 1'000'000;
  std::string body;
  body.reserve(kCount * 7);
  for (std::size_t i = 0; i < kCount; ++i) body += "data:\n\n";
  const Stream s = parse(body);
  EXPECT_EQ(s.empty_data_events, kCount);
  EXPECT_TRUE(s.events.empty());
}

TEST(SseParse, HugeSingleDataLine) {
  constexpr std::size_t kSize = 100u * 1024u * 1024u;
  std::string body = "data: ";
  body.append(kSize, 'x');
  body += "\r\n\r\n";
  const Stream s = parse(body);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].data.size(), kSize);
}

TEST(SseParse, RealSampleCurlCrlfMultiline) {
  const std::string file =
      read_file(std::string(MCPTRIAGE_SOURCE_DIR) + "/testdata/samples/curl-i-sse-crlf-multiline.txt");
  const std::size_t header_end = file.find("\r\n\r\n");
  ASSERT_NE(header_end, std::string::npos) << "sample missing or has no header terminator";
  const Stream s = parse(std::string_view(file).substr(header_end + 4));

  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0].type, "message");
  EXPECT_NE(s.events[0].data.find("\"notifications/message\""), std::string::npos);
  EXPECT_EQ(s.events[0].data.find('\n'), std::string::npos);

  EXPECT_EQ(s.events[1].type, "message");
  EXPECT_TRUE(s.events[1].id_set_here);
  EXPECT_EQ(s.events[1].last_event_id, "ev-9");
  EXPECT_NE(s.events[1].data.find('\n'), std::string::npos);  // pretty-printed, LF-joined
  EXPECT_EQ(s.events[1].data.find('\r'), std::string::npos);
  simdjson::dom::parser json;
  simdjson::dom::element doc;
  ASSERT_EQ(json.parse(s.events[1].data).get(doc), simdjson::SUCCESS);
  std::int64_t id = 0;
  ASSERT_EQ(doc["id"].get(id), simdjson::SUCCESS);
  EXPECT_EQ(id, 3);

  EXPECT_EQ(s.retry_ms, 5000);
  EXPECT_EQ(s.last_event_id, "ev-9");
  EXPECT_TRUE(s.any_id);
  EXPECT_EQ(s.empty_data_events, 0u);
  EXPECT_TRUE(s.unterminated_tail);  // the final endpoint-ping event has no blank line
}

// The one block scanner (src/sse/blocks.hpp) of the live reader and the proxy.
std::vector<std::pair<std::size_t, std::size_t>> scan_all(std::string_view all, std::size_t piece, bool join) {
  mcptriage::sse::BlockScanner scanner(0, join);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t n = piece; ; n += piece) {  // the buffer grows a piece at a time
    const std::string_view buf = all.substr(0, std::min(n, all.size()));
    while (auto b = scanner.next(buf)) out.push_back(*b);
    if (n >= all.size()) break;
  }
  return out;
}

TEST(SseBlockScanner, EndsABlockAtEachEmptyLineWhateverThePieces) {
  const std::string_view stream = "\ndata: a\r\n\r\n: ping\r\rdata: b\n\n";
  using Blocks = std::vector<std::pair<std::size_t, std::size_t>>;
  // CR, LF and CRLF end lines; the closing CRLF is kept whole in its block.
  EXPECT_EQ(scan_all(stream, 100, false), (Blocks{{0, 1}, {1, 12}, {12, 20}, {20, 29}}));
  // When a piece ends on the CR of that CRLF, its LF begins the next block instead.
  EXPECT_EQ(scan_all(stream, 1, false), (Blocks{{0, 1}, {1, 11}, {11, 20}, {20, 29}}));
  // Any pieces: the same four blocks, partitioning the stream.
  for (std::size_t piece : {2u, 3u, 5u, 7u, 11u, 13u}) {
    const Blocks b = scan_all(stream, piece, false);
    ASSERT_EQ(b.size(), 4u) << "piece " << piece;
    for (std::size_t k = 1; k < b.size(); ++k) EXPECT_EQ(b[k].first, b[k - 1].second) << "piece " << piece;
    EXPECT_EQ(b.back().second, stream.size()) << "piece " << piece;
  }
  // Joined: the leading empty line stays with the first event.
  EXPECT_EQ(scan_all(stream, 100, true), (Blocks{{0, 12}, {12, 20}, {20, 29}}));
}

TEST(SseBlockScanner, ShiftKeepsPositionsInTheShorterBuffer) {
  mcptriage::sse::BlockScanner scanner;
  std::string buf = "data: a\n\ndata: b";
  auto b = scanner.next(buf);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (std::pair<std::size_t, std::size_t>{0, 9}));
  EXPECT_FALSE(scanner.next(buf));
  buf.erase(0, scanner.block_start());  // the caller keeps only the open block
  scanner.shift(9);
  buf += "\n\n";
  b = scanner.next(buf);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (std::pair<std::size_t, std::size_t>{0, 9}));
}

}  // namespace
