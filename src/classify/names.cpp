// Names of outcomes, layers, method sources and retry advice codes, and "did you mean" suggestions.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

#include "mcptriage/classify.hpp"

namespace mcptriage {
namespace {

constexpr std::array<std::pair<Outcome, std::string_view>, 16> kOutcomes{{
    {Outcome::TOOL_SUCCESS, "TOOL_SUCCESS"},
    {Outcome::TOOL_ERROR, "TOOL_ERROR"},
    {Outcome::RPC_SUCCESS, "RPC_SUCCESS"},
    {Outcome::INPUT_REQUIRED, "INPUT_REQUIRED"},
    {Outcome::TASK_CREATED, "TASK_CREATED"},
    {Outcome::ACCEPTED, "ACCEPTED"},
    {Outcome::HTTP_ERROR, "HTTP_ERROR"},
    {Outcome::INVALID_HTTP_RESPONSE, "INVALID_HTTP_RESPONSE"},
    {Outcome::STREAM_INCOMPLETE, "STREAM_INCOMPLETE"},
    {Outcome::MALFORMED_JSON, "MALFORMED_JSON"},
    {Outcome::INVALID_ENVELOPE, "INVALID_ENVELOPE"},
    {Outcome::JSONRPC_ERROR, "JSONRPC_ERROR"},
    {Outcome::INVALID_TOOL_RESULT, "INVALID_TOOL_RESULT"},
    {Outcome::INVALID_RESULT, "INVALID_RESULT"},
    {Outcome::NOT_CAPTURED, "NOT_CAPTURED"},
    {Outcome::AUTH_LEG, "AUTH_LEG"},
}};

/// Optimal string alignment distance between `a` and `b`, letters compared case-insensitively.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // Three rows of the (a.size()+1) x (b.size()+1) table: two back, one back, this one.
  std::vector<std::size_t> two(b.size() + 1), one(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) one[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      row[j] = std::min({one[j] + 1, row[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) row[j] = std::min(row[j], two[j - 2] + 1);
    }
    std::swap(two, one);
    std::swap(one, row);
  }
  return one[b.size()];
}

}  // namespace

std::vector<std::string_view> nearest_names(std::string_view word, const std::vector<std::string_view>& names,
                                            std::size_t max) {
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::vector<std::pair<std::size_t, std::string_view>> near;
  for (std::string_view name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d <= limit) near.emplace_back(d, name);
  }
  std::sort(near.begin(), near.end());
  near.erase(std::unique(near.begin(), near.end()), near.end());
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < near.size() && out.size() < max; ++i) out.push_back(near[i].second);
  return out;
}

std::string_view to_string(Outcome o) {
  for (const auto& [value, name] : kOutcomes) {
    if (value == o) return name;
  }
  return "UNKNOWN";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (const auto& [value, text] : kOutcomes) {
    if (text == name) return value;
  }
  return std::nullopt;
}

std::string_view to_string(Layer l) {
  switch (l) {
    case Layer::transport: return "transport";
    case Layer::protocol: return "protocol";
    case Layer::interaction: return "interaction";
    case Layer::application: return "application";
    case Layer::auth: return "auth";
  }
  return "transport";
}

Layer layer_of(Outcome o) {
  switch (o) {
    case Outcome::TOOL_SUCCESS:
    case Outcome::TOOL_ERROR:
    case Outcome::RPC_SUCCESS: return Layer::application;
    case Outcome::INPUT_REQUIRED:
    case Outcome::TASK_CREATED: return Layer::interaction;
    case Outcome::MALFORMED_JSON:
    case Outcome::INVALID_ENVELOPE:
    case Outcome::JSONRPC_ERROR:
    case Outcome::INVALID_TOOL_RESULT:
    case Outcome::INVALID_RESULT: return Layer::protocol;
    case Outcome::ACCEPTED:
    case Outcome::HTTP_ERROR:
    case Outcome::INVALID_HTTP_RESPONSE:
    case Outcome::STREAM_INCOMPLETE:
    case Outcome::NOT_CAPTURED: return Layer::transport;
    case Outcome::AUTH_LEG: return Layer::auth;
  }
  return Layer::transport;
}

std::string_view to_string(MethodSource s) {
  switch (s) {
    case MethodSource::request: return "request";
    case MethodSource::flag: return "flag";
    case MethodSource::inferred: return "inferred";
  }
  return "inferred";
}

std::string_view to_string(Advice a) {
  switch (a) {
    case Advice::none: return "none";
    case Advice::retry_if_idempotent: return "retry_if_idempotent";
    case Advice::retry_once_if_idempotent: return "retry_once_if_idempotent";
    case Advice::new_session: return "new_session";
    case Advice::wait_retry_after: return "wait_retry_after";
    case Advice::reauthorize: return "reauthorize";
    case Advice::step_up_authorization: return "step_up_authorization";
    case Advice::fix_request: return "fix_request";
    case Advice::retry_with_supported_version: return "retry_with_supported_version";
    case Advice::fall_back_to_initialize: return "fall_back_to_initialize";
    case Advice::hand_error_to_model: return "hand_error_to_model";
    case Advice::do_not_retry: return "do_not_retry";
    case Advice::resend_with_input: return "resend_with_input";
    case Advice::answer_server_request: return "answer_server_request";
    case Advice::resume_stream: return "resume_stream";
    case Advice::resend_if_idempotent: return "resend_if_idempotent";
    case Advice::poll_task: return "poll_task";
    case Advice::investigate: return "investigate";
  }
  return "investigate";
}

}  // namespace mcptriage
