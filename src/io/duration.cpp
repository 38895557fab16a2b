// The duration grammar (duration.hpp).
#include "io/duration.hpp"

namespace mcptriage::io {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::size_t k = 0;
  unsigned long long n = 0;
  while (k < text.size() && text[k] >= '0' && text[k] <= '9') {
    if (n > 1'000'000'000ULL) return std::nullopt;
    n = n * 10 + static_cast<unsigned long long>(text[k] - '0');
    ++k;
  }
  if (k == 0 || n == 0) return std::nullopt;
  const std::string_view unit = text.substr(k);
  const unsigned long long scale = unit == "ms"                  ? 1
                                   : unit.empty() || unit == "s" ? 1000
                                   : unit == "m"                 ? 60'000
                                   : unit == "h"                 ? 3'600'000
                                                                 : 0;
  if (scale == 0) return std::nullopt;
  return std::chrono::milliseconds(static_cast<long long>(n * scale));
}

std::string_view duration_grammar() { return "write a number and a unit, e.g. 30s, 2m, 500ms"; }

}  // namespace mcptriage::io
