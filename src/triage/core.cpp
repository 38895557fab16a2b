// The run core (triage.hpp): records made on the workers, then sessions, amendments,
// expectations and sinks in input order on the calling thread.
#include "triage/core.hpp"

#include <ctime>

#include "mcptriage/advice.hpp"
#include "mcptriage/auth.hpp"
#include "mcptriage/classify.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::triage {

namespace {

/// The placeholder record of a skipped entry (Exchange::skipped) found at `where`:
/// `facts->skipped` set, `c` meaningless (NOT_CAPTURED, the default reason).
Record skipped_record(const Exchange& exchange, SourceRef where) {
  Record r;
  r.source = where;
  r.format = exchange.format;
  r.line = exchange.line;
  r.key = exchange.key;
  r.c.outcome = Outcome::NOT_CAPTURED;
  r.c.layer = layer_of(r.c.outcome);
  if (exchange.skipped) r.c.detail = exchange.skipped->detail;
  SessionFacts facts;
  facts.skipped = exchange.skipped;  // called for skipped entries only
  r.facts = std::make_shared<const SessionFacts>(std::move(facts));
  return r;
}

}  // namespace

/// A session's first entry, held until a second one shows whether it is a session (its records
/// then get their `session` member) or it ends alone (printed as a single capture).
struct Triage::Entry {
  std::vector<Record> records;
  std::vector<std::string> prepared;
  std::shared_ptr<const SessionAnnotation> annotation;
};

/// The session whose records are coming: one input, or with --session every input of the run.
struct Triage::SessionState {
  SessionState(std::string session_name, std::string_view first_input, std::string protocol_version)
      : name(std::move(session_name)), tracker(std::string(first_input)), auth(name, std::move(protocol_version)) {}
  std::string name;                 ///< SessionInfo::name
  std::size_t inputs = 1;           ///< SessionInfo::inputs
  SessionTracker tracker;
  AuthTracker auth;                 ///< the session's authorization flows (src/auth)
  std::size_t entries = 0;
  bool multi = false;               ///< more than one entry: records get `session`, the session a summary
  std::optional<Entry> held;
  CaptureFormat format = CaptureFormat::curl_i;      ///< its last entry's format
  std::optional<std::size_t> input;                  ///< the input whose batches are coming
  std::optional<std::size_t> sinks_input;            ///< the input the sinks were given (begin_input)
  CaptureFormat input_format = CaptureFormat::curl_i;  ///< the last format of the sinks' input
  std::vector<const Classification*> entry_records;  ///< reused for each entry
};

Triage::Triage(std::span<const io::Input> inputs, TriageOptions options, std::span<RecordSink* const> sinks,
               Reporter& reporter)
    : inputs_(inputs), options_(std::move(options)), sinks_(sinks), reporter_(reporter) {
  for (const RecordSink* s : sinks_) {
    if (s->prepares() && preparer_ == nullptr) preparer_ = s;
    views_ = views_ || s->wants_views();
    har_ = har_ || s->wants_har();
  }
}

Triage::~Triage() = default;

void Triage::run(io::Source& source) {
  io::Work work;
  work.context = [this](std::size_t i) { return io::context_for(inputs_[i], options_.flags); };
  work.records_of = [this](const Exchange& ex, const ContextFlags& flags, SourceRef where, std::vector<Record>& out,
                           std::vector<std::string>& prepared) { records_of(ex, flags, where, out, prepared); };
  io::run_pipeline(source, inputs_, options_.pipeline, work, [this](io::Batch&& batch) { consume(std::move(batch)); });
  end_session();
}

