// The session walk: pairing by id, the POST sequence, replays and their safety, outputSchema
// checks, and the summary. Rules: docs/output.md "Sessions"; MCP basic §Requests (ids unique
// within a session), server/tools §Tool annotations and §Output schema.
#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "json/dom.hpp"
#include "mcptriage/advice.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

/// The record carries a JSON-RPC response (result or error) for its request.
bool answered(const Classification& c) {
  switch (c.outcome) {
    case Outcome::TOOL_SUCCESS:
    case Outcome::TOOL_ERROR:
    case Outcome::RPC_SUCCESS:
    case Outcome::INPUT_REQUIRED:
    case Outcome::TASK_CREATED:
    case Outcome::JSONRPC_ERROR:
    case Outcome::INVALID_TOOL_RESULT:
    case Outcome::INVALID_RESULT: return true;
    case Outcome::HTTP_ERROR: return c.error_code.has_value();
    default: return false;
  }
}

/// The failure ended the request's session: the server no longer knows it (a 404 after a session
/// id, a 400 or a JSON-RPC error naming the session; MCP basic/transports §Session management).
bool ends_session(const Classification& c) {
  return c.reason == Reason::session_expired || c.reason == Reason::session_invalid ||
         c.reason == Reason::session_not_found || c.body_hint == BodyHint::session_gone;
}

std::string what_of(Outcome o, const std::string& reason, int status) {
  if (o == Outcome::HTTP_ERROR || status >= 300) return fmt::format("{} ({}, HTTP {})", to_string(o), reason, status);
  return fmt::format("{} ({})", to_string(o), reason);
}

}  // namespace

std::string_view to_string(ReplaySafety s) {
  switch (s) {
    case ReplaySafety::safe: return "safe";
    case ReplaySafety::unsafe: return "unsafe";
    case ReplaySafety::unknown: return "unknown";
  }
  return "unknown";
}

bool is_failure(Outcome o) {
  switch (o) {
    case Outcome::TOOL_SUCCESS:
    case Outcome::RPC_SUCCESS:
    case Outcome::ACCEPTED:
    case Outcome::INPUT_REQUIRED:
    case Outcome::TASK_CREATED:
    case Outcome::NOT_CAPTURED:
    case Outcome::AUTH_LEG: return false;  // judged by its flow (auth_flow), not as an exchange
    default: return true;
  }
}

namespace {

using json::mix64;

/// A hash map from 64-bit keys that forgets the keys put more than a window of entries ago
/// (SessionTracker::kWindow), so that a capture of any length costs bounded memory. Flat
/// (absl::flat_hash_map: no allocation per key); old keys go in sweeps (forget()).
template <typename V>
class Window {
 public:
  V* find(std::uint64_t key) {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second.value;
  }
  bool contains(std::uint64_t key) const { return map_.contains(key); }
  std::size_t size() const { return map_.size(); }
  /// Sets `key` to `value`, put at entry `entry` (its age from now on). A new key is refused
  /// when the map holds kCap keys already (one entry can put many: a batch reply).
  void put(std::uint64_t key, V value, std::size_t entry) {
    if (map_.size() >= kCap && !map_.contains(key)) return;
    map_.insert_or_assign(key, Slot{std::move(value), entry});
  }
  void erase(std::uint64_t key) { map_.erase(key); }
  /// Forgets every key put before entry `oldest`; calls `forgotten(value)` for each.
  template <typename F>
  void forget(std::size_t oldest, F&& forgotten) {
    for (auto it = map_.begin(); it != map_.end();) {
      if (it->second.entry < oldest) {
        forgotten(it->second.value);
        map_.erase(it++);
      } else {
        ++it;
      }
    }
  }
  template <typename F>
  void for_each(F&& f) const {
    for (const auto& [key, slot] : map_) f(slot.value);
  }

