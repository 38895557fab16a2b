// The session walk: pairing by id, the POST sequence, replays and their safety, outputSchema
// checks, and the summary. Rules: docs/output.md "Sessions"; MCP basic §Requests (ids unique
// within a session), server/tools §Tool annotations and §Output schema.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "mcptriage/advice.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage {

namespace {

/// Methods that only read (MCP: list, get and read requests, ping, completion, discovery):
/// repeating them has no effect on the server.
bool read_only_method(std::string_view m) {
  for (std::string_view r : {"ping", "tools/list", "prompts/list", "prompts/get", "resources/list",
                             "resources/templates/list", "resources/read", "completion/complete", "server/discover",
                             "tasks/get", "tasks/list", "tasks/result"}) {
    if (m == r) return true;
  }
  return false;
}

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
    case Outcome::NOT_CAPTURED: return false;
    default: return true;
  }
}

struct SessionTracker::State {
  long long now = 0;
  SessionSummary summary;
  std::deque<int> statuses;  ///< the last kMaxStatuses statuses
  std::size_t statuses_total = 0;
  std::size_t initializes = 0;  ///< scopes of requests without a session id
  struct Seen {
    std::string source;
    std::string method;
  };
  std::unordered_map<std::string, Seen> request_by_key;        ///< scope + id -> the last request
  std::unordered_set<std::string> request_ids;                 ///< every request id text
  std::unordered_map<std::string, std::string> answered_by_id; ///< id text -> source of the answer
  struct Open {
    std::size_t order = 0;
    Unanswered info;
  };
  std::unordered_map<std::string, Open> unanswered;            ///< scope + id -> the request
  std::unordered_map<std::string, std::string> unanswered_key; ///< id text -> its latest key there
  std::size_t unanswered_order = 0;
  struct Attempt {
    std::string source;
    std::size_t entry = 0;
    Outcome outcome = Outcome::NOT_CAPTURED;
    bool failed = false;
    std::string id;
    std::vector<std::string> unanswered;  ///< keys of this call's attempts still unanswered
  };
  std::unordered_map<std::string, Attempt> attempts;           ///< method + params key -> last attempt
  std::unordered_map<std::string, ToolDefinition> tools;       ///< by name, the latest definition
  bool tools_call_seen = false;
  bool tools_call_after_failure = false;
  std::size_t posts_after_failure = 0;
  std::size_t replays_total = 0;
};

SessionTracker::SessionTracker(long long now_unix_seconds) : state_(std::make_unique<State>()) {
  state_->now = now_unix_seconds;
}
SessionTracker::~SessionTracker() = default;
SessionTracker::SessionTracker(SessionTracker&&) noexcept = default;
SessionTracker& SessionTracker::operator=(SessionTracker&&) noexcept = default;

