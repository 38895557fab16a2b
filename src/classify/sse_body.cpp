// Event-stream bodies, one event at a time (classify.hpp SseJudge; classification.md "SSE", "Only
// `message` events deliver" is the SSE parser's event type). The response whose id matches the
// request decides (the first response when the request id is unknown; an id-less error when no
// other answers); events before it that are notifications, server requests or not JSON are
// counted; a stream without it is STREAM_INCOMPLETE (resumable before 2026-07-28 when it set an
// event id), or INPUT_REQUIRED when it ends with a server's input request before 2026-07-28.
#include <fmt/format.h>

#include "classify/judge.hpp"
#include "jsonrpc/request.hpp"
#include "mcp/versions.hpp"

namespace mcptriage {
namespace classify_detail {
namespace {

using json::View;

/// The server-to-client requests that ask the client for input (MCP client/elicitation,
/// client/sampling, client/roots): a stream that ends with one waits for the client's answer.
bool is_input_request(std::string_view method) {
  return method == "elicitation/create" || method == "sampling/createMessage" || method == "roots/list";
}

/// Warnings of single events listed at the most; the others are counted (docs/classification.md "SSE").
constexpr std::size_t kListedEventWarnings = 16;

}  // namespace

/// The state of one event stream being judged: O(1) in the number of events (counts and indexes,
/// the verdicts of the deciding response and of a fallback judged when they arrive, the method of
/// the last server request, the fault of the first event that is not JSON), plus the warnings of
/// the first kListedEventWarnings events that raise one (a response for another id, a legacy
/// `endpoint` event, an event of another type than `message`) and a count of the rest.
class SseBody {
 public:
  SseBody(Judgement& judgement, Classification base) : j_(judgement), c_(std::move(base)) {}

  bool decided() const { return decider_.has_value(); }
  std::size_t events() const { return events_; }

  bool feed(const sse::Event& ev) {
    const std::size_t i = events_++;
    Parsed p = parse_json(body_parser(), ev.data);
    if (ev.type != "message" && !(ev.type == "endpoint" && !p.ok)) {
      other_type_event(i, ev.type, p);
      return decided();
    }
    if (!p.ok) {
      if (ev.type == "endpoint") {
        event_warning("an `endpoint` event (legacy 2024-11-05 HTTP+SSE transport) was skipped");
      } else if (!first_invalid_) {
        first_invalid_ = i;
        first_invalid_reason_ = p.reason;
        first_invalid_detail_ = std::move(p.detail);
      }
      only_notifications_since_request_ = false;
      return decided();
    }
    if (!p.leniency.empty()) event_warning(fmt::format("event {}: {}", i + 1, p.leniency));
    const View root = p.root;
    bool notification = false;
    if (root.is_object()) {
      auto method = root.string_at("method");
      auto idv = root.get("id");
      if (method) {
        if (idv) {
          last_server_request_ = i;
          last_server_request_method_ = std::string(*method);
          only_notifications_since_request_ = true;
          return decided();
        }
        ++notifications_;
        notification = true;
      } else if (decided()) {
        if (!second_response_ && !decided_batch_) note_second_response(i, root);
      } else {
        std::optional<JsonRpcId> id;
        if (idv) id = jsonrpc::id_of(*idv);
        const bool is_error = root.get("error").has_value();
        if (!c_.request_id || (id && *id == *c_.request_id)) {
          decide(i, root);
        } else if (is_error && (!id || id->kind == JsonRpcId::Kind::null)) {
          if (!fallback_) {
            fallback_ = i;
            judge(root, fallback_records_);
          }
        } else {
          if (listing()) {
            event_warning(fmt::format("event {} is a response for another id ({})", i + 1,
                                      id ? id->to_json() : std::string("none")));
          } else {
            ++unlisted_warnings_;
          }
          if (!other_id_) {
            // Judged now (the View lasts until the next parse): the id_mismatch of a stream that
            // ends without the response, as for a JSON body.
            other_id_ = i;
            judge(root, other_id_records_);
          }
        }
      }
    } else if (root.is_array()) {
      // A batch inside one event (2025-03-26): its element answering the request decides.
      if (!decided()) decide(i, root);
    }
    if (!notification) only_notifications_since_request_ = false;
    return decided();
  }