 private:
  static constexpr std::size_t kCap = 2 * SessionTracker::kWindow;
  struct Slot {
    V value;
    std::size_t entry = 0;
  };
  absl::flat_hash_map<std::uint64_t, Slot> map_;
};

struct Nothing {};

/// The key of tool `name` in the session of `f`: its server and Mcp-Session-Id ("" when the
/// capture does not show them), then the name.
std::string tool_key(const SessionFacts& f, std::string_view name) {
  std::string key;
  key.reserve(f.server.size() + f.session_id.size() + name.size() + 2);
  key.append(f.server).push_back('\0');
  key.append(f.session_id).push_back('\0');
  key.append(name);
  return key;
}

}  // namespace

struct SessionTracker::State {
  std::string name;  ///< the capture's name, for the sources cited
  SessionSummary summary;
  std::array<std::size_t, kOutcomeCount> outcomes{};  ///< records by outcome (summary.outcomes at the end)
  std::deque<int> statuses;  ///< the last kMaxStatuses statuses
  std::size_t statuses_total = 0;
  std::size_t initializes = 0;  ///< scopes of requests without a session id
  /// The primary source and the method of the last kRing entries, by entry % kRing: what the
  /// keys below point at (a key lives less than kRing entries: forget_old()).
  static constexpr std::size_t kRing = kWindow + kWindow / 4;
  struct EntryText {
    std::string source;
    std::string method;
  };
  std::vector<EntryText> entries;  ///< grows to kRing with the first entries (a one-file input costs one)
  const EntryText& entry_text(std::size_t entry) const { return entries[entry % kRing]; }
  EntryText& new_entry(std::size_t entry) {
    if (entries.size() < kRing) return entries.emplace_back();  // entries come numbered 0, 1, 2, ...
    return entries[entry % kRing];
  }
  Window<std::size_t> request_by_key;   ///< hash(scope, id) -> the entry of the last request
  Window<Nothing> request_ids;          ///< hash(id) of every request id
  Window<std::size_t> answered_by_id;   ///< hash(id) -> the entry of its answer
  struct Open {
    std::size_t order = 0;
    Unanswered info;
  };
  Window<Open> unanswered;                    ///< hash(scope, id) -> the request still unanswered
  Window<std::uint64_t> unanswered_key;       ///< hash(id) -> its latest key in `unanswered`
  std::size_t unanswered_order = 0;
  std::vector<Unanswered> forgotten_unanswered;  ///< unanswered when they left the window (at most kMaxListed)
  std::size_t forgotten_unanswered_total = 0;
  std::vector<std::string> forgotten_methods;     ///< their methods, each once, in order
  struct Attempt {
    std::size_t entry = 0;
    Outcome outcome = Outcome::NOT_CAPTURED;
    bool failed = false;
    std::uint64_t id = 0;                  ///< hash of the request id
    std::vector<std::uint64_t> unanswered; ///< keys of this call's attempts still unanswered
    std::string session_id;                ///< the Mcp-Session-Id it was sent with ("" for none)
  };
  Window<Attempt> attempts;  ///< hash(session id, server, method, params) -> last attempt
  /// hash(server, method, params) -> the last attempt whose failure ended its session (404 after a
  /// session id, a body naming the session): the one request another session may replay.
  Window<Attempt> ended_attempts;
  /// By tool_key (server, session id, name): the latest definition. A tool belongs to the session
  /// (and server) whose tools/list defined it, as request ids do: an interleaving gateway log must
  /// not judge one session's tools/call by another's outputSchema.
  std::unordered_map<std::string, ToolDefinition> tools;
  std::unordered_map<std::string, ToolDefinition> given_tools;  ///< by name: --tools FILE, for every session
  /// The definition of tool `tool` for a call with facts `f`: its session's, else a given one.
  const ToolDefinition* find_tool(const SessionFacts& f, std::string_view tool) const {
    if (auto it = tools.find(tool_key(f, tool)); it != tools.end()) return &it->second;
    if (auto it = given_tools.find(std::string(tool)); it != given_tools.end()) return &it->second;
    return nullptr;
  }
  bool tools_forgotten = false;                           ///< more than kMaxTools names were defined
  bool tools_call_seen = false;
  bool tools_call_after_failure = false;
  std::size_t posts_after_failure = 0;
  std::size_t replays_total = 0;
  bool requests_forgotten = false;  ///< some request ids left the window: an unknown id may be one of them