void Triage::records_of(const Exchange& ex, const ContextFlags& flags, SourceRef where, std::vector<Record>& out,
                        std::vector<std::string>& prepared) const {
  if (ex.skipped) {  // reported, not classified
    out.push_back(skipped_record(ex, where));
    if (preparer_ != nullptr) prepared.emplace_back();
    return;
  }
  ReadAlong along;  // what the session analysis needs, read by the classifier
  auto results = classify(ex, flags, now(), &along);
  // For the session analysis (src/session), shared by the records of a batch reply.
  const auto facts = std::make_shared<const SessionFacts>(extract_session_facts(ex, results, along));
  // For the session reports (--report-html, --report-otlp), shared likewise.
  const auto view = views_ ? std::make_shared<const ExchangeView>(make_exchange_view(ex)) : nullptr;
  // For the authorization triage (src/auth): only exchanges that take part in it.
  std::shared_ptr<const AuthLeg> auth_leg;
  if (options_.auth) {
    if (auto leg = extract_auth_leg(ex, results)) auth_leg = std::make_shared<const AuthLeg>(std::move(*leg));
  }
  // For --export-har, likewise.
  const auto har = har_ ? std::make_shared<const std::string>(export_har_entry(ex, flags, &along)) : nullptr;
  for (std::size_t k = 0; k < results.size(); ++k) {
    // Built in place: a Record holds some twenty strings, each moved again by a temporary.
    Record& made = out.emplace_back();
    made.source = where;
    if (results.size() > 1) made.source.element = k;
    made.format = ex.format;
    made.c = std::move(results[k]);
    made.facts = facts;
    made.timing = ex.timing;
    made.time = ex.time;
    made.line = ex.line;
    if (k == 0) made.key = ex.key;
    made.view = view;
    if (k == 0) made.auth_leg = auth_leg;
    made.har = har;
    // The output's text of the record, made here on the worker (JSON Lines: but its source).
    if (preparer_ != nullptr) preparer_->prepare(made, prepared.emplace_back());
  }
}

void Triage::input_error(std::string_view name, std::string_view why) {
  reporter_.input_error(name, why);
  for (RecordSink* s : sinks_) s->input_failed(name, why);
}

void Triage::begin_input(std::size_t input) {
  const io::Input& in = inputs_[input];
  if (!current_) {
    // Without --session every input is a session of its own, named by it; with it, the run's
    // inputs are one session, named by its first and last input and their count.
    std::string name = in.name;
    std::size_t count = 1;
    if (options_.one_session && inputs_.size() > 1) {
      count = inputs_.size();
      name = inputs_.front().name + " .. " + inputs_.back().name + " (" + std::to_string(count) + " inputs)";
    }
    current_ = std::make_unique<SessionState>(std::move(name), in.name, options_.flags.protocol_version.value_or(""));
    current_->inputs = count;
    current_->tracker.add_given_tools(options_.tools);
    for (RecordSink* s : sinks_) s->begin_session(SessionInfo{current_->name, current_->inputs});
  }
  SessionState& st = *current_;
  st.input = input;
  st.tracker.set_input_name(in.name);
  // While the session's first entry is held the sinks stay on its input (its records are named
  // by it): they move to this one when the next record comes (sinks_to).
  if (!st.held) sinks_to(input);
}

void Triage::sinks_to(std::size_t input) {
  SessionState& st = *current_;
  if (st.sinks_input == input) return;
  if (st.sinks_input) {
    for (RecordSink* s : sinks_) s->end_input(InputEnd{inputs_[*st.sinks_input].name, st.input_format});
  }
  st.sinks_input = input;
  for (RecordSink* s : sinks_) s->begin_input(InputInfo{input, inputs_[input].name});
}

void Triage::end_input() {
  if (!current_ || !current_->input) return;
  current_->input.reset();
  if (!options_.one_session) end_session();
}

