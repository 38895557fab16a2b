// The benchmark's ceiling: bare simdjson on a JSON Lines exchange log. Parses each line (DOM,
// fully validated), takes its "body" string (unescaped by simdjson) and parses that: the whole
// body when it is JSON, each `data:` payload when it is an event stream. Nothing else: no
// classification, no output per line. Reads in blocks split at line ends, one parser per level,
// reused. Prints one summary line: lines, bodies parsed, parse failures.
//
// Usage: simdjson_parse LOG.jsonl
#include <fcntl.h>
#include <simdjson.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

struct Counts {
  std::size_t lines = 0;
  std::size_t documents = 0;  ///< JSON texts parsed inside bodies
  std::size_t failures = 0;   ///< lines or bodies that did not parse
};

/// Copies `text` into `buf` with simdjson's padding after it and parses it.
bool parse_padded(simdjson::dom::parser& parser, std::vector<char>& buf, std::string_view text) {
  if (buf.size() < text.size() + simdjson::SIMDJSON_PADDING) buf.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(buf.data(), text.data(), text.size());
  simdjson::dom::element root;
  return parser.parse(buf.data(), text.size(), false).get(root) == simdjson::SUCCESS;
}

void parse_line(simdjson::dom::parser& outer, simdjson::dom::parser& inner, std::vector<char>& body_buf,
                const char* line, std::size_t len, Counts& n) {
  ++n.lines;
  simdjson::dom::element root;
  // The block buffer has at least SIMDJSON_PADDING readable bytes after every line.
  if (outer.parse(line, len, false).get(root) != simdjson::SUCCESS) {
    ++n.failures;
    return;
  }
  std::string_view body;
  if (root["body"].get(body) != simdjson::SUCCESS || body.empty()) return;
  const char first = body.front();
  if (first == '{' || first == '[') {
    ++n.documents;
    if (!parse_padded(inner, body_buf, body)) ++n.failures;
    return;
  }
  // An event stream: every `data:` line's payload.
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find('\n', pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view l = body.substr(pos, end - pos);
    if (l.starts_with("data:")) {
      l.remove_prefix(5);
      if (l.starts_with(' ')) l.remove_prefix(1);
      if (!l.empty()) {
        ++n.documents;
        if (!parse_padded(inner, body_buf, l)) ++n.failures;
      }
    }
    pos = end + 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_parse LOG.jsonl\n");
    return 2;
  }
  const int fd = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::perror(argv[1]);
    return 1;
  }
  simdjson::dom::parser outer;
  simdjson::dom::parser inner;
  std::vector<char> body_buf;
  Counts n;
  std::vector<char> block(std::size_t{8} << 20);
  std::size_t used = 0;  // bytes of `block` holding input
  for (;;) {
    if (block.size() - used < simdjson::SIMDJSON_PADDING + (1 << 20)) block.resize(block.size() * 2);
    const ssize_t got = ::read(fd, block.data() + used, block.size() - used - simdjson::SIMDJSON_PADDING);
    if (got < 0) {
      std::perror(argv[1]);
      return 1;
    }
    const std::size_t end = used + static_cast<std::size_t>(got);
    std::size_t start = 0;
    while (start < end) {
      const void* nl = std::memchr(block.data() + start, '\n', end - start);
      if (nl == nullptr) break;
      const std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(nl) - block.data());
      if (stop > start) parse_line(outer, inner, body_buf, block.data() + start, stop - start, n);
      start = stop + 1;
    }
    if (got == 0) {
      if (start < end) parse_line(outer, inner, body_buf, block.data() + start, end - start, n);
      break;
    }
    std::memmove(block.data(), block.data() + start, end - start);
    used = end - start;
  }
  ::close(fd);
  std::printf("lines %zu, bodies' JSON texts %zu, parse failures %zu\n", n.lines, n.documents, n.failures);
  return 0;
}
