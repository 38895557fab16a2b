// Fuzz target: the whole pipeline, read_capture -> classify -> render_jsonl and render_table,
// without and with request context flags.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_checks.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/render.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto exchanges = mcptriage::read_capture(bytes, "fuzz", {});
  if (!exchanges) return 0;
  mcptriage::ContextFlags with_id;
  with_id.id = mcptriage::JsonRpcId{mcptriage::JsonRpcId::Kind::integer, "1"};
  with_id.method = "tools/call";
  std::vector<mcptriage::Record> records;
  for (const auto& ex : *exchanges) {
    for (const mcptriage::ContextFlags& flags : {mcptriage::ContextFlags{}, with_id}) {
      for (auto& r : fuzzcheck::classify_checked(ex, flags)) records.push_back(std::move(r));
    }
  }
  fuzzcheck::check_table(mcptriage::render_table(records, "fuzz", false), false);
  fuzzcheck::check_table(mcptriage::render_table(records, "fuzz", true), true);
  return 0;
}
