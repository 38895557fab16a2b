// `--expect` and `--fail-on` as CLI11 options, the same words for the triage run (cli/options.cpp)
// and `mcptriage proxy` (proxy/proxy_main.cpp). Internal to src/report and the folders after it.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace mcptriage::report {

/// Adds `--expect OUTCOME[,...]` and `--fail-on OUTCOME[,...]` to `app`; each may be repeated,
/// and each occurrence takes one word (a comma-separated list, read by parse_outcome_list).
inline void add_expectation_options(CLI::App& app, std::vector<std::string>& expect,
                                    std::vector<std::string>& fail_on) {
  app.add_option("--expect", expect, "Exit 1 unless every exchange has one of these outcomes (comma-separated)")
      ->type_name("OUTCOME[,...]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-on", fail_on, "Exit 1 if any exchange has one of these outcomes (comma-separated)")
      ->type_name("OUTCOME[,...]")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace mcptriage::report
