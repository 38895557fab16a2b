// The process's exit codes (docs/exit-codes.md): what a run tells its caller.
#pragma once

namespace mcptriage::cli {

/// Exit codes (docs/exit-codes.md).
enum class ExitCode : int {
  ok = 0,                  ///< every input read, every expectation held
  expectation_broken = 1,  ///< some exchange broke --expect, a manifest line or --fail-on
  usage = 2,               ///< bad flags
  input_error = 3,         ///< some input could not be read or recognised (others were still classified)
};

constexpr int to_int(ExitCode c) { return static_cast<int>(c); }

}  // namespace mcptriage::cli
