// Fuzz target: the WHATWG event-stream parser.
// Checks: deterministic; event data never empty and free of CR; re-serialising the events
// (event/data fields, blank-line terminated) and parsing again gives the same types and data.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "mcptriage/sse.hpp"

namespace sse = mcptriage::sse;
using fuzzcheck::fail;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const sse::Stream a = sse::parse(bytes);
  const sse::Stream b = sse::parse(bytes);
  if (a.events.size() != b.events.size() || a.empty_data_events != b.empty_data_events ||
      a.comments != b.comments || a.retry_ms != b.retry_ms || a.last_event_id != b.last_event_id ||
      a.unterminated_tail != b.unterminated_tail) {
    fail("sse::parse is not deterministic");
  }
  if (a.retry_ms && *a.retry_ms < 0) fail("negative retry");
  std::string again;
  for (const sse::Event& ev : a.events) {
    if (ev.data.empty()) fail("dispatched event with empty data");
    if (ev.data.find('\r') != std::string::npos) fail("event data holds CR", ev.data);
    if (ev.type.empty() || ev.type.find_first_of("\r\n") != std::string::npos) fail("bad event type", ev.type);
    if (ev.type != "message") again += "event: " + ev.type + "\n";
    std::size_t start = 0;
    while (true) {
      const std::size_t lf = ev.data.find('\n', start);
      again += "data: " + ev.data.substr(start, lf == std::string::npos ? std::string::npos : lf - start) + "\n";
      if (lf == std::string::npos) break;
      start = lf + 1;
    }
    again += "\n";
  }
  const sse::Stream c = sse::parse(again);
  if (c.events.size() != a.events.size() || c.unterminated_tail) fail("re-serialised stream differs (count)");
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (c.events[i].data != a.events[i].data || c.events[i].type != a.events[i].type) {
      fail("re-serialised event differs", a.events[i].data);
    }
  }
  return 0;
}
