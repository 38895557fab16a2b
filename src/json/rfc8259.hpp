// An exact RFC 8259 reading of the texts simdjson 3.0.1 refuses though the RFC allows them:
// integers beyond 64 bits and numbers beyond the double range (RFC 8259 §6 sets no limit), and
// escaped unpaired surrogates (§8.2: allowed, their meaning left to the reader). A grammar check
// that rewrites such tokens into ones simdjson accepts, remembering the numbers it replaced, and
// the canonical text of a number's exact value. For src/json/ only (dom.cpp). Not public API.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcptriage::json::rfc8259 {

/// A number token the rewrite replaced: its place among the text's number tokens (0-based, in
/// document order) and its text as written.
struct ReplacedNumber {
  std::size_t ordinal = 0;
  std::string original;
};

/// `text` with every number simdjson refuses replaced by the nearest double in exponent form
/// (beyond the double range: the largest double of its sign) and every escaped unpaired
/// surrogate by `\ufffd`; what was replaced.
struct Rewrite {
  std::string text;
  std::vector<ReplacedNumber> numbers;
  std::size_t big_integers = 0;     ///< integer tokens beyond 64 bits (signed or unsigned)
  std::size_t out_of_range = 0;     ///< numbers beyond the double range (Infinity in JavaScript, Python)
  std::size_t lone_surrogates = 0;  ///< `\uD800`-`\uDFFF` escapes not in a pair
};

/// The rewrite of `text` when it is exactly one JSON value by RFC 8259's grammar (white space
/// around it allowed; UTF-8 is left to simdjson) and holds something to rewrite; nullopt
/// otherwise (not JSON by the grammar, nested deeper than `max_depth`, or nothing to rewrite).
std::optional<Rewrite> rewrite(std::string_view text, std::size_t max_depth);

/// The exact value of a JSON number token (RFC 8259 §6 grammar) as canonical text: equal values
/// give equal text (`1`, `1.0`, `10E-1` and `0.1e1` are all `1`; `-0` is `0`); an integer value
/// with up to 400 digits is written in full, other values as `DIGITSeEXP` or a decimal fraction.
struct ExactNumber {
  std::string text;
  bool integer = false;  ///< the value has no fractional part
};
std::optional<ExactNumber> exact_number(std::string_view token);

}  // namespace mcptriage::json::rfc8259