  /// Forgets the keys of entries that left the window (`entry` is the newest). Sweeps every
  /// quarter window: a key is kept for at least kWindow entries and at most 5/4 of that.
  void forget_old(std::size_t entry) {
    constexpr std::size_t kSweep = kWindow / 4;
    if (entry < kWindow || entry % kSweep != 0) return;
    const std::size_t oldest = entry - kWindow + 1;
    auto none = [](const auto&) {};
    request_by_key.forget(oldest, none);
    request_ids.forget(oldest, [this](const auto&) { requests_forgotten = true; });
    answered_by_id.forget(oldest, none);
    unanswered_key.forget(oldest, none);
    attempts.forget(oldest, none);
    ended_attempts.forget(oldest, none);
    // Requests not answered within the window: what the summary reports, oldest first.
    std::vector<Open> gone;
    unanswered.forget(oldest, [&gone](const Open& o) { gone.push_back(o); });
    std::sort(gone.begin(), gone.end(), [](const Open& x, const Open& y) { return x.order < y.order; });
    for (const Open& o : gone) {
      ++forgotten_unanswered_total;
      if (forgotten_unanswered.size() < kMaxListed) forgotten_unanswered.push_back(o.info);
      const std::string m = o.info.method.empty() ? "?" : o.info.method;
      if (forgotten_methods.size() < kMaxListed &&
          std::find(forgotten_methods.begin(), forgotten_methods.end(), m) == forgotten_methods.end()) {
        forgotten_methods.push_back(m);
      }
    }
  }
};

void SessionTracker::set_input_name(std::string input_name) { state_->name = std::move(input_name); }

SessionTracker::SessionTracker(std::string input_name) : state_(std::make_unique<State>()) {
  state_->name = std::move(input_name);
}
SessionTracker::~SessionTracker() = default;
SessionTracker::SessionTracker(SessionTracker&&) noexcept = default;
SessionTracker& SessionTracker::operator=(SessionTracker&&) noexcept = default;

void Amendment::apply(Classification& c) const {
  if (verdict) {
    c.outcome = verdict->outcome;
    c.layer = layer_of(c.outcome);
    c.reason = verdict->reason;
    c.detail = verdict->detail;
    c.pointer = verdict->pointer;
  }
  for (const std::string& w : warnings) c.warnings.push_back(w);
}

