// Server-sent events: the WHATWG HTML "event stream interpretation" algorithm.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcptriage::sse {

/// One dispatched event. Source: WHATWG HTML §9.2.6 "Interpreting an event stream".
struct Event {
  std::string type = "message";  ///< the `event` field, "message" when not set
  std::string data;              ///< `data` lines joined with LF, one trailing LF removed
  std::string last_event_id;     ///< the stream's last event id when this event was dispatched
  bool id_set_here = false;      ///< this event's block had its own `id` field
};

/// The result of parsing a whole captured stream.
struct Stream {
  std::vector<Event> events;          ///< dispatched events, in order (empty-data blocks excluded)
  std::size_t empty_data_events = 0;  ///< blocks dispatched with a `data` field whose data was ""
                                      ///< (MCP 2025-11-25 priming events); not in `events`
  std::size_t comments = 0;           ///< `:` comment lines (keep-alives)
  std::optional<long long> retry_ms;  ///< last valid `retry` field, milliseconds
  std::string last_event_id;          ///< last event id at the end of the stream
  bool any_id = false;                ///< some block set a non-empty `id`
  bool unterminated_tail = false;     ///< the stream ended inside an event (dropped per spec)
};

/// Parses `body` as an event stream. Line ends CR, LF or CRLF; a leading UTF-8 BOM is
/// ignored; `:` lines are comments; one space after the colon is stripped; an event not
/// followed by a blank line is discarded (sets `unterminated_tail`). Never fails.
Stream parse(std::string_view body);

}  // namespace mcptriage::sse
