// The benchmark's ceiling: bare simdjson on a JSON Lines exchange log. Parses each line (DOM,
// fully validated), takes its "body" string (unescaped by simdjson) and parses that: the whole
// body when it is JSON, each `data:` payload when it is an event stream. Nothing else: no
// classification, no output per line. Reads in blocks split at line ends, one parser per level,
// reused. Prints one summary line: lines, bodies parsed, parse failures.
//
// With --ondemand, the ceiling of the On-Demand design instead (issue 19): simdjson's On-Demand
// API reads only what classification needs and skips the rest without unescaping it. Per line:
// `status`, the `content-type` header, `body` (unescaped: the classifier needs its bytes) and the
// request's `method` and `id`; per JSON text of the body: `jsonrpc`, `id`, `method`, `error.code`
// and `error.message`, `result.isError`, `result.resultType`, each content item's `type` and
// the raw (still escaped) `text`. Skipped values are not validated, so this does less than a
// classifier must (docs/performance.md "On-Demand"); it is the cost of the parse alone.
//
// With --har, the same bare parse of one HAR file: a DOM parse of the whole file, then of each
// entry's `response.content.text` as above (the whole text when JSON, each `data:` payload when
// an event stream).
//
// Usage: simdjson_parse [--ondemand] LOG.jsonl | simdjson_parse --har FILE.har
#include <fcntl.h>
#include <simdjson.h>
#include <unistd.h>

#include <cstdint>
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

void parse_body(simdjson::dom::parser& inner, std::vector<char>& body_buf, std::string_view body, Counts& n);

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
  if (root["body"].get(body) != simdjson::SUCCESS) return;
  parse_body(inner, body_buf, body, n);
}

/// A body's JSON texts: the whole body when it is JSON, each `data:` payload of an event stream.
void parse_body(simdjson::dom::parser& inner, std::vector<char>& body_buf, std::string_view body, Counts& n) {
  if (body.empty()) return;
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

namespace od = simdjson::ondemand;

/// A member of an unexpected type is the classifier's finding, not a parse failure: only other
/// errors end the reading.
bool bad(simdjson::error_code e) { return e != simdjson::SUCCESS && e != simdjson::INCORRECT_TYPE; }

/// Calls `read(key, value)` for each member of `object`, in order; false when a member cannot be
/// read or `read` says false. Members `read` leaves alone are skipped by the iteration.
template <class Read>
bool members(od::object object, Read read) {
  for (auto field : object) {
    std::string_view key;
    od::value value;
    if (field.unescaped_key().get(key) != simdjson::SUCCESS || field.value().get(value) != simdjson::SUCCESS) {
      return false;
    }
    if (!read(key, value)) return false;
  }
  return true;
}

/// members() of `value` when it is an object; a value of another type is passed over.
template <class Read>
bool object_members(od::value value, Read read) {
  od::object object;
  const auto e = value.get_object().get(object);
  if (e != simdjson::SUCCESS) return !bad(e);
  return members(object, read);
}

bool read_string(od::value value) {
  std::string_view text;
  return !bad(value.get_string().get(text));
}

/// A result's members, as the classifier reads them; false on any error.
bool read_result(od::value result) {
  return object_members(result, [](std::string_view key, od::value v) {
    if (key == "isError") {
      bool b;
      return !bad(v.get_bool().get(b));
    }
    if (key == "resultType") return read_string(v);
    if (key != "content") return true;
    od::array items;
    const auto e = v.get_array().get(items);
    if (e != simdjson::SUCCESS) return !bad(e);
    for (auto item : items) {
      od::value one;
      if (item.get(one) != simdjson::SUCCESS) return false;
      const bool ok = object_members(one, [](std::string_view k, od::value m) {
        if (k == "type") return read_string(m);
        if (k != "text") return true;
        od::raw_json_string raw;
        return !bad(m.get_raw_json_string().get(raw));
      });
      if (!ok) return false;
    }
    return true;
  });
}

/// One JSON text of a body (padded in `buf`); false when it does not parse.
bool read_message(od::parser& parser, std::vector<char>& buf, std::string_view text) {
  if (buf.size() < text.size() + simdjson::SIMDJSON_PADDING) buf.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(buf.data(), text.data(), text.size());
  od::document doc;
  od::object obj;
  if (parser.iterate(buf.data(), text.size(), buf.size()).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(obj) != simdjson::SUCCESS) {
    return false;
  }
  // 3.0.1 has no document::at_end: text after the value goes unseen.
  return members(obj, [](std::string_view key, od::value v) {
    if (key == "jsonrpc" || key == "method") return read_string(v);
    if (key == "id") return !v.raw_json_token().empty();
    if (key == "result") return read_result(v);
    if (key != "error") return true;
    return object_members(v, [](std::string_view k, od::value m) {
      if (k == "message") return read_string(m);
      if (k != "code") return true;
      std::int64_t code;
      return !bad(m.get_int64().get(code));
    });
  });
}

void read_line(od::parser& outer, od::parser& inner, std::vector<char>& body_buf, const char* line,
               std::size_t len, Counts& n) {
  ++n.lines;
  od::document doc;
  od::object obj;
  // The block buffer has at least SIMDJSON_PADDING readable bytes after every line.
  if (outer.iterate(line, len, len + simdjson::SIMDJSON_PADDING).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(obj) != simdjson::SUCCESS) {
    ++n.failures;
    return;
  }
  std::string_view body;
  const bool ok = members(obj, [&](std::string_view key, od::value v) {
    if (key == "status") {
      std::int64_t status;
      return !bad(v.get_int64().get(status));
    }
    if (key == "body") return !bad(v.get_string().get(body));
    if (key == "headers") return object_members(v, [](std::string_view k, od::value h) { return k != "content-type" || read_string(h); });
    if (key == "request") return object_members(v, [](std::string_view k, od::value r) { return k != "method" || read_string(r); });
    return true;
  });
  if (!ok) {
    ++n.failures;
    return;
  }
  if (body.empty()) return;
  if (body.front() == '{' || body.front() == '[') {
    ++n.documents;
    if (!read_message(inner, body_buf, body)) ++n.failures;
    return;
  }
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
        if (!read_message(inner, body_buf, l)) ++n.failures;
      }
    }
    pos = end + 1;
  }
}