  /// An event of another type than `message` (docs/classification.md "SSE"): EventSource-style
  /// clients never deliver it (WHATWG HTML, "dispatch the event": only `message` events reach
  /// `onmessage`; the TypeScript and Python SDK clients read no other type). It is skipped with a
  /// warning; a response in it that would have decided is remembered, for a stream that ends
  /// without a response in a `message` event.
  void other_type_event(std::size_t i, const std::string& type, const Parsed& p) {
    std::string what = "data that is not JSON";
    if (p.ok && p.root.is_object()) {
      const View root = p.root;
      auto method = root.string_at("method");
      auto idv = root.get("id");
      if (method) {
        what = fmt::format("a {} {}", idv ? "server request" : "notification", clipped(*method));
      } else {
        std::optional<JsonRpcId> id;
        if (idv) id = jsonrpc::id_of(*idv);
        const bool answers = !c_.request_id || (id && *id == *c_.request_id);
        what = answers ? std::string("the response") : fmt::format("a response for another id ({})", id ? id->to_json() : "none");
        if (answers && !decided() && !other_type_response_) {
          other_type_response_ = i;
          other_type_ = type;
        }
      }
    } else if (p.ok && p.root.is_array()) {
      what = "a batch";
      if (!decided() && !other_type_response_) {
        other_type_response_ = i;
        other_type_ = type;
      }
    } else if (p.ok) {
      what = "JSON that is no JSON-RPC message";
    }
    event_warning(fmt::format("event {} is of type `{}`, not `message`: {} in it is never delivered to EventSource-style "
                              "clients (the TypeScript and Python SDKs); skipped",
                              i + 1, clipped(type), what));
  }

  void finish(const SseStreamEnd& end, std::vector<Classification>& out) {
    Classification& c = c_;
    c.sse_events = events_;
    c.stream_retry_ms = end.retry_ms;
    if (end.unterminated_tail) c.warnings.push_back("the stream ended inside an event; that event was dropped (WHATWG rule)");
    if (end.cut_short && !end.cut_at_limit) {
      // Only a Content-Length announces a length (RFC 9112 §6.3); a chunked stream, or one that runs
      // to the connection's end, was cut before its end (the server's, the client's or the capture's doing).
      const Headers& h = j_.exchange().response.headers;
      const bool announced = find_header(h, "content-length").has_value() && !find_header(h, "transfer-encoding");
      c.warnings.push_back(announced ? "the body was cut short of its announced length"
                                     : "the stream was cut before its end (no length was announced: the connection "
                                       "closed, or the capture ends there)");
    }
    c.warnings.insert(c.warnings.end(), std::make_move_iterator(event_warnings_.begin()),
                      std::make_move_iterator(event_warnings_.end()));
    if (unlisted_warnings_ > 0) {
      c.warnings.push_back(fmt::format("{} more event(s) skipped with a warning (responses for other ids, `endpoint` "
                                       "events, events of other types): only the first {} are listed",
                                       unlisted_warnings_, kListedEventWarnings));
    }
    if (!decider_ && fallback_) {
      decider_ = fallback_;
      decided_records_ = std::move(fallback_records_);
      decided_batch_ = false;
    }
    if (decider_) {
      finish_decided(end, out);
      return;
    }
    std::string v = c.protocol_version;
    if (v.empty()) v = j_.version_for(c, std::nullopt, false);
    // No final response.
    if (end.cut_at_limit) {
      // mcptriage's own cut, not the server's: nothing after it can be judged (as for a JSON body).
      set_verdict(c, Reason::cut_at_limit,
                  fmt::format("the event stream is larger than --max-body and was cut there after {} event{}, before "
                              "any final response; raise --max-body to judge it",
                              events_, events_ == 1 ? "" : "s"));
      out.push_back(std::move(c));
      return;
    }
    if (other_type_response_) {
      c.resumable = false;
      set_verdict(c, Reason::event_type_not_message,
                  fmt::format("the response came only in SSE event {} of type `{}`; EventSource-style clients deliver "
                              "only `message` events, so the call never gets it ({} event{})",
                              *other_type_response_ + 1, clipped(other_type_), events_, events_ == 1 ? "" : "s"));
      out.push_back(std::move(c));
      return;
    }
    if (first_invalid_) {
      set_verdict(c, first_invalid_reason_,
                  fmt::format("SSE event {} that may carry the response: {}", *first_invalid_ + 1, first_invalid_detail_));
      out.push_back(std::move(c));
      return;
    }
    const bool server_requests = mcp::in_force(mcp::Rule::server_requests_on_stream, v);
    if (last_server_request_ && !server_requests) {
      c.warnings.push_back(fmt::format("the stream carries a server-to-client {} request: forbidden from 2026-07-28",
                                       last_server_request_method_));
    }
    if (last_server_request_ && server_requests && only_notifications_since_request_ &&
        is_input_request(last_server_request_method_)) {
      set_verdict(c, Reason::server_request_pending,
                  fmt::format("the stream ends with the server's {} request and no final response: answer it",
                              last_server_request_method_));
      out.push_back(std::move(c));
      return;
    }
    if (other_id_) {
      // The server answered, with another id: INVALID_ENVELOPE/id_mismatch as for a JSON body
      // (MCP basic, "Responses": the same id as the request), not a stream to resume.
      decider_ = other_id_;
      decided_records_ = std::move(other_id_records_);
      decided_batch_ = false;
      decided_other_id_ = true;
      for (Classification& rec : decided_records_) {
        rec.detail = fmt::format("SSE event {}: {}; the stream ended with no response for request id {}",
                                 *other_id_ + 1, rec.detail, c.request_id ? c.request_id->to_json() : "?");
      }
      finish_decided(end, out);
      return;
    }
    c.resumable = end.any_id && mcp::in_force(mcp::Rule::stream_resumption, v);
    if (events_ == 0 && end.empty_data_events == 0) {
      set_verdict(c, Reason::empty_stream,
                  end.unterminated_tail ? "the stream ended inside its first event: no message was delivered"
                                        : "the server opened an event stream and sent no event");
    } else {
      set_verdict(c, Reason::no_final_response_stream,
                  fmt::format("the stream ended without the final response ({} event{}, {} notification{}{})", events_,
                              events_ == 1 ? "" : "s", notifications_, notifications_ == 1 ? "" : "s",
                              end.empty_data_events ? fmt::format(", {} priming", end.empty_data_events) : std::string()));
    }
    if (*c.resumable) c.detail += fmt::format("; resumable from event id {}", clipped(end.last_event_id));
    out.push_back(std::move(c));
  }

