// The process's exit codes (docs/exit-codes.md): what a run tells its caller.
#pragma once

#include <cstddef>

namespace mcptriage::cli {

/// Exit codes (docs/exit-codes.md).
enum class ExitCode : int {
  ok = 0,                  ///< every input read, every expectation held
  expectation_broken = 1,  ///< some exchange broke --expect, a manifest line or --fail-on
  usage = 2,               ///< bad flags
  input_error = 3,         ///< some input could not be read or recognised (others were still classified)
  output_error = 4,        ///< the output could not be written (a full disk, a report file that cannot be
                           ///< created); a reader that went away (EPIPE) is no error
  interrupted_hup = 129,   ///< reading live, SIGHUP ended the wait (128 + the signal; records and reports written)
  interrupted = 130,       ///< reading live, SIGINT (Ctrl-C) ended the wait
  interrupted_term = 143,  ///< reading live, SIGTERM ended the wait
};

/// The exit code of a run that saw `input_errors` input errors and `broken` broken
/// expectations: 3 over 1 over 0 (an output error, 4, wins over all and is decided apart).
constexpr ExitCode run_status(std::size_t input_errors, std::size_t broken) {
  return input_errors > 0 ? ExitCode::input_error : broken > 0 ? ExitCode::expectation_broken : ExitCode::ok;
}

constexpr int to_int(ExitCode c) { return static_cast<int>(c); }

}  // namespace mcptriage::cli
