// curl -v stderr/stdout pairing by file name (body_pairing.hpp).
#include "io/body_pairing.hpp"

#include <filesystem>
#include <string_view>
#include <system_error>

namespace mcptriage::io {

namespace {

namespace fs = std::filesystem;

/// `path` with the last `from` in its file name (preceded by `-`, `_` or `.`) replaced by `to`.
std::optional<fs::path> swap_word(const std::string& path, std::string_view from, std::string_view to) {
  const fs::path p(path);
  std::string name = p.filename().string();
  const std::size_t at = name.rfind(from);
  if (at == std::string::npos || at == 0) return std::nullopt;
  const char before = name[at - 1];
  if (before != '-' && before != '_' && before != '.') return std::nullopt;
  name.replace(at, from.size(), to);
  return p.parent_path() / name;
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::optional<std::string> paired_body_path(const std::string& path) {
  if (path.find("stderr") == std::string::npos) return std::nullopt;  // most captures: no path work
  auto other = swap_word(path, "stderr", "stdout");
  if (!other || !is_file(*other)) return std::nullopt;
  return other->string();
}

bool is_paired_body(const std::string& path) {
  auto other = swap_word(path, "stdout", "stderr");
  return other && is_file(*other);
}

}  // namespace mcptriage::io
