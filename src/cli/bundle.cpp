// `mcptriage bundle` (bundle.hpp): a triage run into a temporary folder, packed with libarchive.
#include "cli/bundle.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "render/har_write.hpp"
#include "cli/config.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"
#include "json/dom.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::cli {
namespace {

constexpr std::string_view kUsageText =
    "usage: mcptriage bundle OUTPUT.tar.gz [OPTIONS] PATH...\n"
    "  One archive for a bug report: the records (JSON Lines), the HTML report, the inputs redacted and\n"
    "  converted to one HAR 1.2 file, the version and command line, the spec links of every reason, and\n"
    "  a README.txt. OPTIONS are mcptriage's triage options (--session, --request FILE, --tools FILE,\n"
    "  --id, --method, --protocol-version, --status, --max-body, ...); the bundle is always redacted.\n"
    "  Docs: docs/bundle.md.\n";

/// Options a bundle sets itself or refuses: its outputs are its own, and it is always redacted.
constexpr std::string_view kRefused[] = {"--no-redact", "--format", "-f", "--report-junit", "--report-tap",
                                         "--report-html", "--report-otlp", "--export-har", "--follow", "--events",
                                         "--manifest"};

/// The member names, in the archive under `mcptriage-bundle/`.
constexpr std::string_view kDir = "mcptriage-bundle/";

/// A temporary folder, removed with what is in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/mcptriage-bundle-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {
      throw std::runtime_error("cannot make a temporary folder in " + std::string(base && *base ? base : "/tmp") +
                               ": " + std::strerror(errno));
    }
    path_ = buf.data();
  }
  ~TempDir() {
    for (const std::string& f : files_) ::unlink((path_ + "/" + f).c_str());
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// The path of member `name` (removed with the folder).
  std::string file(const std::string& name) {
    files_.push_back(name);
    return path_ + "/" + name;
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

/// An argument as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
std::string shell_quoted(std::string_view arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789@%_+=:,./-") == std::string_view::npos;
  if (plain) return std::string(arg);
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

/// What the records say: how many, and each reason with its spec link and count.
struct Reasons {
  std::size_t records = 0;
  std::map<std::string, std::pair<std::string, std::size_t>> by_reason;  ///< reason -> (spec, count)
};

Reasons read_reasons(const std::string& path) {
  Reasons out;
  std::ifstream in(path);
  json::Parser parser;
  std::string line;
  while (std::getline(in, line)) {
    auto v = parser.parse(line);
    if (!v || !v->is_object() || v->string_at("kind") != std::optional<std::string_view>("exchange")) continue;
    ++out.records;
    const auto reason = v->string_at("reason");
    if (!reason) continue;
    auto& [spec, count] = out.by_reason[std::string(*reason)];
    spec = std::string(v->string_at("spec").value_or(""));
    ++count;
  }
  return out;
}

/// Writes `files` (member name, path; a missing file is an empty member) as a gzip-compressed
/// POSIX tar at `output`. Error: one line.
std::expected<void, std::string> write_archive(const std::string& output,
                                               const std::vector<std::pair<std::string, std::string>>& files) {
  std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(), archive_write_free);
  if (!a) return std::unexpected(std::string("libarchive: out of memory"));
  auto failed = [&](std::string_view what) {
    return std::unexpected(std::string(what) + ": " + (archive_error_string(a.get()) ? archive_error_string(a.get()) : "unknown error"));
  };
  if (archive_write_add_filter_gzip(a.get()) != ARCHIVE_OK || archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK) {
    return failed("libarchive");
  }
  if (archive_write_open_filename(a.get(), output.c_str()) != ARCHIVE_OK) return failed("cannot write " + output);
  const std::time_t now = std::time(nullptr);
  for (const auto& [name, path] : files) {
    struct stat st {};
    const bool there = ::stat(path.c_str(), &st) == 0;
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(e.get(), (std::string(kDir) + name).c_str());
    archive_entry_set_size(e.get(), there ? st.st_size : 0);
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_mtime(e.get(), now, 0);
    if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK) return failed("cannot write " + output);
    if (!there) continue;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::unexpected("cannot read " + path + ": " + std::strerror(errno));
    std::vector<char> buf(1 << 16);
    off_t left = st.st_size;
    while (left > 0) {
      const ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fd);
        return std::unexpected("cannot read " + path + ": " + (n < 0 ? std::strerror(errno) : "it shrank"));
      }
      const std::size_t want = static_cast<std::size_t>(std::min<off_t>(n, left));
      if (archive_write_data(a.get(), buf.data(), want) != static_cast<la_ssize_t>(want)) {
        ::close(fd);
        return failed("cannot write " + output);
      }
      left -= static_cast<off_t>(want);
    }
    ::close(fd);
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) return failed("cannot write " + output);
  return {};
}