SessionAnnotation SessionTracker::add(const SessionFacts& f, std::vector<Classification*> records,
                                      const std::vector<std::string>& sources) {
  State& s = *state_;
  SessionSummary& sum = s.summary;
  SessionAnnotation a;
  a.entry = sum.entries++;
  if (f.skipped) {
    ++sum.skipped;
    ++sum.skipped_reasons[f.skipped->reason];
    return a;
  }
  const std::string source = sources.empty() ? std::string() : sources.front();
  auto finding = [&](std::string code, std::string detail) {
    ++sum.findings[code];
    a.findings.push_back(SessionFinding{std::move(code), std::move(detail)});
  };
  const Classification* primary = records.empty() ? nullptr : records.front();
  const std::string method = !f.method.empty() ? f.method : (primary ? primary->method : std::string());

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

  // Scope of request ids: the session id, else the stretch since the last initialize.
  if (f.session_id.empty() && method == "initialize") ++s.initializes;
  const std::string scope = f.session_id.empty() ? "n" + std::to_string(s.initializes) : "s" + f.session_id;
  const bool is_request = f.request_captured && f.request_id && !f.notification;
  bool any_answer = false;
  for (const Classification* c : records) any_answer = any_answer || answered(*c);

  std::string request_key;
  if (is_request) {
    const std::string key = scope + '\x1f' + *f.request_id;
    request_key = key;
    if (auto prev = s.request_by_key.find(key); prev != s.request_by_key.end()) {
      finding("duplicate_request_id",
              fmt::format("id {} was already used by {} ({}) in this session: a request id must not be reused "
                          "within a session",
                          *f.request_id, prev->second.source, prev->second.method.empty() ? "?" : prev->second.method));
    }
    s.request_by_key[key] = State::Seen{source, method};
    s.request_ids.insert(*f.request_id);
    if (any_answer) {
      s.answered_by_id[*f.request_id] = source;
    } else {
      Unanswered u{source, method, *f.request_id, primary ? primary->outcome : Outcome::NOT_CAPTURED, f.http_status};
      s.unanswered[key] = State::Open{s.unanswered_order++, std::move(u)};
      s.unanswered_key[*f.request_id] = key;
    }
  } else if (!f.request_captured) {
    // A reply whose request the capture lacks: pair it by id with what came before.
    for (const Classification* c : records) {
      if (!c->response_id || (c->response_id->kind != JsonRpcId::Kind::integer &&
                              c->response_id->kind != JsonRpcId::Kind::string)) {
        continue;
      }
      const std::string id = c->response_id->to_json();
      if (auto u = s.unanswered_key.find(id); u != s.unanswered_key.end() && answered(*c)) {
        s.unanswered.erase(u->second);
        s.unanswered_key.erase(u);
        s.answered_by_id[id] = source;
      } else if (auto prev = s.answered_by_id.find(id); prev != s.answered_by_id.end() && answered(*c)) {
        finding("duplicate_response_id",
                fmt::format("a second response for id {} (the first: {})", id, prev->second));
      } else if (!s.request_ids.count(id) && !s.request_ids.empty()) {
        finding("unknown_response_id", fmt::format("response id {} answers no request in the capture", id));
      } else if (answered(*c)) {
        s.answered_by_id[id] = source;
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
                          f.request_captured ? "; it answers this exchange's request by position"
                                             : "; the capture does not show which request it answers"));
      break;
    }
  }

  // Replays: the same method and params as an earlier request that failed.
  if (is_request && !method.empty()) {
    const std::string rkey = method + '\n' + f.params_key;
    auto prev = s.attempts.find(rkey);
    if (prev != s.attempts.end() && prev->second.failed) {
      Replay r;
      r.of_source = prev->second.source;
      r.of_entry = prev->second.entry;
      r.after = prev->second.outcome;
      r.same_id = prev->second.id == *f.request_id;
      if (method == "tools/call") {
        auto tool = s.tools.find(f.tool_name);
        if (tool == s.tools.end()) {
          r.safety = ReplaySafety::unknown;
          r.decided_by = s.tools.empty() ? "no tools/list result earlier in the capture"
                                         : fmt::format("no tools/list result earlier in the capture defines tool \"{}\"",
                                                       f.tool_name);
        } else {
          const ToolDefinition& t = tool->second;
          if (t.read_only_hint == true) {
            r.safety = ReplaySafety::safe;
            r.decided_by = fmt::format("readOnlyHint: true ({})", t.source);
          } else if (t.idempotent_hint == true) {
            r.safety = ReplaySafety::safe;
            r.decided_by = fmt::format("idempotentHint: true ({})", t.source);
          } else if (t.destructive_hint == true) {
            r.safety = ReplaySafety::unsafe;
            r.decided_by = fmt::format("destructiveHint: true and not idempotent ({})", t.source);
          } else if (t.destructive_hint == false) {
            r.safety = ReplaySafety::unsafe;
            r.decided_by = fmt::format("idempotentHint {}: a repeat may add its effect again ({})",
                                       t.idempotent_hint ? "false" : "absent (default false)", t.source);
          } else {
            r.safety = ReplaySafety::unsafe;
            r.decided_by = fmt::format(
                "no readOnlyHint or idempotentHint: by the MCP defaults the tool may be destructive and is not "
                "idempotent ({})",
                t.source);
          }
        }
      } else if (read_only_method(method)) {
        r.safety = ReplaySafety::safe;
        r.decided_by = fmt::format("{} only reads (MCP list, get and read requests)", method);
      } else {
        r.safety = ReplaySafety::unknown;
        r.decided_by = fmt::format("no annotation says whether {} is safe to repeat", method);
      }
      ++s.replays_total;
      if (sum.replays.size() < kMaxListed) sum.replays.emplace_back(source, r);
      else ++sum.replays_omitted;
      a.replay = std::move(r);
    }
    const bool failed = primary && (is_failure(primary->outcome) ||
                                    (primary->outcome == Outcome::NOT_CAPTURED && f.http_status == 0));
    // A call answered on a replay was answered: its earlier attempts leave "never answered".
    std::vector<std::string> chain;
    if (prev != s.attempts.end() && prev->second.failed) chain = std::move(prev->second.unanswered);
    if (any_answer) {
      for (const std::string& k : chain) {
        if (auto u = s.unanswered.find(k); u != s.unanswered.end()) {
          if (auto by_id = s.unanswered_key.find(u->second.info.id); by_id != s.unanswered_key.end() && by_id->second == k) {
            s.unanswered_key.erase(by_id);
          }
          s.unanswered.erase(u);
        }
      }
      chain.clear();
    } else if (s.unanswered.count(request_key)) {
      chain.push_back(request_key);
    }
    s.attempts[rkey] = State::Attempt{source, a.entry, primary ? primary->outcome : Outcome::NOT_CAPTURED, failed,
                                      *f.request_id, std::move(chain)};
  }

  // outputSchema: a successful tool result must conform to the schema its tool declared.
  if (method == "tools/call" && primary && primary->outcome == Outcome::TOOL_SUCCESS && !f.tool_name.empty()) {
    auto tool = s.tools.find(f.tool_name);
    if (tool != s.tools.end() && tool->second.output_schema && f.result_found) {
      a.schema_checked = true;
      Classification& c = *records.front();
      const std::string base = f.result_pointer + "/structuredContent";
      std::optional<SchemaMismatch> mismatch;
      if (!f.structured_content) {
        mismatch = SchemaMismatch{"", fmt::format("the tool declares an outputSchema ({}) but the result has no "
                                                  "structuredContent",
                                                  tool->second.source)};
      } else {
        auto checked = check_schema(*tool->second.output_schema, *f.structured_content);
        if (!checked) {
          c.warnings.push_back("outputSchema not checked: " + checked.error());
        } else if (*checked) {
          mismatch = std::move(**checked);
          mismatch->message = fmt::format("structuredContent does not match the outputSchema of tool \"{}\" ({}): {}",
                                          f.tool_name, tool->second.source, mismatch->message);
        }
      }
      if (mismatch) {
        c.outcome = Outcome::INVALID_TOOL_RESULT;
        c.layer = layer_of(c.outcome);
        c.reason = "structured_content_schema_mismatch";
        c.detail = mismatch->message;
        c.pointer = base + mismatch->pointer;
        c.retry = advise(c, Headers{}, s.now);
      }
    }
  }
  for (const ToolDefinition& t : f.tools) s.tools[t.name] = t;

  // Counts and the first failure (after the schema check: it may have changed an outcome).
  for (std::size_t k = 0; k < records.size(); ++k) {
    const Classification& c = *records[k];
    ++sum.records;
    ++sum.outcomes[std::string(to_string(c.outcome))];
    if (!sum.first_failure && is_failure(c.outcome)) {
      sum.first_failure = SessionSummary::Failure{k < sources.size() ? sources[k] : source, a.post_index,
                                                  c.method.empty() ? method : c.method, c.outcome, c.reason,
                                                  c.http_status};
    }
  }
  return a;
}

