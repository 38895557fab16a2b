// `mcptriage proxy`: options, the network thread (server.cpp), the triage thread (the run core,
// src/triage, over ProxySource below; watcher.cpp, recording.cpp), signals, the summary and the
// exit status (docs/proxy.md).
#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <thread>
#include <tuple>

#include "io/duration.hpp"
#include "io/run_output.hpp"
#include "mcptriage/render.hpp"
#include "mcptriage/report.hpp"
#include "proxy/captured.hpp"
#include "proxy/json_peek.hpp"
#include "proxy/proxy.hpp"
#include "proxy/recording.hpp"
#include "proxy/server.hpp"
#include "proxy/source.hpp"
#include "proxy/watcher.hpp"
#include "report/expect_options.hpp"
#include "triage/core.hpp"

namespace mcptriage::proxy {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;

enum ExitCode : int {
  kOk = 0,
  kExpectFailed = 1,
  kUsage = 2,
  kCannotRun = 3,  ///< cannot listen, or cannot create a recording
  kOutputFailed = 4,  ///< a report file could not be created or written
};

struct Options {
  std::string upstream;
  std::string listen = "127.0.0.1:8931";
  std::vector<std::string> record;
  bool no_redact = false;
  std::vector<std::string> inject;
  std::string watch = "10s";
  bool insecure = false;
  std::string connect_timeout = "10s";
  std::string idle_timeout = "30s";
  std::string header_timeout = "10s";
  std::size_t max_body = std::size_t{16} << 20;
  std::size_t record_memory = std::size_t{256} << 20;
  std::size_t max_connections = 512;
  std::string format;
  std::string color = "auto";
  std::vector<std::string> expect;
  std::vector<std::string> fail_on;
  std::string report_junit;
  std::string report_tap;
  std::string report_html;
  std::string report_otlp;
  bool quiet = false;
  bool explain = false;
  bool verbose = false;
};

/// `--listen`: `ADDRESS:PORT`, `[IPv6]:PORT`, or a port alone (`8931`, `:8931`) on 127.0.0.1.
/// `localhost` is 127.0.0.1. Error: one line.
std::expected<tcp::endpoint, std::string> parse_listen(std::string_view text, bool& explicit_address) {
  std::string_view host;
  std::string_view port = text;
  explicit_address = false;
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return std::unexpected("--listen " + std::string(text) + ": write [ADDRESS]:PORT");
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (const std::size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
      std::stoul(std::string(port)) > 65535) {
    return std::unexpected("--listen " + std::string(text) + ": the port must be a number from 0 to 65535");
  }
  std::string address = host.empty() || host == "localhost" ? "127.0.0.1" : std::string(host);
  explicit_address = !host.empty();
  boost::system::error_code ec;
  const auto addr = net::ip::make_address(address, ec);
  if (ec) return std::unexpected("--listen " + std::string(text) + ": " + address + " is not an IP address");
  return tcp::endpoint(addr, static_cast<unsigned short>(std::stoul(std::string(port))));
}


std::string human_duration(std::chrono::milliseconds d) {
  if (d.count() < 1000) return fmt::format("{} ms", d.count());
  return fmt::format("{:.1f} s", static_cast<double>(d.count()) / 1000.0);
}

bool is_loopback(const net::ip::address& a) { return a.is_loopback(); }

}  // namespace

int proxy_main(int argc, char** argv) { return run_proxy(argc, argv, nullptr); }