 private:
  /// Judges a deciding message (or batch) at once, with no warnings of its own yet: finish() puts
  /// the stream's warnings before the ones the judging adds, as a whole-body reading would.
  void judge(View root, std::vector<Classification>& records) {
    Classification d = c_;
    d.warnings.clear();
    if (root.is_array()) {
      j_.judge_batch(d, root, records);
      return;
    }
    j_.judge_message(d, root, "");
    records.push_back(std::move(d));
  }

  bool listing() const { return event_warnings_.size() < kListedEventWarnings; }
  void event_warning(std::string text) {
    if (listing()) event_warnings_.push_back(std::move(text));
    else ++unlisted_warnings_;
  }

  void decide(std::size_t i, View root) {
    decider_ = i;
    decided_batch_ = root.is_array();
    if (!decided_batch_) {
      if (auto idv = root.get("id")) decided_id_ = jsonrpc::id_of(*idv);
    }
    judge(root, decided_records_);
  }

  /// A response after the deciding one, for the same id (the request's, else the decider's): a
  /// second answer to one request (JSON-RPC 2.0 §5: exactly one response), named in a warning; a
  /// gateway's own error (a -32001 timeout) followed by the server's late response looks so.
  void note_second_response(std::size_t i, View root) {
    auto idv = root.get("id");
    if (!idv) return;
    const std::optional<JsonRpcId> id = jsonrpc::id_of(*idv);
    const std::optional<JsonRpcId>& want = c_.request_id ? c_.request_id : decided_id_;
    if (!id || !want || !(*id == *want) || id->kind == JsonRpcId::Kind::null) return;
    second_response_ = i;
    if (auto err = root.get("error"); err && err->is_object()) {
      auto code = err->get("code");
      auto message = err->string_at("message");
      second_response_what_ = fmt::format("an error{}{}", code ? " " + json::minified(*code) : std::string(),
                                          message ? ": " + clipped(*message) : std::string());
    } else {
      second_response_what_ = root.get("result") ? "a result" : "neither a result nor an error";
    }
  }