SessionAnnotation SessionTracker::add(const SessionFacts& f, const std::vector<const Classification*>& records,
                                      SourceRef exchange) {
  State& s = *state_;
  SessionSummary& sum = s.summary;
  SessionAnnotation a;
  a.entry = sum.entries++;
  s.forget_old(a.entry);
  State::EntryText& here = s.new_entry(a.entry);
  here.source.clear();
  here.method.clear();
  if (f.skipped) {
    ++sum.skipped;
    ++sum.skipped_reasons[std::string(to_string(f.skipped->reason))];
    return a;
  }
  // The text of record k: element k of the exchange when it gave several records.
  auto source_of = [&](std::size_t k) {
    SourceRef ref = exchange;
    ref.element = records.size() > 1 ? std::optional<std::size_t>(k) : std::nullopt;
    return source_text(s.name, ref);
  };
  if (!records.empty()) {
    SourceRef first = exchange;
    first.element = records.size() > 1 ? std::optional<std::size_t>(0) : std::nullopt;
    append_source_text(here.source, s.name, first);  // in place: cleared above, its room kept
  }
  const std::string& source = here.source;
  auto finding = [&](std::string code, std::string detail) {
    ++sum.findings[code];
    a.findings.push_back(SessionFinding{std::move(code), std::move(detail)});
  };
  const Classification* primary = records.empty() ? nullptr : records.front();
  // The captured request (RequestInfo); its id keyed as JsonRpcId::to_json(), as replies' ids are.
  const bool request_captured = f.request.has_value();
  const std::optional<std::string> request_id =
      request_captured && f.request->id ? std::optional<std::string>(f.request->id->to_json()) : std::nullopt;
  static const std::string kNone;
  const std::string& request_method = request_captured && f.request->method ? *f.request->method : kNone;
  const bool request_notification = request_captured && f.request->notification;
  const std::string& tool_name = request_captured ? f.request->tool_name : kNone;
  const std::uint64_t params_hash = request_captured ? f.request->params_hash : 0;
  std::optional<Classification> amended;  ///< the first record as the outputSchema check amends it
  here.method = !request_method.empty() ? request_method : (primary ? primary->method : std::string());
  const std::string& method = here.method;

  // The POST sequence (a GET resumes a stream; it is no POST).
  if (f.http_method.empty() || f.http_method == "POST") {
    a.post_index = ++sum.posts;
    if (f.transport_captured) {  // a message stream (stdio) has no HTTP status to list
      s.statuses.push_back(f.http_status);
      ++s.statuses_total;
      if (s.statuses.size() > kMaxStatuses) s.statuses.pop_front();
    }
    a.http_statuses.assign(s.statuses.begin(), s.statuses.end());
    a.http_statuses_omitted = s.statuses_total - s.statuses.size();
    if (sum.first_failure) ++s.posts_after_failure;
  }
  if (method == "tools/call") {
    s.tools_call_seen = true;
    if (sum.first_failure) s.tools_call_after_failure = true;
  }

  // Scope of request ids: the session id, else the stretch since the last initialize; and the
  // server, where the capture shows it (one session id on two servers is two sessions).
  if (f.session_id.empty() && method == "initialize") ++s.initializes;
  std::uint64_t scope = f.session_id.empty() ? mix64(s.initializes * 2 + 1) : json::hash_bytes(f.session_id, 2);
  if (!f.server.empty()) scope = json::hash_bytes(f.server, scope);
  const bool is_request = request_captured && request_id && !request_notification;
  bool any_answer = false;
  for (const Classification* c : records) any_answer = any_answer || answered(*c);

  std::uint64_t request_key = 0;
  const std::uint64_t id_hash = request_id ? json::hash_bytes(*request_id, 1) : 0;
  if (is_request) {
    request_key = json::hash_bytes(*request_id, scope);
    if (const std::size_t* prev = s.request_by_key.find(request_key)) {
      const State::EntryText& was = s.entry_text(*prev);
      finding("duplicate_request_id",
              fmt::format("id {} was already used by {} ({}) in this session: a request id must not be reused "
                          "within a session",
                          *request_id, was.source, was.method.empty() ? "?" : was.method));
    }
    s.request_by_key.put(request_key, a.entry, a.entry);
    s.request_ids.put(id_hash, Nothing{}, a.entry);
    if (any_answer) {
      s.answered_by_id.put(id_hash, a.entry, a.entry);
    } else {
      Unanswered u{source, method, *request_id, primary ? primary->outcome : Outcome::NOT_CAPTURED, f.http_status};
      s.unanswered.put(request_key, State::Open{s.unanswered_order++, std::move(u)}, a.entry);
      s.unanswered_key.put(id_hash, request_key, a.entry);
    }
  } else if (!request_captured) {
    // A reply whose request the capture lacks: pair it by id with what came before.
    for (const Classification* c : records) {
      if (!c->response_id || (c->response_id->kind != JsonRpcId::Kind::integer &&
                              c->response_id->kind != JsonRpcId::Kind::string)) {
        continue;
      }
      const std::string id = c->response_id->to_json();
      const std::uint64_t h = json::hash_bytes(id, 1);
      const std::uint64_t* open_key = s.unanswered_key.find(h);
      const std::size_t* prev = s.answered_by_id.find(h);
      if (open_key && answered(*c)) {
        s.unanswered.erase(*open_key);
        s.unanswered_key.erase(h);
        s.answered_by_id.put(h, a.entry, a.entry);
      } else if (prev && answered(*c)) {
        finding("duplicate_response_id",
                fmt::format("a second response for id {} (the first: {})", id, s.entry_text(*prev).source));
      } else if (!s.request_ids.contains(h) && s.request_ids.size() > 0 && !s.requests_forgotten) {
        finding("unknown_response_id", fmt::format("response id {} answers no request in the capture", id));
      } else if (answered(*c)) {
        s.answered_by_id.put(h, a.entry, a.entry);
      }
    }
  }
  for (const Classification* c : records) {
    // Only a JSON-RPC error the classifier read as the reply shows its id (an HTTP_ERROR keeps the code only).
    const bool error = c->outcome == Outcome::JSONRPC_ERROR && c->error_code.has_value();
    const bool null_id = !c->response_id || c->response_id->kind == JsonRpcId::Kind::null;
    if (error && null_id) {
      finding("null_id_error",
              fmt::format("an error with {} cannot be paired by id{}", c->response_id ? "id null" : "no id",
                          request_captured ? "; it answers this exchange's request by position"
                                             : "; the capture does not show which request it answers"));
      break;
    }
  }

  // outputSchema: a successful tool result must conform to the schema its tool declared. Checked
  // before the replay bookkeeping, which must record this attempt as failed when it fails here.
  if (method == "tools/call" && primary && primary->outcome == Outcome::TOOL_SUCCESS && !tool_name.empty()) {
    const ToolDefinition* def = s.find_tool(f, tool_name);
    if (def != nullptr && def->output_schema && f.result_found) {
      a.schema_checked = true;
      Amendment amendment;
      const std::string base = f.result_pointer + "/structuredContent";
      std::optional<SchemaMismatch> mismatch;
      if (!f.structured_content) {
        mismatch = SchemaMismatch{"", fmt::format("the tool declares an outputSchema ({}) but the result has no "
                                                  "structuredContent",
                                                  def->source)};
      } else {
        auto checked = check_schema(*def->output_schema, *f.structured_content);
        if (!checked) {
          amendment.warnings.push_back("outputSchema not checked: " + checked.error());
        } else if (*checked) {
          mismatch = std::move(**checked);
          mismatch->message = fmt::format("structuredContent does not match the outputSchema of tool \"{}\" ({}): {}",
                                          tool_name, def->source, mismatch->message);
        }
      }
      if (mismatch) {
        amendment.verdict = Amendment::Verdict{Outcome::INVALID_TOOL_RESULT, Reason::structured_content_schema_mismatch,
                                               std::move(mismatch->message), base + mismatch->pointer};
      }
      if (amendment.verdict || !amendment.warnings.empty()) {
        // What follows (replays, counts, the first failure) sees the record as the sinks will.
        amended = *primary;
        amendment.apply(*amended);
        primary = &*amended;
        a.amendment = std::move(amendment);
      }
    }
  }

  // The records' retry safety, when a tools/list of this session defines the called tool (the
  // method's own semantics are the records' already: advise()).
  if (method == "tools/call" && !tool_name.empty()) {
    if (const ToolDefinition* def = s.find_tool(f, tool_name)) {
      const ToolDefinition& t = *def;
      a.retry_safety = tool_retry_safety(tool_name, t.read_only_hint, t.destructive_hint, t.idempotent_hint, t.source);
    }
  }

  // Replays: the same method and params as an earlier request of the same session and server that
  // failed; or, as the first attempt in its session, of a request on the same server whose failure
  // ended its session (a client that initialized again and resent the call). Another session's
  // request is another client's, as far as the capture shows.
  if (is_request && !method.empty()) {
    const std::uint64_t call_key = json::hash_bytes(method, params_hash);
    const std::uint64_t ended_key = json::hash_bytes(f.server, mix64(call_key));
    const std::uint64_t rkey = json::hash_bytes(f.session_id, json::hash_bytes(f.server, call_key));
    State::Attempt* prev = s.attempts.find(rkey);
    if (prev == nullptr) {
      if (State::Attempt* ended = s.ended_attempts.find(ended_key); ended && ended->session_id != f.session_id) {
        prev = ended;
      }
    }
    if (prev && prev->failed) {
      Replay r;
      r.of_source = s.entry_text(prev->entry).source;
      r.of_entry = prev->entry;
      r.after = prev->outcome;
      r.same_id = prev->id == id_hash;
      if (method == "tools/call") {
        const ToolDefinition* def = nullptr;
        if (auto tool = s.tools.find(tool_key(f, tool_name)); tool != s.tools.end()) def = &tool->second;
        if (def == nullptr && prev->session_id != f.session_id) {
          // A resend in a new session (after a 404 and a new initialize) repeats the call of the
          // earlier session: that session's tools/list (same server) says whether repeating is safe.
          SessionFacts earlier;
          earlier.server = f.server;
          earlier.session_id = prev->session_id;
          if (auto tool = s.tools.find(tool_key(earlier, tool_name)); tool != s.tools.end()) def = &tool->second;
        }
        if (def == nullptr) def = s.find_tool(f, tool_name);  // --tools FILE
        if (def == nullptr) {
          r.safety = ReplaySafety::unknown;
          r.decided_by = s.tools.empty() ? "no tools/list result earlier in the capture"
                                         : fmt::format("no tools/list result earlier in the capture defines tool \"{}\"",
                                                       tool_name);
        } else {
          const ToolDefinition& t = *def;
          RetrySafety safety = tool_retry_safety(tool_name, t.read_only_hint, t.destructive_hint, t.idempotent_hint,
                                                 t.source);
          r.safety = safety.safe ? (*safety.safe ? ReplaySafety::safe : ReplaySafety::unsafe) : ReplaySafety::unknown;
          r.decided_by = std::move(safety.source);
        }
      } else {
        // The method's own semantics: the same rule as the records' retry.safe.
        RetrySafety safety = method_retry_safety(method, tool_name);
        r.safety = safety.safe ? (*safety.safe ? ReplaySafety::safe : ReplaySafety::unsafe) : ReplaySafety::unknown;
        r.decided_by = std::move(safety.source);
      }
      ++s.replays_total;
      if (sum.replays.size() < kMaxListed) sum.replays.emplace_back(source, r);
      else ++sum.replays_omitted;
      a.replay = std::move(r);
    }
    const bool failed = primary && (is_failure(primary->outcome) ||
                                    (primary->outcome == Outcome::NOT_CAPTURED && f.http_status == 0));
    // A call answered on a replay was answered: its earlier attempts leave "never answered".
    std::vector<std::uint64_t> chain;
    if (prev && prev->failed) chain = std::move(prev->unanswered);
    if (any_answer) {
      for (const std::uint64_t k : chain) {
        if (State::Open* u = s.unanswered.find(k)) {
          const std::uint64_t h = json::hash_bytes(u->info.id, 1);
          if (const std::uint64_t* by_id = s.unanswered_key.find(h); by_id && *by_id == k) s.unanswered_key.erase(h);
          s.unanswered.erase(k);
        }
      }
      chain.clear();
    } else if (s.unanswered.contains(request_key)) {
      chain.push_back(request_key);
    }
    State::Attempt attempt{a.entry, primary ? primary->outcome : Outcome::NOT_CAPTURED, failed, id_hash,
                           std::move(chain), f.session_id};
    if (failed && primary && ends_session(*primary)) s.ended_attempts.put(ended_key, attempt, a.entry);
    else if (prev && prev->session_id != f.session_id) s.ended_attempts.erase(ended_key);  // resent: taken
    s.attempts.put(rkey, std::move(attempt), a.entry);
  }

  for (const ToolDefinition& t : f.tools) {
    std::string key = tool_key(f, t.name);
    if (s.tools.size() >= kMaxTools && !s.tools.count(key)) {
      s.tools_forgotten = true;
      continue;
    }
    ToolDefinition& kept = s.tools[std::move(key)] = t;
    kept.source = source_text(s.name, SourceRef{exchange.input, exchange.exchange, std::nullopt});
  }

  // Counts and the first failure (after the schema check: it may have changed an outcome).
  for (std::size_t k = 0; k < records.size(); ++k) {
    const Classification& c = k == 0 && amended ? *amended : *records[k];
    ++sum.records;
    ++s.outcomes[static_cast<std::size_t>(c.outcome)];
    if (!sum.first_failure && is_failure(c.outcome)) {
      sum.first_failure = SessionSummary::Failure{k == 0 ? source : source_of(k), a.post_index,
                                                  c.method.empty() ? method : c.method, c.outcome, std::string(to_string(c.reason)),
                                                  c.http_status};
    }
  }
  return a;
}

