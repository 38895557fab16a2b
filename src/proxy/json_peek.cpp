// peek_message(): a skimming reader of JSON text (RFC 8259) for the few members the proxy needs.
#include "proxy/json_peek.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "jsonrpc/request.hpp"

namespace mcptriage::proxy {
namespace {

/// A cursor over JSON text. Every reader returns false on text it cannot read, and the caller
/// gives up: the peek is a hint for rules, never a verdict.
class Skim {
 public:
  explicit Skim(std::string_view s) : s_(s) {}

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool at(char c) {
    ws();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool eat(char c) {
    if (!at(c)) return false;
    ++i_;
    return true;
  }
  std::size_t pos() const { return i_; }
  std::string_view text(std::size_t from) const { return s_.substr(from, i_ - from); }

  /// A string at the cursor; its unescaped UTF-8 into `out` when given.
  bool string(std::string* out) {
    if (!eat('"')) return false;
    while (i_ < s_.size()) {
      // The plain run up to the next quote or backslash, in one step.
      std::size_t run = i_;
      while (run < s_.size() && s_[run] != '"' && s_[run] != '\\') {
        const void* q = std::memchr(s_.data() + run, '"', s_.size() - run);
        const std::size_t qa = q ? static_cast<std::size_t>(static_cast<const char*>(q) - s_.data()) : s_.size();
        const void* b = std::memchr(s_.data() + run, '\\', qa - run);
        run = b ? static_cast<std::size_t>(static_cast<const char*>(b) - s_.data()) : qa;
      }
      if (out) out->append(s_.data() + i_, run - i_);
      i_ = run;
      if (i_ >= s_.size()) return false;
      const char c = s_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out) out->push_back(c);
        continue;
      }
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      switch (e) {
        case '"': case '\\': case '/': if (out) out->push_back(e); break;
        case 'b': if (out) out->push_back('\b'); break;
        case 'f': if (out) out->push_back('\f'); break;
        case 'n': if (out) out->push_back('\n'); break;
        case 'r': if (out) out->push_back('\r'); break;
        case 't': if (out) out->push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            std::uint32_t lo = 0;
            if (!hex4(lo)) return false;
            if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else cp = 0xFFFD;
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
          }
          if (out) utf8(*out, cp);
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  /// Any value, skipped: nested arrays and objects by counting brackets (strings read as strings).
  bool skip_value() {
    ws();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '"') return string(nullptr);
    if (c != '{' && c != '[') {
      const std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' && s_[i_] != '\t' &&
             s_[i_] != '\n' && s_[i_] != '\r')
        ++i_;
      return i_ > from;
    }
    std::size_t depth = 0;
    while (i_ < s_.size()) {
      const char d = s_[i_];
      if (d == '"') {
        if (!string(nullptr)) return false;
        continue;
      }
      ++i_;
      if (d == '{' || d == '[') ++depth;
      else if ((d == '}' || d == ']') && --depth == 0) return true;
    }
    return false;
  }

  /// The members of the object at the cursor: `on(key)` reads the value (and returns false to
  /// give up) or returns true having skipped it with skip_value().
  template <class F>
  bool object(F&& on) {
    if (!eat('{')) return false;
    if (eat('}')) return true;
    while (true) {
      std::string key;
      if (!string(&key) || !eat(':')) return false;
      if (!on(key)) return false;
      if (eat(',')) continue;
      return eat('}');
    }
  }

 private:
  bool hex4(std::uint32_t& v) {
    if (i_ + 4 > s_.size()) return false;
    v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<std::uint32_t>(h - 'A' + 10);
      else return false;
    }
    return true;
  }
  static void utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

/// A string value into `out`, or the value skipped when it is no string.
bool string_or_skip(Skim& k, std::string& out) {
  if (k.at('"')) return k.string(&out);
  return k.skip_value();
}

}  // namespace

Peek peek_message(std::string_view text) {
  Peek p;
  Skim k(text);
  if (k.at('[')) {
    p.kind = MessageKind::batch;
    return p;
  }
  bool has_method = false, has_id = false, has_result = false, has_error = false;
  const bool ok = k.object([&](const std::string& key) {
    if (key == "method") {
      has_method = k.at('"');
      return string_or_skip(k, p.method);
    }
    if (key == "id") {
      has_id = true;
      const std::size_t from = (k.ws(), k.pos());
      if (!k.skip_value()) return false;
      p.id_json = std::string(k.text(from));
      return true;
    }
    if (key == "result") {
      has_result = true;
      if (!k.at('{')) return k.skip_value();
      return k.object([&](const std::string& rkey) {
        if (rkey == "protocolVersion") return string_or_skip(k, p.result_protocol_version);
        return k.skip_value();
      });
    }
    if (key == "error") {
      has_error = true;
      return k.skip_value();
    }
    if (key == "params") {
      if (!k.at('{')) return k.skip_value();
      return k.object([&](const std::string& pkey) {
        if (pkey == "name") return string_or_skip(k, p.tool_name);
        if (pkey == "protocolVersion" && p.protocol_version.empty()) return string_or_skip(k, p.protocol_version);
        if (pkey == "_meta" && k.at('{')) {
          return k.object([&](const std::string& mkey) {
            if (mkey == "io.modelcontextprotocol/protocolVersion") return string_or_skip(k, p.protocol_version);
            return k.skip_value();
          });
        }
        return k.skip_value();
      });
    }
    return k.skip_value();
  });
  if (!ok) {
    p.kind = MessageKind::other;
    return p;
  }
  if (has_method) p.kind = has_id ? MessageKind::request : MessageKind::notification;
  else if (has_id && (has_result || has_error)) p.kind = MessageKind::response;
  p.is_error = p.kind == MessageKind::response && has_error;
  return p;
}

std::optional<std::string> json_string_value(std::string_view literal) {
  Skim k(literal);
  std::string out;
  if (!k.string(&out) || k.pos() != literal.size()) return std::nullopt;
  return out;
}

bool same_id(std::string_view a_json, std::string_view b_json) {
  if (a_json == b_json) return true;
  const auto a = jsonrpc::id_from_json(a_json);
  const auto b = jsonrpc::id_from_json(b_json);
  return a && b && *a == *b;
}

}  // namespace mcptriage::proxy
