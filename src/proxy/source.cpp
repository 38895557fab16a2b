// The proxy as a source of the run core (source.hpp).
#include "proxy/source.hpp"

#include <algorithm>
#include <ctime>

#include "json/dom.hpp"
#include "mcptriage/http.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/session.hpp"
#include "proxy/json_peek.hpp"

namespace mcptriage::proxy {

void ProxySource::produce(io::Feed& feed) {
  std::deque<Item> items;
  std::size_t entry = 0;
  while (true) {
    const bool more = queue_.wait(items, watcher_.next_deadline());
    for (Item& item : items) {
      if (auto* s = std::get_if<Started>(&item)) {
        notes(watcher_.started(*s));
        continue;
      }
      Captured& c = std::get<Captured>(item);
      // Not every exchange is MCP: the HAR reader's rule decides, on the entry a .har would hold
      // (a POST of a JSON-RPC message always is one, so its entry is made only for a .har).
      // The same rule then skips it when a .har recording is read back.
      // A response the proxy made itself (a 502, a 413) is always judged: the client got it.
      // A request body cut in its record (the record bound, the record memory) is no evidence
      // that the exchange is not MCP: it is judged, on what was kept.
      const bool maybe_skip = !c.made_by_proxy && !c.request_body_cut &&
                              (c.method != "POST" || peek_message(c.request_body).kind == MessageKind::other);
      const std::string har = maybe_skip || want_har_ ? har_entry(c) : std::string();
      std::optional<Skip> skip;
      if (maybe_skip) skip = skip_of(har);
      std::string line = exchange_line(c, skip);
      for (const auto& r : recordings_) r->write(line, har);
      // The bodies live on in the line: drop the copies before it is judged.
      std::string().swap(c.body);
      std::string().swap(c.request_body);
      ++entry;
      verdicts_.clear();
      current_ = &c;
      if (!failed_) {
        line += '\n';
        line.reserve(line.size() + json::kPadding);  // parsed in place (Feed::lines)
        guarded([&] { feed.lines(0, std::move(line), entry - 1, /*last=*/false, /*follow=*/true); });
      }
      current_ = nullptr;
      notes(watcher_.completed(c, verdicts_));
      ++counts_.exchanges;
      if (skip) ++counts_.skipped;
      if (!c.injected.empty()) ++counts_.injected[c.injected];
      if (response_made_by_proxy(c)) ++counts_.made;  // as the records' proxy.made_by: "proxy" (injected replies too)
      switch (c.end) {
        case BodyEnd::cut_upstream: ++counts_.cuts["upstream"]; break;
        case BodyEnd::cut_client: ++counts_.cuts["client"]; break;
        case BodyEnd::cut_shutdown: ++counts_.cuts["shutdown"]; break;
        case BodyEnd::cut_limit: ++counts_.cuts["record_bound"]; break;
        case BodyEnd::cut_rule: ++counts_.cuts["rule"]; break;
        case BodyEnd::complete: break;
      }
      budget_.give_back(c.budget_bytes);
    }
    items.clear();
    notes(watcher_.tick(Clock::now()));
    if (!more) break;
  }
  // Before the session's end (its summary), as the failures they follow.
  notes(watcher_.finish(Clock::now()));
  if (failed_) std::rethrow_exception(failed_);
}

void ProxySource::judged(std::span<Record> records, const SessionAnnotation& annotation) {
  if (current_ == nullptr || records.empty()) return;
  const Captured& c = *current_;
  std::optional<long long> retry_after;
  if (auto h = find_header(c.response_headers, "Retry-After")) {
    retry_after = http::retry_after_ms(*h, static_cast<long long>(std::time(nullptr)));
  }
  const auto members = std::make_shared<const std::string>(live_members(c, annotation.replay.has_value()));
  for (Record& r : records) {
    Verdict v;
    append_source_text(v.source, input_name_, r.source);
    const SessionFacts* facts = r.facts.get();
    if (facts != nullptr && facts->skipped) {
      v.skipped = true;
      v.skip_reason = std::string(to_string(facts->skipped->reason));
      verdicts_.push_back(std::move(v));
      continue;
    }
    r.live_members = members;
    v.outcome = r.c.outcome;
    v.reason = std::string(to_string(r.c.reason));
    v.http_status = r.c.http_status;
    v.failure = is_failure(r.c.outcome);
    v.advice = r.c.retry.advice;
    v.retry_after_ms = retry_after;
    v.method = r.c.method;
    if (facts != nullptr) {
      v.http_method = facts->http_method;
      if (const RequestInfo* sent = facts->request ? &*facts->request : nullptr) {
        if (sent->method && !sent->method->empty()) v.method = *sent->method;
        v.tool = sent->tool_name;
        v.params_hash = sent->params_hash;
        if (sent->id) v.request_id = sent->id->to_json();
        v.notification = sent->notification;
      }
      v.session_id = !facts->session_id.empty();
    }
    v.replay = annotation.replay;
    verdicts_.push_back(std::move(v));
  }
}

}  // namespace mcptriage::proxy
