// Writing a verdict (verdict.hpp): set_verdict() and the clipping of untrusted text in details.
#include <algorithm>
#include <array>

#include "mcptriage/verdict.hpp"

namespace mcptriage {

void set_verdict(Classification& c, Reason reason, std::string detail, std::string pointer) {
  c.outcome = outcome_of(reason);
  c.layer = layer_of(c.outcome);
  c.reason = reason;
  c.detail = std::move(detail);
  c.pointer = std::move(pointer);
}

void append_clipped(std::string& out, std::string_view s) {
  std::size_t cut = std::min(s.size(), kDetailTextMax);
  while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  static constexpr std::array<bool, 256> kWhite = [] {
    std::array<bool, 256> t{};
    t['\n'] = t['\r'] = t['\t'] = t[' '] = true;
    return t;
  }();
  // Copied whole, then folded in place: one pass, no append per word.
  const std::size_t start = out.size();
  out.append(s.data(), cut);
  char* const base = out.data() + start;
  std::size_t w = 0;
  bool in_white = false;
  for (std::size_t r = 0; r < cut; ++r) {
    const char ch = base[r];
    if (kWhite[static_cast<unsigned char>(ch)]) {
      if (!in_white) base[w++] = ' ';
      in_white = true;
    } else {
      base[w++] = ch;
      in_white = false;
    }
  }
  out.resize(start + w);
  if (cut < s.size()) out += "...";
}

std::string clipped(std::string_view s) {
  std::string out;
  append_clipped(out, s);
  return out;
}

}  // namespace mcptriage
