// Line ends in the bytes of a JSON Lines log, for the sources that cut it into blocks of whole
// lines (file_source.cpp, follow_source.cpp). Private to src/io.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace mcptriage::io {

/// Lines in a block of a JSON Lines log, at most: a block's records take about the same memory
/// per exchange whatever the length of its lines, so short lines make short blocks (peak RSS,
/// docs/performance.md).
inline constexpr std::size_t kBlockLines = 1024;

/// Line ends in `text`. memchr steps over a line at a time; std::count compared every byte and
/// cost a tenth of a one-job run (callgrind, docs/performance.md).
inline std::size_t count_newlines(std::string_view text) {
  std::size_t n = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (hit == nullptr) break;
    ++n;
    p = static_cast<const char*>(hit) + 1;
  }
  return n;
}

/// Where a block that starts at `start` ends: after its kBlockLines-th line end, or at `end`
/// when [start, end) holds fewer lines.
inline std::size_t line_cut(std::string_view text, std::size_t start, std::size_t end) {
  const char* p = text.data() + start;
  const char* const stop = text.data() + end;
  for (std::size_t n = 0; n < kBlockLines; ++n) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(stop - p));
    if (hit == nullptr) return end;
    p = static_cast<const char*>(hit) + 1;
    if (p == stop) return end;
  }
  return static_cast<std::size_t>(p - text.data());
}

/// The last line end in `text`, or npos. glibc's memrchr: std::string::rfind compares a byte at a
/// time, and a block that ends inside a long line (a 500 KB tool output) is scanned back whole.
inline std::size_t last_newline(std::string_view text) {
  const void* hit = ::memrchr(text.data(), '\n', text.size());
  return hit == nullptr ? std::string::npos : static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
}

}  // namespace mcptriage::io