bool write_text(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

std::string bundle_readme(std::size_t records, std::size_t reasons) {
  return fmt::format(
      "mcptriage bundle (mcptriage {}): what a maintainer asks for when an MCP call over HTTP fails.\n"
      "\n"
      "What is inside\n"
      "  records.jsonl   the {} record(s) of the run, one JSON object a line (docs/output.md)\n"
      "  report.html     the HTML session report: open it in a browser; it makes no network request\n"
      "  capture.har     the inputs, whatever their capture format, as one HAR 1.2 file, redacted;\n"
      "                  `mcptriage capture.har` reads it back to the same verdicts (docs/bundle.md says\n"
      "                  what HAR cannot hold: a bare body's assumed status, a body cut short)\n"
      "  spec-links.txt  the {} reason(s) in the records, each with its count and the spec section of its rule\n"
      "  version.txt     the mcptriage version that made the bundle\n"
      "  command.txt     the command line that made it\n"
      "  README.txt      this file\n"
      "\n"
      "The capture files themselves are not in the bundle: only what capture.har holds of them.\n"
      "\n"
      "What was redacted (in every member; docs/security.md)\n"
      "  - Authorization and Proxy-Authorization values (the scheme is kept: `Bearer [REDACTED]`)\n"
      "  - Cookie and Set-Cookie values (names and attributes are kept)\n"
      "  - headers whose name holds token, secret, key, password, passwd, credential or signature, or\n"
      "    starts with X-Auth (X-API-Key, Api-Key, X-CSRF-Token)\n"
      "  - in URLs: the password of user:password@ (a lone user name whole), and query and fragment\n"
      "    parameters named like credentials (token, secret, key, password, credential, signature,\n"
      "    code, sig, auth, session, session_id, jwt, pwd, pass)\n"
      "  - in bodies and texts: Bearer and Basic credentials, access_token, refresh_token, id_token,\n"
      "    token, api_key, client_secret, password and secret values (form fields and JSON members)\n"
      "  - Mcp-Session-Id values, shortened to their first 8 characters\n"
      "Redaction goes by these rules: a secret under a name no rule knows stays. Look through\n"
      "capture.har before you attach the bundle.\n",
      tool_version(), records, reasons);
}

int bundle_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    std::cout << kUsageText;
    return std::cout.flush() ? 0 : 4;
  }
  auto usage = [](const std::string& why) {
    std::cerr << "mcptriage bundle: error: " << escape_terminal(why) << "\n" << kUsageText;
    return to_int(ExitCode::usage);
  };
  if (args.size() < 2) return usage("an archive name and at least one input are needed");
  const std::string output = args.front();
  if (!output.ends_with(".tar.gz") && !output.ends_with(".tgz")) {
    return usage("the archive's name must end in .tar.gz or .tgz: " + output);
  }
  for (const std::string& a : args) {
    if (a == "--") break;
    for (std::string_view refused : kRefused) {
      if (a == refused || (a.starts_with(refused) && a.size() > refused.size() && a[refused.size()] == '=')) {
        return usage(std::string(refused) + " cannot be given to bundle: " +
                     (refused == "--no-redact" ? "a bundle is always redacted" : "the bundle makes its own outputs"));
      }
    }
  }

  TempDir dir;
  const std::string records = dir.file("records.jsonl"), report = dir.file("report.html"), har = dir.file("capture.har");
  std::vector<std::string> triage_args{"mcptriage", "--format", "jsonl", "--report-html", report, "--export-har", har};
  triage_args.insert(triage_args.end(), args.begin() + 1, args.end());
  std::vector<const char*> triage_argv;
  for (const std::string& a : triage_args) triage_argv.push_back(a.c_str());
  auto raw = parse_options(static_cast<int>(triage_argv.size()), triage_argv.data());
  if (!raw) return said(raw.error());
  const Env env = Env::from_process();
  auto config = resolve_config(*raw, env);
  if (!config) {
    std::cerr << config.error().text;
    return to_int(ExitCode::usage);
  }
  std::cerr << config->notes;
  config->records_file = records;
  const ExitCode status = run(*config, env);
  if (status == ExitCode::usage || status == ExitCode::output_error) return to_int(status);

  const Reasons reasons = read_reasons(records);
  std::string links;
  for (const auto& [reason, spec_count] : reasons.by_reason) {
    links += fmt::format("{}\t{}\t{}\n", reason, spec_count.second, spec_count.first);
  }
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "mcptriage ") + shell_quoted(argv[i]);
  const std::string links_file = dir.file("spec-links.txt"), version_file = dir.file("version.txt"),
                    command_file = dir.file("command.txt"), readme_file = dir.file("README.txt");
  if (!write_text(links_file, links) || !write_text(version_file, fmt::format("mcptriage {}\n", tool_version())) ||
      !write_text(command_file, redact(command) + "\n") ||
      !write_text(readme_file, bundle_readme(reasons.records, reasons.by_reason.size()))) {
    std::cerr << "mcptriage bundle: error: cannot write the temporary folder's files: " << std::strerror(errno) << "\n";
    return to_int(ExitCode::output_error);
  }
  auto written = write_archive(output, {{"README.txt", readme_file},
                                        {"records.jsonl", records},
                                        {"report.html", report},
                                        {"capture.har", har},
                                        {"spec-links.txt", links_file},
                                        {"version.txt", version_file},
                                        {"command.txt", command_file}});
  if (!written) {
    ::unlink(output.c_str());
    std::cerr << "mcptriage bundle: error: " << escape_terminal(written.error()) << "\n";
    return to_int(ExitCode::output_error);
  }
  if (!config->quiet) {
    std::cerr << "mcptriage bundle: wrote " << escape_terminal(output) << " (" << reasons.records
              << " records, capture.har, report.html; redacted; see its README.txt)\n";
  }
  return to_int(status);
}

}  // namespace mcptriage::cli
