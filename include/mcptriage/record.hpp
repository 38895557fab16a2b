// A record: one classified exchange (or one element of a batch reply) as it goes to output.
#pragma once

#include <memory>
#include <string>

#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

struct SessionFacts;  // mcptriage/session.hpp

/// One output row: where it came from plus the verdict.
struct Record {
  SourceRef source;    ///< input, exchange and batch element; text only when rendered
  CaptureFormat format = CaptureFormat::curl_i;  ///< detected capture format
  Classification c;
  /// What the session analysis needs of the record's exchange (src/session, set by the run;
  /// shared by the records of one batch reply). When `facts->skipped` is set the record stands
  /// for a skipped entry and `c` means nothing. Null: no session analysis.
  std::shared_ptr<const SessionFacts> facts = nullptr;
  /// append_jsonl_tail(*this) rendered where the record was made (a worker thread, for JSON
  /// Lines output), or empty. Stale once `c` changes (the outputSchema check).
  std::string jsonl_tail = {};
};

}  // namespace mcptriage