int run_proxy(int argc, char** argv, const Front* front) {
  std::signal(SIGPIPE, SIG_IGN);
  Options opt;
  const std::string prog = front ? front->program : std::string("mcptriage proxy");
  CLI::App proxy_app{"mcptriage proxy: sits between an MCP client and its server (Streamable HTTP), forwards every\n"
               "exchange unchanged, classifies each as it completes (the live table, or JSON Lines), records them,\n"
               "injects faults on request, and reports what the client did after each failure.",
               "mcptriage proxy"};
  proxy_app.footer(
      "Examples:\n"
      "  mcptriage proxy --upstream https://mcp.example.com/mcp            # listens on 127.0.0.1:8931\n"
      "  mcptriage proxy --listen 127.0.0.1:9000 --upstream http://127.0.0.1:3001/mcp \\\n"
      "                  --record session.jsonl --inject 'status=503@post=3'\n"
      "Point the client at http://127.0.0.1:8931/mcp (the upstream's path) instead of the server.\n"
      "\n"
      "--inject ACTION[@WHEN]: ACTION is status=CODE[,retry-after=SECONDS][,body=FILE], jsonrpc-error=CODE,\n"
      "tool-error, input-required, cut-after-events=N, delay=DURATION, session-expired or unauthorized;\n"
      "WHEN is post=N[,M...], method=NAME or tool=NAME (none: every request the action applies to).\n"
      "\n"
      "Exit codes: 0 stopped; 1 an --expect or --fail-on was broken; 2 usage error; 3 cannot listen or record;\n"
      "130 stopped by SIGINT, 143 by SIGTERM, 129 by SIGHUP (1 wins when an expectation broke).\n"
      "Docs: docs/proxy.md.");
  CLI::App front_app{front ? front->description : std::string(), prog};
  if (front) front_app.footer(front->footer);
  CLI::App& app = front ? front_app : proxy_app;
  if (front) {
    front->add_options(app);
  } else {
    app.add_option("--upstream", opt.upstream, "The MCP server's URL (http:// or https://), e.g. http://127.0.0.1:3001/mcp")
        ->type_name("URL")
        ->required();
  }
  app.add_option("--listen", opt.listen,
                 "Address and port to listen on (default 127.0.0.1:8931; a port alone is on 127.0.0.1; 0 picks one)")
      ->type_name("ADDRESS:PORT");
  app.add_option("--record", opt.record,
                 "Write every exchange to FILE as it completes: .jsonl (exchange log) or .har (HAR 1.2); mode 0600")
      ->type_name("FILE")
      ->allow_extra_args(false);
  app.add_flag("--no-redact", opt.no_redact,
               "Keep credentials in recordings and output (Authorization, cookies, API keys, tokens); redacted by default");
  app.add_option("--inject", opt.inject, "Inject a fault: ACTION[@WHEN] (repeatable; below, and docs/proxy.md)")
      ->type_name("RULE")
      ->allow_extra_args(false);
  app.add_option("--watch", opt.watch,
                 "How long to watch the client after a failure for its next request, e.g. 30s (default 10s)")
      ->type_name("DURATION");
  // A front's upstream is its own, on 127.0.0.1: these two are not shown for it.
  app.add_flag("--insecure", opt.insecure, "Do not check the https upstream's certificate (never by default)")
      ->group(front ? "" : "Options");
  app.add_option("--connect-timeout", opt.connect_timeout, "Time allowed to connect to the upstream (default 10s)")
      ->type_name("DURATION")
      ->group(front ? "" : "Options");
  app.add_option("--idle-timeout", opt.idle_timeout,
                 "Close a client connection that sends no request for this long (default 30s); a request body that "
                 "stops this long gets 408")
      ->type_name("DURATION");
  app.add_option("--header-timeout", opt.header_timeout,
                 "Time a client has to send a request's whole header, from its first byte (default 10s; else 408)")
      ->type_name("DURATION");
  const CLI::Validator kPositiveSize(
      [](std::string& v) -> std::string {
        if (!v.empty() && v.front() == '-') return "a size cannot be negative";
        const std::size_t nonzero = v.find_first_not_of('0');
        if (nonzero == std::string::npos || !std::isdigit(static_cast<unsigned char>(v[nonzero])))
          return "a size must be more than 0";
        return std::string();
      },
      "SIZE");
  app.add_option("--max-body", opt.max_body,
                 "Largest body kept in a record, e.g. 64M (default 16M); a longer one is forwarded whole, cut in the "
                 "record and never judged a success")
      ->check(kPositiveSize)
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--record-memory", opt.record_memory,
                 "Memory for the records of every exchange in flight and not yet triaged (default 256M)")
      ->check(kPositiveSize)
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--max-connections", opt.max_connections, "Client connections open at once (default 512)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("-f,--format", opt.format, "Output format: table or jsonl (default: table on a terminal, else jsonl)")
      ->check(CLI::IsMember({"table", "jsonl"}));
  app.add_option("--color", opt.color, "Colour in the table: auto, always or never (NO_COLOR disables it)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  report::add_expectation_options(app, opt.expect, opt.fail_on);
  app.add_option("--report-junit", opt.report_junit, "Write a JUnit XML report to FILE at the end")->type_name("FILE");
  app.add_option("--report-tap", opt.report_tap, "Write a TAP version 13 report to FILE at the end ('-' for stdout)")
      ->type_name("FILE");
  app.add_option("--report-html", opt.report_html,
                 "Write the HTML session report of the proxied exchanges to FILE when the proxy stops ('-' for stdout)")
      ->type_name("FILE");
  app.add_option("--report-otlp", opt.report_otlp,
                 "Write the OTLP/JSON trace report of the proxied exchanges to FILE when the proxy stops ('-' for stdout)")
      ->type_name("FILE");
  app.add_flag("--explain", opt.explain,
               "Table: under each row, what the reason means, what to do next, and its spec link (as offline)");
  app.add_flag("-v,--verbose", opt.verbose,
               "Table: under each row, the record's warnings (as offline; JSON Lines always has them): what the "
               "proxy did, e.g. a 502 it made because the upstream refused the connection");
  app.add_flag("-q,--quiet", opt.quiet, "On stderr only the 'listening on' line and errors: no other start-up lines, no summary line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << prog << ": error: " << escape_terminal(e.what()) << "\nRun '" << prog << " --help' for usage.\n";
    return kUsage;
  }
  auto usage = [&prog](const std::string& why) {
    std::cerr << prog << ": error: " << escape_terminal(why) << "\n";
    return kUsage;
  };
  set_redaction(!opt.no_redact);

  ServerConfig config;
  if (!front) {
    auto upstream = parse_upstream(opt.upstream);
    if (!upstream) return usage(upstream.error());
    config.upstream = *upstream;
  }
  bool explicit_address = false;
  auto listen = parse_listen(opt.listen, explicit_address);
  if (!listen) return usage(listen.error());
  config.listen = *listen;
  for (const std::string& text : opt.inject) {
    auto rule = parse_rule(text);
    if (!rule) return usage(rule.error());
    if (!rule->body_file.empty()) {
      std::ifstream f(rule->body_file, std::ios::binary);
      if (!f) return usage("--inject '" + text + "': cannot read body file " + rule->body_file);
      rule->body.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    config.rules.push_back(std::move(*rule));
  }
  // The one duration grammar (io::parse_duration), as the triage run's --timeout.
  const auto not_duration = [](std::string_view flag, const std::string& text) {
    return std::string(flag) + " " + text + " is not a duration: " + std::string(io::duration_grammar());
  };
  auto watch = io::parse_duration(opt.watch);
  if (!watch) return usage(not_duration("--watch", opt.watch));
  auto connect_timeout = io::parse_duration(opt.connect_timeout);
  if (!connect_timeout) return usage(not_duration("--connect-timeout", opt.connect_timeout));
  config.connect_timeout = std::max(*connect_timeout, std::chrono::milliseconds(1));
  for (auto [name, text, into] : {std::tuple{"--idle-timeout", &opt.idle_timeout, &config.idle_timeout},
                                  std::tuple{"--header-timeout", &opt.header_timeout, &config.header_timeout}}) {
    auto d = io::parse_duration(*text);
    if (!d) return usage(not_duration(name, *text));
    *into = *d;
  }
  config.max_body = opt.max_body;
  config.max_connections = opt.max_connections;
  config.insecure = opt.insecure;

  triage::TriageOptions topt;
  if (!opt.expect.empty()) {
    auto list = parse_outcome_list(opt.expect);
    if (!list) return usage("--expect: " + list.error());
    topt.expect = Expectation{*list, std::nullopt, std::nullopt, {}};
  }
  if (!opt.fail_on.empty()) {
    auto list = parse_outcome_list(opt.fail_on);
    if (!list) return usage("--fail-on: " + list.error());
    topt.fail_on = *list;
  }
  for (const std::string& path : opt.record) {
    if (!Recording::kind_of(path)) return usage("--record " + path + ": the file name must end in .jsonl (or .ndjson) or .har");
  }
  topt.now = static_cast<long long>(std::time(nullptr));
  topt.wall_clock = true;
  topt.pipeline.jobs = 1;  // the core runs on the triage thread, inside ProxySource's feed calls
  const bool stdout_tty = isatty(STDOUT_FILENO) != 0;
  io::OutputOptions oo;
  const std::string format = opt.format.empty() ? (stdout_tty ? "table" : "jsonl") : opt.format;
  oo.jsonl = format == "jsonl";
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  oo.table.color = !oo.jsonl && !(no_color && no_color[0] != '\0') &&
                   (opt.color == "always" || (opt.color == "auto" && stdout_tty && !(term && std::string_view(term) == "dumb")));
  oo.table.explain = opt.explain;
  oo.table.verbose = opt.verbose;
  oo.report_junit = opt.report_junit;
  oo.report_tap = opt.report_tap;
  oo.report_html = opt.report_html;
  oo.report_otlp = opt.report_otlp;
  oo.now = topt.now;
  oo.reports_fail_alone = true;  // a report that cannot be written never stops the proxy
  oo.program = prog;
  // Records are named after the recording, so that `mcptriage FILE` gives the same sources.
  std::string input_name = "proxy";
  for (const std::string& path : opt.record) {
    if (Recording::kind_of(path) == Recording::Kind::jsonl) {
      input_name = path;
      break;
    }
  }
  if (input_name == "proxy" && !opt.record.empty()) input_name = opt.record.front();

  // Recordings, created before anything listens (a bad path is found at once).
  std::vector<std::unique_ptr<Recording>> recordings;
  for (const std::string& path : opt.record) {
    auto r = Recording::open(path);
    if (!r) {
      std::cerr << prog << ": error: " << escape_terminal(r.error()) << "\n";
      return kCannotRun;
    }
    recordings.push_back(std::move(*r));
  }

  std::string serving;  // a front's upstream, in words
  if (front) {
    auto started = front->start();
    if (!started) {
      std::cerr << prog << ": error: " << escape_terminal(started.error()) << "\n";
      return kCannotRun;
    }
    opt.upstream = started->first;
    serving = started->second;
    auto upstream = parse_upstream(opt.upstream);
    if (!upstream) {
      std::cerr << prog << ": error: " << escape_terminal(upstream.error()) << "\n";
      return kCannotRun;
    }
    config.upstream = *upstream;
  }
  if (!is_loopback(config.listen.address())) {
    // Only by an explicit address (a port alone is 127.0.0.1); said before binding.
    std::cerr << prog << ": warning: --listen " << escape_terminal(opt.listen)
              << " is not a loopback address: anyone who can reach this machine can send requests to the upstream "
                 "through the proxy, with whatever credentials the upstream trusts\n";
  }
  net::io_context ioc(1);
  Queue queue;
  RecordBudget budget(opt.record_memory);
  Server server(ioc, config, queue, budget);
  if (auto ok = server.listen(); !ok) {
    std::cerr << prog << ": error: " << escape_terminal(ok.error()) << "\n";
    return kCannotRun;
  }
  const tcp::endpoint bound = server.local_endpoint();
  const std::string host = bound.address().is_v6() ? "[" + bound.address().to_string() + "]" : bound.address().to_string();
  const std::string origin = fmt::format("http://{}:{}", host, bound.port());
  // Always said, --quiet or not: with --listen ADDRESS:0 it is how a script learns the port.
  std::cerr << prog << ": listening on " << origin << ", "
            << (front ? serving : "forwarding to " + escape_terminal(redact_url(opt.upstream))) << "\n";
  if (!opt.quiet) {
    std::cerr << prog << ": point the client at " << origin << escape_terminal(config.upstream.path) << "\n";
    for (const Rule& r : config.rules) std::cerr << prog << ": --inject " << escape_terminal(r.text) << "\n";
    for (const auto& r : recordings) {
      std::cerr << prog << ": recording to " << escape_terminal(r->path())
                << (opt.no_redact ? " (not redacted: --no-redact)" : " (credentials redacted)") << "\n";
    }
  }
  std::cerr << std::flush;

  // Stopping (network thread): every open exchange recorded as cut, then the queue closes and
  // the triage thread writes the summary and completes the recordings.
  std::atomic<bool> output_failed{false};
  std::string stopped_by;  // written on the network thread before the queue closes
  int stop_signal = 0;
  net::signal_set signals(ioc, SIGINT, SIGTERM, SIGHUP);
  std::function<void(std::string, int)> stop_proxy = [&](std::string why, int sig) {
    if (!stopped_by.empty()) return;
    stopped_by = std::move(why);
    stop_signal = sig;
    server.stop(stopped_by, [&] {
      queue.close();
      boost::system::error_code cec;
      signals.cancel(cec);
      ioc.stop();
    });
  };

  const auto run_started = Clock::now();
  int triage_status = 0;
  std::size_t exchanges = 0;  // for the warnings about rules that never applied
  std::map<std::string, std::size_t> injected_counts;
  std::thread triage_thread([&] {
    Watcher watcher(*watch);
    ProxySource source(queue, watcher, budget, recordings, input_name, [&] {
      if (!output_failed.exchange(true)) net::post(ioc, [&] { stop_proxy("output closed", 0); });
    });
    io::RunOutputs outputs(oo);
    io::StderrReport reporter;
    const std::vector<io::Input> inputs{io::Input{input_name, ""}};
    topt.observer = &source;
    triage::Triage core(inputs, topt, outputs.sinks(), reporter);
    source.set_core(core);
    std::optional<OutputError> output_error;
    try {
      core.run(source);
    } catch (const OutputError& e) {
      output_error = e;
    }
    for (const auto& r : recordings) r->close();
    for (const auto& r : recordings) {
      if (!r->error().empty()) {
        std::cerr << prog << ": error: --record " << escape_terminal(r->path()) << ": " << r->error() << "\n";
      }
    }
    const Counts& counts = source.counts();
    exchanges = counts.exchanges;
    injected_counts = counts.injected;
    if (output_error) {
      // Standard output closed (the reader went away): quietly, as offline; any other failure is exit 4.
      if (output_error->kind() == OutputError::Kind::failed) {
        std::cerr << prog << ": error: " << escape_terminal(output_error->what()) << "\n";
        triage_status = kOutputFailed;
      }
      return;
    }
    // The proxy's own summary, after the session summary.
    const auto duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - run_started);
    std::string j = "{\"schema\":1,\"kind\":\"proxy_summary\",\"listen\":\"" + json_escape(origin) + "\",\"upstream\":\"" +
                    json_escape(redact_url(opt.upstream)) + "\",\"exchanges\":" + std::to_string(counts.exchanges) +
                    ",\"skipped\":" + std::to_string(counts.skipped) + ",\"injected\":{";
    std::string t = fmt::format("proxy {} -> {}: {} exchange(s) in {}", origin, redact_url(opt.upstream), counts.exchanges,
                                human_duration(duration));
    bool first = true;
    for (const auto& [rule, n] : counts.injected) {
      j += (first ? "\"" : ",\"") + json_escape(rule) + "\":" + std::to_string(n);
      t += fmt::format("{} {} x{}", first ? "; injected" : ",", rule, n);
      first = false;
    }
    j += "},\"made_by_proxy\":" + std::to_string(counts.made) + ",\"cut\":{";
    if (counts.made > 0) t += fmt::format("; made by the proxy: {}", counts.made);
    first = true;
    for (const auto& [why, n] : counts.cuts) {
      j += (first ? "\"" : ",\"") + why + "\":" + std::to_string(n);
      t += fmt::format("{} {} {}", first ? "; cut:" : ",", n, why);
      first = false;
    }
    j += "},\"client_behaviour\":{";
    first = true;
    for (const auto& [action, n] : watcher.counts()) {
      j += (first ? "\"" : ",\"") + action + "\":" + std::to_string(n);
      t += fmt::format("{} {} {}", first ? "; after failures, the client:" : ",", n, action);
      first = false;
    }
    j += "},\"recorded\":[";
    first = true;
    for (const auto& r : recordings) {
      j += (first ? "\"" : ",\"") + json_escape(r->path()) + "\"";
      first = false;
    }
    j += fmt::format("],\"duration_ms\":{},\"stopped_by\":\"{}\"}}", duration.count(), json_escape(stopped_by));
    t += fmt::format("; stopped by {}", stopped_by);
    std::size_t broken = core.broken();
    try {
      core.note(Note{j, escape_terminal(t)});
      outputs.finish_records();
    } catch (const OutputError& e) {
      if (e.kind() == OutputError::Kind::failed) {
        std::cerr << prog << ": error: " << escape_terminal(e.what()) << "\n";
        triage_status = kOutputFailed;
      }
      return;
    }
    if (topt.expect && core.records() == 0) {
      std::cerr << "mcptriage: expectation broken: no exchange was read\n";  // as offline: nothing was checked
      broken = 1;
    }
    const bool reports_ok = outputs.finish_reports();
    if (!opt.quiet) std::cerr << "mcptriage: " << core.tally().summary(reporter.input_errors) << "\n";
    triage_status = !reports_ok ? kOutputFailed : broken > 0 || reporter.input_errors > 0 ? kExpectFailed : kOk;
  });
  // After the triage thread: a rule that never applied is usually a WHEN that names no request the
  // client sent (a typo in a tool name): said, so that a test that expected a fault knows it never came.
  auto warn_unapplied = [&] {
    for (const Rule& r : config.rules) {
      if (injected_counts.contains(r.text)) continue;
      std::cerr << prog << ": warning: --inject " << escape_terminal(r.text)
                << " never applied: no request it applies to came (" << exchanges << " exchange(s))\n";
    }
  };

  // Signals: the first stops the proxy (every open exchange recorded as cut, the summary and
  // the HAR completed); a second one exits at once.
  std::function<void(const boost::system::error_code&, int)> on_signal =
      [&](const boost::system::error_code& ec, int sig) {
        if (ec) return;
        if (!stopped_by.empty()) std::_Exit(128 + sig);
        signals.async_wait(on_signal);
        stop_proxy(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP", sig);
      };
  signals.async_wait(on_signal);
  server.start();
  ioc.run();
  // Draining the queue and writing the summary: a second signal now ends the process at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGHUP, SIG_DFL);
  triage_thread.join();
  warn_unapplied();
  if (front) {
    auto [said, failed] = front->finish();
    if (!said.empty()) std::cerr << prog << ": " << escape_terminal(said) << "\n";
    if (failed && triage_status == 0) triage_status = kExpectFailed;
  }
  if (triage_status == kOutputFailed) return kOutputFailed;  // as offline: 4 wins over the rest
  if (triage_status != 0) return kExpectFailed;
  if (output_failed) return kOk;
  if (stop_signal != 0) return 128 + stop_signal;
  return kOk;
}

}  // namespace mcptriage::proxy
