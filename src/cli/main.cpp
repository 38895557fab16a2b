// mcptriage's entry point: a subcommand named by the first argument, else a triage run
// (src/cli/run.hpp). Everything else lives in the library, so that tests link the same code.
#include <csignal>
#include <string_view>

#include "cli/explain.hpp"
#include "cli/run.hpp"
#include "proxy/proxy.hpp"

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

/// The subcommand named `name` (argv[1]), or null for a triage run. Matched before the triage
/// options are parsed, so a capture file named like a subcommand is read as ./NAME (the man
/// page's SYNOPSIS says so). Each gets argv from its own name on.
mcptriage::cli::Main subcommand(std::string_view name) {
  if (name == "explain") return mcptriage::cli::explain_main;
  if (name == "proxy") return mcptriage::proxy::proxy_main;  // docs/proxy.md
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed standard output is then a write error (EPIPE) the run handles, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  if (argc > 1) {
    if (const mcptriage::cli::Main command = subcommand(argv[1])) return mcptriage::cli::guarded(command, argc - 1, argv + 1);
  }
  return mcptriage::cli::guarded(mcptriage::cli::triage_main, argc, argv);
}