  void finish_decided(const SseStreamEnd& end, std::vector<Classification>& out) {
    Classification& c = c_;
    const std::size_t i = *decider_;
    if (i + 1 < events_ && !decided_other_id_) {
      c.warnings.push_back(fmt::format("{} more event(s) after the final response", events_ - i - 1));
    }
    if (second_response_) {
      c.warnings.push_back(fmt::format("event {} is a second response for id {} ({}): a request gets one response; the "
                                       "first, event {}, decides",
                                       *second_response_ + 1, decided_id_ ? decided_id_->to_json() : std::string("?"),
                                       second_response_what_, i + 1));
    }
    if (notifications_ > 0) c.warnings.push_back(fmt::format("{} notification(s) before the response", notifications_));
    if (first_invalid_ && *first_invalid_ < i) {
      c.warnings.push_back(
          fmt::format("event {} was not valid JSON ({}); skipped", *first_invalid_ + 1, to_string(first_invalid_reason_)));
    }
    for (Classification& rec : decided_records_) {
      std::vector<std::string> own = std::move(rec.warnings);
      rec.warnings = c.warnings;
      rec.warnings.insert(rec.warnings.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
      rec.sse_events = events_;
      if (second_response_) rec.second_response_event = *second_response_ + 1;
      if (!rec.stream_retry_ms) rec.stream_retry_ms = end.retry_ms;
      if (!decided_batch_ && last_server_request_ && *last_server_request_ < i &&
          !mcp::in_force(mcp::Rule::server_requests_on_stream, rec.protocol_version) &&
          rec.protocol_version_source != "assumed") {
        rec.warnings.push_back("a server-to-client request on the stream: forbidden from 2026-07-28");
      }
      out.push_back(std::move(rec));
    }
  }

  Judgement& j_;
  Classification c_;                        ///< the base record; the stream's warnings gather here
  std::vector<std::string> event_warnings_;  ///< warnings raised by single events, in order (the first few)
  std::size_t unlisted_warnings_ = 0;        ///< and how many more were raised
  std::size_t events_ = 0;
  std::size_t notifications_ = 0;            ///< in the whole stream
  std::optional<std::size_t> decider_;       ///< index of the deciding event
  bool decided_batch_ = false;               ///< it carried a batch
  std::optional<JsonRpcId> decided_id_;       ///< the deciding response's id (not for a batch)
  std::optional<std::size_t> second_response_;  ///< a later response for the same id, the first such
  std::string second_response_what_;           ///< "a result", "an error -32001: ..."
  std::vector<Classification> decided_records_;
  std::optional<std::size_t> other_id_;      ///< the first response for another id, used when no other verdict
  std::vector<Classification> other_id_records_;
  bool decided_other_id_ = false;            ///< it decided: the stream ended without the response
  std::optional<std::size_t> fallback_;      ///< the first id-less (or null-id) error, used if nothing decides
  std::vector<Classification> fallback_records_;
  std::optional<std::size_t> last_server_request_;
  std::string last_server_request_method_;
  bool only_notifications_since_request_ = true;  ///< every event after the last server request is a notification
  std::optional<std::size_t> other_type_response_;  ///< the first event of another type than `message` holding
                                                   ///< the response (or a batch), which no client is given
  std::string other_type_;                         ///< its type
  std::optional<std::size_t> first_invalid_;      ///< the first event that is not JSON (but `endpoint` events)
  Reason first_invalid_reason_ = Reason::invalid_json;
  std::string first_invalid_detail_;
};

void Judgement::judge_sse_body(Classification c, std::string_view body, std::vector<Classification>& out) {
  const sse::Stream stream = sse::parse(body);
  SseBody judge(*this, std::move(c));
  for (const sse::Event& ev : stream.events) judge.feed(ev);
  SseStreamEnd end = SseStreamEnd::of(stream, ex_.response.body_state == BodyState::truncated);
  end.cut_at_limit = end.cut_short && ex_.response.cut_at_max_body;
  judge.finish(end, out);
}

}  // namespace classify_detail

SseStreamEnd SseStreamEnd::of(const sse::Stream& stream, bool cut_short) {
  SseStreamEnd end;
  end.empty_data_events = stream.empty_data_events;
  end.retry_ms = stream.retry_ms;
  end.last_event_id = stream.last_event_id;
  end.any_id = stream.any_id;
  end.unterminated_tail = stream.unterminated_tail;
  end.cut_short = cut_short;
  return end;
}

struct SseJudge::State {
  State(const Exchange& h, const ContextFlags& f, long long now, ReadAlong* along)
      : head(h), flags(f), judgement(head, flags, now, along) {}
  Exchange head;
  ContextFlags flags;
  classify_detail::Judgement judgement;
  std::optional<classify_detail::SseBody> body;
};

SseJudge::SseJudge(std::unique_ptr<State> state) : state_(std::move(state)) {}
SseJudge::~SseJudge() = default;
SseJudge::SseJudge(SseJudge&&) noexcept = default;
SseJudge& SseJudge::operator=(SseJudge&&) noexcept = default;

std::optional<SseJudge> SseJudge::start(const Exchange& head, const ContextFlags& flags, long long now_unix_seconds,
                                        ReadAlong* along) {
  if (along) *along = ReadAlong{};
  auto state = std::make_unique<State>(head, flags, now_unix_seconds, along);
  Classification c = state->judgement.base();
  std::vector<Classification> decided;
  if (state->judgement.transport(c, decided) != classify_detail::Judgement::Framing::sse) return std::nullopt;
  state->body.emplace(state->judgement, std::move(c));
  return SseJudge(std::move(state));
}

bool SseJudge::feed(const sse::Event& event) { return state_->body->feed(event); }

bool SseJudge::decided() const { return state_->body->decided(); }

std::size_t SseJudge::events() const { return state_->body->events(); }

std::vector<Classification> SseJudge::finish(const SseStreamEnd& end) {
  std::vector<Classification> out;
  state_->body->finish(end, out);
  classify_detail::apply_live_end(end.live_end, out);
  state_->judgement.finish(out);
  return out;
}

}  // namespace mcptriage