SessionSummary SessionTracker::summary() const {
  const State& s = *state_;
  SessionSummary sum = s.summary;
  std::vector<const State::Open*> open;
  open.reserve(s.unanswered.size());
  for (const auto& [key, o] : s.unanswered) open.push_back(&o);
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
  if (s.replays_total > 0) {
    sum.notes.push_back(fmt::format("{} request{} sent again after a failure; the capture cannot tell who sent {} "
                                    "again (an SDK, the application or a person)",
                                    s.replays_total, s.replays_total == 1 ? " was" : "s were",
                                    s.replays_total == 1 ? "it" : "them"));
  }
  return sum;
}

SessionAnalysis analyze_session(const std::vector<Exchange>& exchanges,
                                std::vector<std::vector<Classification>>& results, long long now_unix_seconds) {
  SessionAnalysis out;
  SessionTracker tracker(now_unix_seconds);
  out.entries.reserve(exchanges.size());
  for (std::size_t i = 0; i < exchanges.size(); ++i) {
    std::vector<Classification>& recs = results[i];
    const SessionFacts facts = extract_session_facts(exchanges[i], recs);
    std::vector<Classification*> ptrs;
    std::vector<std::string> sources;
    for (std::size_t k = 0; k < recs.size(); ++k) {
      ptrs.push_back(&recs[k]);
      sources.push_back(recs.size() > 1 ? fmt::format("{}[{}]", exchanges[i].source, k) : exchanges[i].source);
    }
    out.entries.push_back(tracker.add(facts, std::move(ptrs), sources));
  }
  out.summary = tracker.summary();
  return out;
}

}  // namespace mcptriage
