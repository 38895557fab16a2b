// Fuzz target: format detection and every capture reader behind read_capture().
// Checks: deterministic, every exchange named "fuzz#N" in order with a format, one-line
// error messages, bodies within --max-body (and marked cut short when cut), and JSON Lines
// logs read block by block (the CLI's streaming path) give what one read gives.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "mcptriage/capture.hpp"

namespace {

void check_result(const std::expected<std::vector<mcptriage::Exchange>, mcptriage::CaptureError>& r,
                  const mcptriage::CaptureOptions& options) {
  if (!r) {
    if (r.error().message.empty()) fuzzcheck::fail("empty capture error message");
    if (r.error().message.find('\n') != std::string::npos) {
      fuzzcheck::fail("capture error message is not one line", r.error().message);
    }
    return;
  }
  if (r->empty()) fuzzcheck::fail("read_capture succeeded with no exchange");
  for (std::size_t i = 0; i < r->size(); ++i) {
    const mcptriage::Exchange& ex = (*r)[i];
    if (ex.source != "fuzz#" + std::to_string(i + 1)) fuzzcheck::fail("exchange source out of order", ex.source);
    if (to_string(ex.format).empty()) fuzzcheck::fail("exchange without a format", ex.source);
    if (ex.response.body.size() > options.max_body) fuzzcheck::fail("body larger than max_body", ex.source);
  }
}

bool same(const std::expected<std::vector<mcptriage::Exchange>, mcptriage::CaptureError>& a,
          const std::expected<std::vector<mcptriage::Exchange>, mcptriage::CaptureError>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return a.error().message == b.error().message;
  if (a->size() != b->size()) return false;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto& x = (*a)[i];
    const auto& y = (*b)[i];
    if (x.format != y.format || x.response.body != y.response.body || x.response.status != y.response.status ||
        x.response.body_state != y.response.body_state || x.warnings != y.warnings) {
      return false;
    }
  }
  return true;
}

/// The CLI reads big JSON Lines logs block by block (read_lines_block); split at a line end in
/// the middle, the blocks must give what one read_capture gives when the first block is
/// self-contained, or when it was read up to its first waiting exchange (`consumed`) and the
/// rest is read with the second block, the replies already read skipped (capture.hpp).
void check_blockwise(std::string_view bytes,
                     const std::expected<std::vector<mcptriage::Exchange>, mcptriage::CaptureError>& whole) {
  if (!whole || !mcptriage::is_json_lines(bytes)) return;
  const std::size_t cut = bytes.find('\n', bytes.size() / 2);
  if (cut == std::string_view::npos || cut + 1 >= bytes.size()) return;
  auto first = mcptriage::read_lines_block(bytes.substr(0, cut + 1), "fuzz", 0, {}, 0, false, /*more_follows=*/true);
  if (!first) return;
  std::size_t rest = cut + 1;
  if (first->consumed > 0) {
    if (first->consumed > cut + 1) fuzzcheck::fail("read_lines_block consumed more than it was given");
    rest = first->consumed;
  } else if (!first->self_contained) {
    return;
  }
  auto second = mcptriage::read_lines_block(bytes.substr(rest), "fuzz", first->exchanges.size(), {},
                                            first->consumed_lines, false, false, first->carry_skip);
  if (!second) return;
  std::vector<mcptriage::Exchange> parts = std::move(first->exchanges);
  for (auto& ex : second->exchanges) parts.push_back(std::move(ex));
  if (parts.size() != whole->size()) {
    fuzzcheck::fail("block-wise JSON Lines reading gives another exchange count",
                    std::to_string(parts.size()) + " vs " + std::to_string(whole->size()));
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& a = parts[i];
    const auto& b = (*whole)[i];
    if (a.source != b.source || a.response.body != b.response.body || a.response.status != b.response.status ||
        a.response.body_state != b.response.body_state) {
      fuzzcheck::fail("block-wise JSON Lines reading gives another exchange", a.source);
    }
  }
}

/// A followed log is read by one LinesStream fed a few lines at a time (io/pipeline.cpp): read
/// to its end, it gives the exchanges of one read_capture, in its order.
void check_streamed(std::string_view bytes,
                    const std::expected<std::vector<mcptriage::Exchange>, mcptriage::CaptureError>& whole) {
  if (!whole || !mcptriage::is_json_lines(bytes)) return;
  mcptriage::LinesStream stream("fuzz", {});
  std::vector<mcptriage::Exchange> parts;
  std::size_t pos = 0;
  std::size_t lines = 1;  // 1, 2, 3, 1, 2, 3... lines a block
  while (pos < bytes.size()) {
    std::size_t end = pos;
    for (std::size_t n = 0; n < lines && end < bytes.size(); ++n) {
      const std::size_t lf = bytes.find('\n', end);
      end = lf == std::string_view::npos ? bytes.size() : lf + 1;
    }
    lines = lines % 3 + 1;
    auto block = stream.read(bytes.substr(pos, end - pos), false, end == bytes.size());
    if (!block) return;  // an error on the first lines alone (a log of another shape so far)
    for (auto& ex : block->exchanges) parts.push_back(std::move(ex));
    pos = end;
  }
  if (parts.size() != whole->size()) {
    fuzzcheck::fail("JSON Lines read as a followed log gives another exchange count",
                    std::to_string(parts.size()) + " vs " + std::to_string(whole->size()));
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& a = parts[i];
    const auto& b = (*whole)[i];
    if (a.line != b.line || a.response.body != b.response.body || a.response.status != b.response.status ||
        a.response.body_state != b.response.body_state || a.warnings != b.warnings) {
      fuzzcheck::fail("JSON Lines read as a followed log gives another exchange", b.source);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  mcptriage::CaptureOptions options;
  const auto first = mcptriage::read_capture(bytes, "fuzz", options);
  check_result(first, options);
  if (!same(first, mcptriage::read_capture(bytes, "fuzz", options))) {
    fuzzcheck::fail("read_capture is not deterministic");
  }
  check_blockwise(bytes, first);
  check_streamed(bytes, first);
  // A small body limit exercises the cut-to-limit path on every input.
  mcptriage::CaptureOptions small;
  small.max_body = 64;
  const auto cut = mcptriage::read_capture(bytes, "fuzz", small);
  check_result(cut, small);
  if (cut) {
    for (const auto& ex : *cut) {
      if (ex.response.body.size() == small.max_body && ex.response.body_state == mcptriage::BodyState::complete) {
        // Exactly at the limit is fine only when nothing was cut: the full read must agree.
        bool found = false;
        if (first) {
          for (const auto& full : *first) found = found || full.response.body == ex.response.body;
        }
        if (!found) fuzzcheck::fail("body cut to max_body but still marked complete", ex.source);
      }
    }
  }
  return 0;
}