void Triage::consume(io::Batch&& batch) {
  const io::Input& in = inputs_[batch.input];
  if (batch.first) reporter_.progress(batch.input, inputs_.size(), in.name);
  // A batch of another input ends the one before; an error is an input's last batch.
  if (current_ && current_->input && (*current_->input != batch.input || batch.error)) end_input();
  if (batch.error) return input_error(in.name, *batch.error);
  if (!current_ || !current_->input) begin_input(batch.input);
  SessionState& st = *current_;
  std::vector<Record>& records = batch.records;
  std::vector<std::string>& prepared = batch.prepared;
  const bool have_prepared = prepared.size() == records.size();
  // The records of one entry (a batch reply gives several) are consecutive and share their facts.
  for (std::size_t i = 0; i < records.size();) {
    const SessionFacts* facts = records[i].facts.get();
    std::size_t j = i + 1;
    while (j < records.size() && facts != nullptr && records[j].facts.get() == facts) ++j;
    st.format = records[i].format;
    std::shared_ptr<const SessionAnnotation> annotation;
    if (facts != nullptr) {
      st.entry_records.clear();
      if (!facts->skipped) {
        for (std::size_t k = i; k < j; ++k) st.entry_records.push_back(&records[k].c);
      }
      SessionAnnotation a = st.tracker.add(*facts, st.entry_records,
                                           SourceRef{records[i].source.input, records[i].source.exchange, std::nullopt});
      if (a.amendment) {
        // The verdict is final before any sink sees it; a new one gets its own retry advice.
        Classification& c = records[i].c;
        a.amendment->apply(c);
        if (a.amendment->verdict) c.retry = advise(c, Headers{}, now());
        if (have_prepared) prepared[i].clear();  // rendered from the verdict as it was
        a.amendment.reset();
      }
      if (a.retry_safety) {
        // The tool's annotations (a tools/list of this session) decide its records' retry safety.
        for (std::size_t k = i; k < j; ++k) {
          apply_retry_safety(records[k].c.retry, *a.retry_safety);
          // The worker's text had the method's safety: only its retry member changes.
          if (have_prepared && !replace_retry_member(prepared[k], records[k].c.retry)) prepared[k].clear();
        }
      }
      if (records[i].auth_leg) {
        judge_auth(std::span<Record>(records).subspan(i, j - i),
                   have_prepared ? std::span<std::string>(prepared).subspan(i, j - i) : std::span<std::string>());
      }
      ++st.entries;
      if (options_.observer != nullptr) options_.observer->judged(std::span<Record>(records).subspan(i, j - i), a);
      annotation = std::make_shared<const SessionAnnotation>(std::move(a));
      // Read live, a record cannot wait for the next entry to show a session: it goes out at
      // once, without a `session` member (docs/output.md "Live timing").
      if (!st.multi && st.entries == 1 && !batch.live) {
        // Whether it gets a session member is known with the second entry.
        Entry held;
        held.records.assign(std::make_move_iterator(records.begin() + static_cast<std::ptrdiff_t>(i)),
                            std::make_move_iterator(records.begin() + static_cast<std::ptrdiff_t>(j)));
        if (have_prepared) {
          held.prepared.assign(std::make_move_iterator(prepared.begin() + static_cast<std::ptrdiff_t>(i)),
                               std::make_move_iterator(prepared.begin() + static_cast<std::ptrdiff_t>(j)));
        }
        held.annotation = std::move(annotation);
        st.held = std::move(held);
        i = j;
        continue;
      }
      if (!st.multi && !batch.live) {
        st.multi = true;
        Entry first = std::move(*st.held);
        st.held.reset();
        dispatch(first.records, first.prepared, first.annotation);
        release_notes();
      }
    }
    // The entry's records and texts, where they are in the batch.
    dispatch(std::span<Record>(records).subspan(i, j - i),
             have_prepared ? std::span<std::string>(prepared).subspan(i, j - i) : std::span<std::string>(), annotation);
    i = j;
  }
  for (const StreamEvent& e : batch.events) {
    for (RecordSink* s : sinks_) s->event(e);
  }
  if (batch.live || batch.follow) {
    for (RecordSink* s : sinks_) s->flush();
  }
}

