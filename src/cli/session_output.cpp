// The CLI's session glue (session_output.hpp): facts on the workers, analysis and output in order.
#include "cli/session_output.hpp"

namespace mcptriage::cli {

std::shared_ptr<const SessionFacts> session_facts(const Exchange& exchange, const std::vector<Classification>& records,
                                                  const ReadAlong& along) {
  return std::make_shared<const SessionFacts>(extract_session_facts(exchange, records, along));
}

Record skipped_record(const Exchange& exchange, SourceRef where) {
  Record r;
  r.source = where;
  r.format = exchange.format;
  r.c.outcome = Outcome::NOT_CAPTURED;
  r.c.layer = layer_of(r.c.outcome);
  if (exchange.skipped) r.c.detail = exchange.skipped->detail;
  SessionFacts facts;
  facts.skipped = exchange.skipped;  // called for skipped entries only (main.cpp)
  r.facts = std::make_shared<const SessionFacts>(std::move(facts));
  return r;
}

SessionOutput::SessionOutput(bool jsonl, long long now_unix_seconds) : jsonl_(jsonl), now_(now_unix_seconds) {}

void SessionOutput::begin_batch(std::size_t input, std::string_view name, std::vector<Record>& records,
                                std::string& out) {
  if (current_ && current_->input != input) end_input(out);
  if (!current_) {
    current_.emplace(now_, std::string(name));
    current_->input = input;
    current_->name = std::string(name);
  }
  InputState& st = *current_;
  annotations_.clear();
  cursor_ = 0;
  // The records of one entry (a batch reply gives several) are consecutive and share their facts.
  for (std::size_t i = 0; i < records.size();) {
    const SessionFacts* facts = records[i].facts.get();
    std::size_t j = i + 1;
    while (j < records.size() && facts != nullptr && records[j].facts.get() == facts) ++j;
    if (facts != nullptr) {
      entry_records_.clear();
      if (!facts->skipped) {
        for (std::size_t k = i; k < j; ++k) entry_records_.push_back(&records[k].c);
      }
      const SourceRef exchange{records[i].source.input, records[i].source.exchange, std::nullopt};
      SessionAnnotation a = st.tracker.add(*facts, entry_records_, exchange);
      ++st.entries;
      if (jsonl_) {
        // JSON Lines writes skipped entries, replays and findings where they occur.
      } else if (facts->skipped) {
        // The table lists the first kMaxListed of each, as the summary record lists its arrays.
        if (st.skipped.size() < SessionTracker::kMaxListed) {
          st.skipped.emplace_back(source_text(st.name, records[i].source), *facts->skipped);
        }
        else ++st.skipped_omitted;
      } else if (a.replay || !a.findings.empty()) {
        if (st.notable.size() < SessionTracker::kMaxListed) st.notable.emplace_back(source_text(st.name, records[i].source), a);
        else ++st.notable_omitted;
      }
      annotations_.emplace_back(facts, std::move(a));
    }
    st.format = records[i].format;
    i = j;
  }
  if (st.entries > 1) st.multi = true;
}

void SessionOutput::emit(std::string_view head, std::string_view tail, const SessionAnnotation* annotation,
                         std::string& out) {
  InputState& st = *current_;
  if (!st.multi) {
    // The input's first entry: whether it gets a session member is known with the second.
    std::string text;
    text.reserve(head.size() + tail.size());
    text.append(head).append(tail);
    st.held.push_back(Held{std::move(text), annotation ? std::optional<SessionAnnotation>(*annotation) : std::nullopt});
    return;
  }
  for (Held& h : st.held) {
    if (h.annotation) append_with_session_member(out, h.text, *h.annotation);
    else out += h.text;
    out += '\n';
  }
  st.held.clear();
  // The member goes before the closing brace, the last byte of the tail (or of a text in one piece).
  std::string_view last = head;
  if (!tail.empty()) {
    out += head;
    last = tail;
  }
  if (annotation) append_with_session_member(out, last, *annotation);
  else out += last;
  out += '\n';
}

bool SessionOutput::skip(const Record& rec, std::string& out) {
  if (!rec.facts || !rec.facts->skipped) return false;
  if (jsonl_ && current_) {
    emit(render_skipped_jsonl(source_text(current_->name, rec.source), to_string(rec.format), *rec.facts->skipped), {},
         nullptr, out);
  }
  return true;
}

void SessionOutput::write_jsonl(const Record& rec, std::string_view text, std::string& out) {
  if (!current_ || !rec.facts) {
    out += text;
    out += '\n';
    return;
  }
  emit(text, {}, annotation(rec.facts.get()), out);
}

void SessionOutput::write_jsonl(const Record& rec, std::string_view head, std::string_view tail, std::string& out) {
  if (!current_ || !rec.facts) {
    out += head;
    out += tail;
    out += '\n';
    return;
  }
  emit(head, tail, annotation(rec.facts.get()), out);
}

const SessionAnnotation* SessionOutput::annotation(const SessionFacts* facts) const {
  if (facts == nullptr) return nullptr;
  // Records come in the order of the entries: from the cursor on first, then from the start.
  for (std::size_t k = cursor_; k < annotations_.size(); ++k) {
    if (annotations_[k].first == facts) {
      cursor_ = k;
      return &annotations_[k].second;
    }
  }
  for (std::size_t k = 0; k < cursor_ && k < annotations_.size(); ++k) {
    if (annotations_[k].first == facts) {
      cursor_ = k;
      return &annotations_[k].second;
    }
  }
  return nullptr;
}

bool SessionOutput::rewritten(const Record& rec) const {
  const SessionAnnotation* a = annotation(rec.facts.get());
  return a != nullptr && a->schema_checked;
}

void SessionOutput::end_input(std::string& out) {
  if (!current_) return;
  InputState& st = *current_;
  if (jsonl_) {
    for (Held& h : st.held) {
      // One entry only: no session member, as before sessions existed.
      out += std::move(h.text);
      out += '\n';
    }
    if (st.multi) {
      out += render_summary_jsonl(st.name, to_string(st.format), st.tracker.summary());
      out += '\n';
    }
  } else if (st.multi) {
    table_ += render_summary_table(st.name, st.tracker.summary(), st.skipped, st.notable, st.skipped_omitted,
                                   st.notable_omitted);
  } else {
    for (const auto& [source, skip] : st.skipped) {
      table_ += "skipped " + escape_terminal(redact(source)) + ": " + escape_terminal(redact(to_string(skip.reason))) + ": " +
                escape_terminal(redact(skip.detail)) + "\n";
    }
  }
  current_.reset();
  annotations_.clear();
  cursor_ = 0;
}

void SessionOutput::finish(std::string& out) { end_input(out); }

}  // namespace mcptriage::cli
