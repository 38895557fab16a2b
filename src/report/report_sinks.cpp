// The CI reports as sinks (report.hpp, make_junit_sink / make_tap_sink): the verdicts kept as
// the records come, the report written at the end.
#include "mcptriage/report.hpp"

#include "mcptriage/auth.hpp"

namespace mcptriage {

namespace {

class ReportSink final : public RecordSink {
 public:
  using Render = std::string (*)(const std::vector<CaseResult>&, const std::vector<InputFailure>&);
  ReportSink(Output& out, Render render) : out_(out), render_(render) {}

  void begin_input(const InputInfo& input) override { name_ = input.name; }

  void record(const Record& r, const Check& check, std::string_view) override {
    cases_.push_back(CaseResult{source_text(name_, r.source), r.c, name_, check.has_expectation, check.passed,
                                check.failure});
  }

  /// A flow is a case of its own, named `SESSION flow N`, in its session's suite.
  void auth_flow(const AuthFlow& flow, const Check& check) override {
    CaseResult c{flow.source + " flow " + std::to_string(flow.flow), {}, flow.source, check.has_expectation,
                 check.passed, check.failure};
    c.flow = CaseResult::Flow{std::string(to_string(flow.verdict)), flow.failed_step, flow.reason, flow.detail,
                              flow.advice};
    cases_.push_back(std::move(c));
  }

  void input_failed(std::string_view name, std::string_view why) override {
    errors_.push_back(InputFailure{std::string(name), std::string(why)});
  }

  void finish() override {
    out_.buffer() += render_(cases_, errors_);
    out_.flush();
  }

 private:
  Output& out_;
  Render render_;
  std::string name_;
  std::vector<CaseResult> cases_;
  std::vector<InputFailure> errors_;
};

}  // namespace

std::unique_ptr<RecordSink> make_junit_sink(Output& out) { return std::make_unique<ReportSink>(out, junit_report); }
std::unique_ptr<RecordSink> make_tap_sink(Output& out) { return std::make_unique<ReportSink>(out, tap_report); }

}  // namespace mcptriage