void Triage::dispatch(std::span<Record> records, std::span<std::string> prepared,
                      const std::shared_ptr<const SessionAnnotation>& annotation) {
  if (records.empty()) return;
  SessionState& st = *current_;
  // The records of one entry come from one input: the sinks name their sources by it.
  const std::size_t input = records.front().source.input;
  sinks_to(input);
  st.input_format = records.back().format;
  const io::Input& in = inputs_[input];
  const Expectation* expect = in.manifest_entry      ? &options_.manifest[*in.manifest_entry]
                              : options_.expect ? &*options_.expect
                                                : nullptr;
  for (std::size_t k = 0; k < records.size(); ++k) {
    Record& r = records[k];
    if (r.facts && r.facts->skipped) {  // a skipped entry is no record
      const Skip& skip = *r.facts->skipped;
      for (RecordSink* s : sinks_) s->skipped(SkippedEntry{r.source, r.format, skip, &r});
      // A log line that is not JSON at all means the log is damaged (cut short, corrupted): an
      // input error, so that --expect cannot pass over it.
      if (skip.not_json && !options_.damaged_lines_are_rows) {
        input_error(in.name, skip.detail);
      }
      continue;
    }
    r.session = st.multi ? annotation : nullptr;  // a one-entry input prints as a single capture
    ++records_;
    source_.clear();
    append_source_text(source_, in.name, r.source);
    const Check check = check_expectations(source_, r.c, expect, options_.fail_on);
    if (!check.passed) {
      ++broken_;
      reporter_.expectation_broken(check.failure);
    }
    tally_.add(r.c.outcome, check.has_expectation, check.passed);
    const std::string_view text = prepared.empty() ? std::string_view() : std::string_view(prepared[k]);
    for (RecordSink* s : sinks_) s->record(r, check, s == preparer_ ? text : std::string_view());
  }
}

void Triage::note(Note n) {
  if (current_ && current_->held) {  // after the held entry, so that records stay in their order
    notes_.push_back(std::move(n));
    return;
  }
  for (RecordSink* s : sinks_) {
    s->note(n);
    s->flush();
  }
}

void Triage::release_notes() {
  for (const Note& n : notes_) {
    for (RecordSink* s : sinks_) s->note(n);
  }
  notes_.clear();
}

long long Triage::now() const {
  return options_.wall_clock ? static_cast<long long>(std::time(nullptr)) : options_.now;
}

void Triage::judge_auth(std::span<Record> records, std::span<std::string> prepared) {
  SessionState& st = *current_;
  Record& r = records.front();
  source_.clear();
  append_source_text(source_, inputs_[r.source.input].name, r.source);
  AuthAnnotation a = st.auth.add(*r.auth_leg, source_);
  if (r.c.outcome == Outcome::AUTH_LEG) {
    // The leg's own verdict, known only within its flow: the record is rendered again.
    const Reason reason = a.verdict == "failed"       ? Reason::auth_leg_failed
                          : a.verdict == "probe_miss" ? Reason::auth_probe_miss
                          : a.verdict == "not_judged" ? Reason::auth_not_judged
                                                      : Reason::auth_leg_ok;
    set_verdict(r.c, reason, a.detail);
    r.c.retry = advise(r.c, Headers{}, now());
    if (!prepared.empty()) prepared.front().clear();
  }
  r.auth = std::make_shared<const AuthAnnotation>(std::move(a));
}

void Triage::end_session() {
  if (!current_) return;
  SessionState& st = *current_;
  if (st.held) {
    Entry alone = std::move(*st.held);
    st.held.reset();
    dispatch(alone.records, alone.prepared, alone.annotation);
  }
  release_notes();
  if (st.sinks_input) {
    for (RecordSink* s : sinks_) s->end_input(InputEnd{inputs_[*st.sinks_input].name, st.input_format});
  }
  if (options_.auth) {
    // One auth_flow record per flow, judged now that the session is over.
    const Expectation* expect = options_.expect ? &*options_.expect : nullptr;
    for (const AuthFlow& flow : st.auth.finish()) {
      const Check check = check_auth_flow(flow, expect, options_.fail_on_auth);
      if (!check.passed) {
        ++broken_;
        reporter_.expectation_broken(check.failure);
      }
      for (RecordSink* s : sinks_) s->auth_flow(flow, check);
    }
  }
  std::optional<SessionSummary> summary;
  if (st.multi) summary = st.tracker.summary();
  const SessionEnd end{st.name, st.format, summary ? &*summary : nullptr};
  for (RecordSink* s : sinks_) s->end_session(end);
  current_.reset();
}

}  // namespace mcptriage::triage
