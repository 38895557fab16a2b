// mcptriage's entry point: a subcommand of the table below named by the first argument, else a
// triage run (src/cli/run.hpp). Everything else lives in the library, so that tests link the same code.
#include <csignal>

#include "cli/bundle.hpp"
#include "cli/explain.hpp"
#include "cli/run.hpp"
#include "cli/stats.hpp"
#include "proxy/proxy.hpp"
#include "mock/mock.hpp"
#include "mock/replay.hpp"
#include "wrap/wrap.hpp"

#ifdef MCPTRIAGE_WITH_JEMALLOC
// jemalloc's options, read when it starts (jemalloc(3), "malloc_conf"): one arena per CPU, each
// thread allocating from the arena of the CPU it runs on. jemalloc's default (four arenas per
// CPU) costs peak RSS; one arena for all threads (this project's setting until session 4) can
// make the `--jobs` workers wait for each other on its lock (docs/performance.md, "What was
// fixed": 0.77 s against 0.70 s in one round, no difference in later ones). MALLOC_CONF in the
// environment still overrides it.
extern "C" {
// NOLINTNEXTLINE: the name jemalloc looks for
const char* malloc_conf = "percpu_arena:percpu";
}
#endif

namespace {

using mcptriage::cli::Command;

/// The subcommands (command.hpp): matched on argv[1] before the triage options are parsed, so a
/// capture file named like a subcommand is read as ./NAME (the man page's SYNOPSIS says so). Each
/// gets argv from its own name on. A new subcommand is one row here plus its file.
constexpr Command kCommands[] = {
    {"explain", "what a reason code, an outcome or a skipped record's reason means", mcptriage::cli::explain_main},
    {"proxy", "sits between an MCP client and its server: forwards, classifies, records, injects faults",
     mcptriage::proxy::proxy_main},
    {"stats", "one summary of every exchange read: counts, failure rates, latency quantiles by server, method, "
              "tool, layer, outcome, reason; merged summaries; rows for ClickHouse and Spark (docs/stats.md)",
     mcptriage::cli::stats_main},
    {"diff", "two captures or logs compared per method and tool: failure rates, new failing reasons, changed "
             "exchanges (docs/stats.md)",
     mcptriage::cli::diff_main},
    {"bundle", "one archive for a bug report: records, HTML report, the inputs as one redacted HAR, version",
     mcptriage::cli::bundle_main},
    {"wrap", "runs a stdio MCP server between it and its host: relays, judges each message, records, says which "
             "call a crash or a stray stdout line broke (docs/wrap.md)",
     mcptriage::wrap::wrap_main},
    {"mock", "serves recorded MCP exchanges again as a Streamable HTTP server: a recorded failure reproduced "
             "without its server (docs/mock.md)",
     mcptriage::mock::mock_main},
    {"replay", "sends the calls of a recording again to a server, with edits, and prints each new verdict beside the "
               "recorded one (docs/mock.md)",
     mcptriage::mock::replay_main},
};

int triage(int argc, char** argv) { return mcptriage::cli::triage_main(argc, argv, kCommands); }

}  // namespace

int main(int argc, char** argv) {
  // A closed standard output is then a write error (EPIPE) the run handles, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  const Command* command = argc > 1 ? mcptriage::cli::find_command(kCommands, argv[1]) : nullptr;
  if (command != nullptr) return mcptriage::cli::guarded(command->entry, argc - 1, argv + 1);
  return mcptriage::cli::guarded(triage, argc, argv);
}