/// --har: the whole file as one DOM, then each entry's response body.
int parse_har(const char* path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    std::fprintf(stderr, "%s: cannot read\n", path);
    return 1;
  }
  simdjson::dom::parser outer;
  simdjson::dom::parser inner;
  std::vector<char> body_buf;
  Counts n;
  simdjson::dom::array entries;
  if (outer.parse(text).at_pointer("/log/entries").get(entries) != simdjson::SUCCESS) {
    std::printf("entries 0, parse failures 1\n");
    return 0;
  }
  for (simdjson::dom::element entry : entries) {
    ++n.lines;
    std::string_view body;
    if (entry.at_pointer("/response/content/text").get(body) == simdjson::SUCCESS) parse_body(inner, body_buf, body, n);
  }
  std::printf("entries %zu, bodies' JSON texts %zu, parse failures %zu\n", n.lines, n.documents, n.failures);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "--har") return parse_har(argv[2]);
  const bool ondemand = argc == 3 && std::string_view(argv[1]) == "--ondemand";
  if (argc != 2 && !ondemand) {
    std::fprintf(stderr, "usage: simdjson_parse [--ondemand] LOG.jsonl | simdjson_parse --har FILE.har\n");
    return 2;
  }
  const char* path = argv[argc - 1];
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::perror(path);
    return 1;
  }
  simdjson::dom::parser outer;
  simdjson::dom::parser inner;
  od::parser od_outer;
  od::parser od_inner;
  std::vector<char> body_buf;
  Counts n;
  const auto line = [&](const char* text, std::size_t len) {
    if (ondemand) read_line(od_outer, od_inner, body_buf, text, len, n);
    else parse_line(outer, inner, body_buf, text, len, n);
  };
  std::vector<char> block(std::size_t{8} << 20);
  std::size_t used = 0;  // bytes of `block` holding input
  for (;;) {
    if (block.size() - used < simdjson::SIMDJSON_PADDING + (1 << 20)) block.resize(block.size() * 2);
    const ssize_t got = ::read(fd, block.data() + used, block.size() - used - simdjson::SIMDJSON_PADDING);
    if (got < 0) {
      std::perror(path);
      return 1;
    }
    const std::size_t end = used + static_cast<std::size_t>(got);
    std::size_t start = 0;
    while (start < end) {
      const void* nl = std::memchr(block.data() + start, '\n', end - start);
      if (nl == nullptr) break;
      const std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(nl) - block.data());
      if (stop > start) line(block.data() + start, stop - start);
      start = stop + 1;
    }
    if (got == 0) {
      if (start < end) line(block.data() + start, end - start);
      break;
    }
    std::memmove(block.data(), block.data() + start, end - start);
    used = end - start;
  }
  ::close(fd);
  std::printf("lines %zu, bodies' JSON texts %zu, parse failures %zu\n", n.lines, n.documents, n.failures);
  return 0;
}
