// RFC 8259 grammar check and rewrite of what simdjson 3.0.1 refuses (rfc8259.hpp).
#include "json/rfc8259.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace mcptriage::json::rfc8259 {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Scanner {
 public:
  Scanner(std::string_view text, std::size_t max_depth) : s_(text), max_depth_(max_depth) { out_.text.reserve(text.size() + 16); }

  std::optional<Rewrite> run() {
    ws();
    if (!value(0)) return std::nullopt;
    ws();
    if (pos_ != s_.size()) return std::nullopt;
    if (out_.numbers.empty() && out_.lone_surrogates == 0) return std::nullopt;
    flush(s_.size());
    return std::move(out_);
  }

 private:
  std::string_view s_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
  std::size_t copied_ = 0;  ///< bytes of s_ before this are in out_.text
  std::size_t numbers_ = 0;
  Rewrite out_;

  void flush(std::size_t upto) {
    out_.text.append(s_.substr(copied_, upto - copied_));
    copied_ = upto;
  }
  void replace(std::size_t from, std::size_t to, std::string_view with) {
    flush(from);
    out_.text.append(with);
    copied_ = to;
  }
  bool at(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool value(std::size_t depth) {
    if (pos_ >= s_.size()) return false;
    switch (s_[pos_]) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': return string();
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return number();
    }
  }

  bool object(std::size_t depth) {
    if (depth > max_depth_) return false;
    ++pos_;
    ws();
    if (at('}')) {
      ++pos_;
      return true;
    }
    for (;;) {
      if (!at('"') || !string()) return false;
      ws();
      if (!at(':')) return false;
      ++pos_;
      ws();
      if (!value(depth)) return false;
      ws();
      if (at('}')) {
        ++pos_;
        return true;
      }
      if (!at(',')) return false;
      ++pos_;
      ws();
    }
  }

  bool array(std::size_t depth) {
    if (depth > max_depth_) return false;
    ++pos_;
    ws();
    if (at(']')) {
      ++pos_;
      return true;
    }
    for (;;) {
      if (!value(depth)) return false;
      ws();
      if (at(']')) {
        ++pos_;
        return true;
      }
      if (!at(',')) return false;
      ++pos_;
      ws();
    }
  }

  /// `\uXXXX` at pos_ (after the backslash's position `esc`): its code unit, or -1.
  long unit_at(std::size_t esc) const {
    if (esc + 6 > s_.size() || s_[esc] != '\\' || s_[esc + 1] != 'u') return -1;
    // Four hex digits, no sign (an unsigned target refuses '-'), nothing else.
    unsigned v = 0;
    const char* first = s_.data() + esc + 2;
    const auto [end, ec] = std::from_chars(first, first + 4, v, 16);
    if (ec != std::errc{} || end != first + 4) return -1;
    return static_cast<long>(v);
  }

  bool string() {
    ++pos_;  // the opening quote
    while (pos_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return false;  // RFC 8259 §7: control characters must be escaped
      if (c != '\\') {
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= s_.size()) return false;
      const char e = s_[pos_ + 1];
      if (e != 'u') {
        if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') return false;
        pos_ += 2;
        continue;
      }
      const long unit = unit_at(pos_);
      if (unit < 0) return false;
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        const long next = unit_at(pos_ + 6);
        if (next >= 0xDC00 && next <= 0xDFFF) {
          pos_ += 12;  // a pair
          continue;
        }
      }
      if (unit >= 0xD800 && unit <= 0xDFFF) {
        // Unpaired (RFC 8259 §8.2): read as U+FFFD, what a UTF-8 decoder makes of it.
        replace(pos_, pos_ + 6, "\\ufffd");
        ++out_.lone_surrogates;
      }
      pos_ += 6;
    }
    return false;
  }

  bool number() {
    const std::size_t start = pos_;
    if (at('-')) ++pos_;
    if (at('0')) {
      ++pos_;
    } else if (pos_ < s_.size() && s_[pos_] >= '1' && s_[pos_] <= '9') {
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    } else {
      return false;
    }
    bool integer_token = true;
    if (at('.')) {
      integer_token = false;
      ++pos_;
      if (pos_ >= s_.size() || !is_digit(s_[pos_])) return false;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    if (at('e') || at('E')) {
      integer_token = false;
      ++pos_;
      if (at('+') || at('-')) ++pos_;
      if (pos_ >= s_.size() || !is_digit(s_[pos_])) return false;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    const std::string_view token = s_.substr(start, pos_ - start);
    const std::size_t ordinal = numbers_++;
    bool big = false;
    if (integer_token) {
      const char* first = token.data();
      const char* last = token.data() + token.size();
      if (token.front() == '-') {
        std::int64_t v = 0;
        big = std::from_chars(first, last, v).ec == std::errc::result_out_of_range;
      } else {
        std::uint64_t v = 0;
        big = std::from_chars(first, last, v).ec == std::errc::result_out_of_range;
      }
    }
    const double d = std::strtod(std::string(token).c_str(), nullptr);
    const bool overflow = std::isinf(d);
    if (!big && !overflow) return true;
    if (overflow) ++out_.out_of_range;
    else ++out_.big_integers;
    char buf[64];
    const double shown = overflow ? std::copysign(std::numeric_limits<double>::max(), d) : d;
    const auto r = std::to_chars(buf, buf + sizeof buf, shown, std::chars_format::scientific);
    replace(start, pos_, std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    out_.numbers.push_back(ReplacedNumber{ordinal, std::string(token)});
    return true;
  }
};

}  // namespace

std::optional<Rewrite> rewrite(std::string_view text, std::size_t max_depth) { return Scanner(text, max_depth).run(); }

std::optional<ExactNumber> exact_number(std::string_view token) {
  std::size_t i = 0;
  const bool negative = i < token.size() && token[i] == '-';
  if (negative) ++i;
  std::string digits;
  const std::size_t int_start = i;
  while (i < token.size() && is_digit(token[i])) digits += token[i++];
  if (i == int_start || (digits.size() > 1 && digits.front() == '0')) return std::nullopt;
  std::int64_t exp10 = 0;
  if (i < token.size() && token[i] == '.') {
    ++i;
    const std::size_t frac_start = i;
    while (i < token.size() && is_digit(token[i])) digits += token[i++];
    if (i == frac_start) return std::nullopt;
    exp10 -= static_cast<std::int64_t>(i - frac_start);
  }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) exp_negative = token[i++] == '-';
    const std::size_t exp_start = i;
    std::int64_t e = 0;
    constexpr std::int64_t kCap = std::int64_t{1} << 52;  // saturates: no JSON text reaches it
    while (i < token.size() && is_digit(token[i])) {
      if (e < kCap) e = e * 10 + (token[i] - '0');
      ++i;
    }
    if (i == exp_start) return std::nullopt;
    exp10 += exp_negative ? -e : e;
  }
  if (i != token.size()) return std::nullopt;
  const std::size_t nz = digits.find_first_not_of('0');
  if (nz == std::string::npos) return ExactNumber{"0", true};
  digits.erase(0, nz);
  const std::size_t last = digits.find_last_not_of('0');
  exp10 += static_cast<std::int64_t>(digits.size() - 1 - last);
  digits.erase(last + 1);
  ExactNumber out;
  out.integer = exp10 >= 0;
  const std::string sign = negative ? "-" : "";
  const auto n = static_cast<std::int64_t>(digits.size());
  if (exp10 >= 0 && n + exp10 <= 400) {
    out.text = sign + digits + std::string(static_cast<std::size_t>(exp10), '0');
  } else if (exp10 < 0 && -exp10 <= n + 20) {
    const std::int64_t point = n + exp10;  // digits before the decimal point
    if (point > 0) {
      out.text = sign + digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
    } else {
      out.text = sign + "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    }
  } else {
    out.text = sign + digits + "e" + std::to_string(exp10);
  }
  return out;
}

}  // namespace mcptriage::json::rfc8259
