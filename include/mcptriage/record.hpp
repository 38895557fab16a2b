// A record: one classified exchange (or one element of a batch reply) as it goes to output.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mcptriage/classify.hpp"
#include "mcptriage/exchange.hpp"

namespace mcptriage {

struct SessionFacts;       // mcptriage/session.hpp
struct SessionAnnotation;  // mcptriage/session.hpp

/// One output row: where it came from plus the verdict.
struct Record {
  SourceRef source;    ///< input, exchange and batch element; text only when rendered
  CaptureFormat format = CaptureFormat::curl_i;  ///< detected capture format
  Classification c;
  /// What the session analysis needs of the record's exchange (src/session, set by the run;
  /// shared by the records of one batch reply). When `facts->skipped` is set the record stands
  /// for a skipped entry and `c` means nothing. Null: no session analysis.
  std::shared_ptr<const SessionFacts> facts = nullptr;
  /// The session annotations of its entry (docs/output.md "Sessions": position, statuses,
  /// replay, findings), set by the run when its input holds more than one entry; shared by the
  /// records of one batch reply. Null: a one-entry input, printed without a `session` member.
  std::shared_ptr<const SessionAnnotation> session = nullptr;
  /// When its exchange arrived, read live (docs/output.md `timing`); absent offline.
  std::optional<LiveTiming> timing = std::nullopt;
};

}  // namespace mcptriage