void SessionTracker::add_given_tools(const std::vector<ToolDefinition>& tools) {
  for (const ToolDefinition& t : tools) state_->given_tools[t.name] = t;
}

SessionSummary SessionTracker::summary() const {
  const State& s = *state_;
  SessionSummary sum = s.summary;
  for (std::size_t k = 0; k < s.outcomes.size(); ++k) {
    if (s.outcomes[k] > 0) sum.outcomes[std::string(to_string(static_cast<Outcome>(k)))] = s.outcomes[k];
  }
  // Requests that left the window unanswered come first: they are the oldest.
  sum.never_answered = s.forgotten_unanswered;
  sum.never_answered_omitted = s.forgotten_unanswered_total - s.forgotten_unanswered.size();
  sum.methods_never_answered = s.forgotten_methods;
  std::vector<const State::Open*> open;
  open.reserve(s.unanswered.size());
  s.unanswered.for_each([&](const State::Open& o) { open.push_back(&o); });
  std::sort(open.begin(), open.end(), [](const State::Open* x, const State::Open* y) { return x->order < y->order; });
  for (const State::Open* o : open) {
    if (sum.never_answered.size() < kMaxListed) sum.never_answered.push_back(o->info);
    else ++sum.never_answered_omitted;
    const std::string m = o->info.method.empty() ? "?" : o->info.method;
    if (std::find(sum.methods_never_answered.begin(), sum.methods_never_answered.end(), m) ==
            sum.methods_never_answered.end() &&
        sum.methods_never_answered.size() < kMaxListed) {
      sum.methods_never_answered.push_back(m);
    }
  }
  if (sum.first_failure) {
    const auto& ff = sum.first_failure;
    const std::string where = ff->post_index ? fmt::format("POST {} ({})", *ff->post_index, ff->source) : ff->source;
    sum.notes.push_back(fmt::format("first failure at {}: {} {}", where,
                                    ff->method.empty() ? "(method unknown)" : ff->method,
                                    what_of(ff->outcome, ff->reason, ff->http_status)));
    if (s.posts_after_failure == 0 && ff->post_index) {
      sum.notes.push_back("the capture holds nothing sent after the first failure");
    } else if (ff->method != "tools/call" && s.tools_call_seen && !s.tools_call_after_failure) {
      sum.notes.push_back("the capture holds no tools/call after the first failure");
    }
  }
  if (!s.tools_call_seen) sum.notes.push_back("the capture holds no tools/call");
  if (sum.entries > kWindow) {
    sum.notes.push_back(fmt::format("pairing, reused ids and replays were checked within windows of {} entries; "
                                    "a reply or repeat further back than that is not paired",
                                    kWindow));
  }
  if (s.tools_forgotten) {
    sum.notes.push_back(fmt::format("more than {} tools were defined: later ones were not kept for replay safety "
                                    "and outputSchema checks",
                                    kMaxTools));
  }
  if (s.replays_total > 0) {
    sum.notes.push_back(fmt::format("{} request{} sent again after a failure; the capture cannot tell who sent {} "
                                    "again (an SDK, the application or a person)",
                                    s.replays_total, s.replays_total == 1 ? " was" : "s were",
                                    s.replays_total == 1 ? "it" : "them"));
  }
  return sum;
}

}  // namespace mcptriage
