// The host-config rewriter (host_config.hpp): json::Parser checks the whole file and its shape,
// json::member_value_range gives the byte ranges of `command` and `args` in the text, and the new
// values are spliced in there.
#include "wrap/host_config.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "io/read_limited.hpp"
#include "json/dom.hpp"
#include "mcptriage/render.hpp"

namespace mcptriage::wrap {
namespace {

/// The servers objects tried, in this order: (path, name for the user).
struct Place {
  std::vector<std::string_view> path;
  std::string_view label;
};
const Place kPlaces[] = {
    {{"mcpServers"}, "mcpServers"},
    {{"servers"}, "servers"},
    {{"mcp", "servers"}, "mcp.servers"},
};

/// How often `key` is a member name of `obj` (RFC 8259 §4: names SHOULD be unique; a file where
/// they are not is ambiguous, and parsers disagree on which one wins).
std::size_t count_key(json::View obj, std::string_view key) {
  std::size_t n = 0;
  for (const json::Member& m : obj.members()) n += m.key == key ? 1 : 0;
  return n;
}

/// Byte ranges in the text of one entry's members.
struct EntrySpans {
  json::TextRange command;
  std::optional<json::TextRange> args;
};

/// The entry as the parser read it, and where it is.
struct Found {
  std::string label;
  std::vector<std::string_view> path;  ///< the servers object's path, then the entry's name
  std::string command;
  std::vector<std::string> args;
};

std::expected<Found, std::string> find_entry(json::View root, std::string_view name) {
  if (!root.is_object()) return std::unexpected("the file is JSON but not an object");
  std::vector<std::string> names;
  std::vector<const Place*> holding;
  bool any = false;
  for (const Place& place : kPlaces) {
    json::View obj = root;
    bool ok = true;
    for (std::string_view key : place.path) {
      if (count_key(obj, key) > 1) return std::unexpected(fmt::format("the member \"{}\" appears twice", key));
      auto next = obj.get(key);
      if (!next || !next->is_object()) {
        ok = false;
        break;
      }
      obj = *next;
    }
    if (!ok) continue;
    any = true;
    for (const json::Member& m : obj.members()) names.emplace_back(m.key);
    const std::size_t n = count_key(obj, name);
    if (n > 1) return std::unexpected(fmt::format("server \"{}\" appears twice in {}", name, place.label));
    if (n == 1) holding.push_back(&place);
  }
  if (!any) {
    return std::unexpected(
        "unknown configuration shape: no \"mcpServers\" object (Claude Desktop, Cursor), \"servers\" object "
        "(VS Code mcp.json) or \"mcp\": {\"servers\"} (VS Code settings.json)");
  }
  if (holding.empty()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return std::unexpected(
        fmt::format("no server \"{}\" in the file (servers: {})", name, list.empty() ? "none" : list));
  }
  if (holding.size() > 1) {
    return std::unexpected(fmt::format("server \"{}\" is in both {} and {}: say which by editing one away", name,
                                       holding[0]->label, holding[1]->label));
  }
  Found f;
  f.label = holding[0]->label;
  f.path = holding[0]->path;
  f.path.push_back(name);
  json::View entry = root;
  for (std::string_view key : f.path) entry = *entry.get(key);
  if (!entry.is_object()) return std::unexpected(fmt::format("server \"{}\" is not an object", name));
  for (std::string_view key : {"command", "args", "url", "type"}) {
    if (count_key(entry, key) > 1) {
      return std::unexpected(fmt::format("server \"{}\" has the member \"{}\" twice", name, key));
    }
  }
  if (auto type = entry.string_at("type"); type && *type != "stdio") {
    return std::unexpected(fmt::format(
        "server \"{}\" has type \"{}\": only stdio servers run through the wrapper (for HTTP: mcptriage proxy)", name,
        *type));
  }
  if (entry.get("url") || entry.get("serverUrl")) {
    return std::unexpected(fmt::format(
        "server \"{}\" is a remote server (it has a url): only stdio servers run through the wrapper (for HTTP: "
        "mcptriage proxy)",
        name));
  }
  auto command = entry.string_at("command");
  if (!command) return std::unexpected(fmt::format("server \"{}\" has no \"command\" string", name));
  f.command = std::string(*command);
  if (auto args = entry.get("args")) {
    if (!args->is_array()) return std::unexpected(fmt::format("server \"{}\": \"args\" is not an array", name));
    for (json::View a : args->items()) {
      auto s = a.string();
      if (!s) {
        return std::unexpected(fmt::format("server \"{}\": \"args\" holds something that is not a string", name));
      }
      f.args.emplace_back(*s);
    }
  }
  return f;
}

/// Where `command` and `args` of the entry at `path` are in `text` (valid JSON).
std::expected<EntrySpans, std::string> locate(std::string_view text, const std::vector<std::string_view>& path) {
  std::vector<std::string_view> at = path;
  at.emplace_back("command");
  auto command = json::member_value_range(text, at);
  if (!command) return std::unexpected("cannot find \"command\" again");
  at.back() = "args";
  return EntrySpans{*command, json::member_value_range(text, at)};
}

std::string json_array(const std::vector<std::string>& words) {
  std::string out = "[";
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(out, words[i]);
  }
  out += "]";
  return out;
}

bool is_wrapper(const Found& f) {
  std::string_view cmd = f.command;
  const auto slash = cmd.find_last_of("/\\");
  std::string_view base = slash == std::string_view::npos ? cmd : cmd.substr(slash + 1);
  if (base.ends_with(".exe")) base.remove_suffix(4);
  return base == "mcptriage" && !f.args.empty() && f.args.front() == "wrap";
}

/// Reads `config` and finds the entry; the error says why nothing is written.
std::expected<std::pair<Found, EntrySpans>, std::string> read_entry(std::string_view config, std::string_view name) {
  json::Parser parser;
  auto root = parser.parse(config);
  if (!root) {
    return std::unexpected(fmt::format(
        "not JSON ({}); mcptriage edits plain JSON only (no comments, no trailing commas): edit this entry by hand "
        "(docs/wrap.md)",
        root.error().message));
  }
  auto found = find_entry(*root, name);
  if (!found) return std::unexpected(found.error());
  auto spans = locate(config, found->path);
  if (!spans) return std::unexpected(spans.error());
  return std::pair{std::move(*found), *spans};
}

/// `text` with the entry's command and args replaced.
std::string splice(std::string_view text, const EntrySpans& spans, const std::vector<std::string>& command_and_args) {
  std::string command;
  append_json_string(command, command_and_args.front());
  const std::vector<std::string> args(command_and_args.begin() + 1, command_and_args.end());
  std::string out;
  out.reserve(text.size() + 256);
  if (spans.args && spans.args->begin < spans.command.begin) {
    out.append(text.substr(0, spans.args->begin));
    out += json_array(args);
    out.append(text.substr(spans.args->end, spans.command.begin - spans.args->end));
    out += command;
    out.append(text.substr(spans.command.end));
    return out;
  }
  out.append(text.substr(0, spans.command.begin));
  out += command;
  if (spans.args) {
    out.append(text.substr(spans.command.end, spans.args->begin - spans.command.end));
    out += json_array(args);
    out.append(text.substr(spans.args->end));
  } else {
    out += ", \"args\": " + json_array(args);
    out.append(text.substr(spans.command.end));
  }
  return out;
}

/// A UTF-8 byte order mark at the start (editors on Windows write one; RFC 8259 §8.1 lets a parser
/// ignore it), kept in the file and not given to the parser.
std::string_view byte_order_mark(std::string_view text) {
  return text.starts_with("\xEF\xBB\xBF") ? text.substr(0, 3) : std::string_view{};
}

}  // namespace

std::expected<ConfigEdit, std::string> wrap_server_entry(std::string_view config, std::string_view name,
                                                         std::string_view wrapper,
                                                         const std::vector<std::string>& wrap_args) {
  const std::string_view bom = byte_order_mark(config);
  config.remove_prefix(bom.size());
  auto read = read_entry(config, name);
  if (!read) return std::unexpected(read.error());
  const auto& [found, spans] = *read;
  if (is_wrapper(found)) {
    return std::unexpected(
        fmt::format("server \"{}\" already runs through mcptriage wrap: --unwrap it first", name));
  }
  ConfigEdit edit;
  edit.where = found.label;
  edit.before.push_back(found.command);
  edit.before.insert(edit.before.end(), found.args.begin(), found.args.end());
  edit.after.emplace_back(wrapper);
  edit.after.emplace_back("wrap");
  edit.after.insert(edit.after.end(), wrap_args.begin(), wrap_args.end());
  edit.after.emplace_back("--");
  edit.after.insert(edit.after.end(), edit.before.begin(), edit.before.end());
  edit.text = std::string(bom) + splice(config, spans, edit.after);
  return edit;
}

std::expected<ConfigEdit, std::string> unwrap_server_entry(std::string_view config, std::string_view name) {
  const std::string_view bom = byte_order_mark(config);
  config.remove_prefix(bom.size());
  auto read = read_entry(config, name);
  if (!read) return std::unexpected(read.error());
  const auto& [found, spans] = *read;
  const auto dashes = std::find(found.args.begin(), found.args.end(), std::string("--"));
  if (!is_wrapper(found) || dashes == found.args.end() || dashes + 1 == found.args.end()) {
    return std::unexpected(fmt::format("server \"{}\" does not run through mcptriage wrap: nothing to unwrap", name));
  }
  ConfigEdit edit;
  edit.where = found.label;
  edit.before.push_back(found.command);
  edit.before.insert(edit.before.end(), found.args.begin(), found.args.end());
  edit.after.assign(dashes + 1, found.args.end());
  edit.text = std::string(bom) + splice(config, spans, edit.after);
  return edit;
}

}  // namespace mcptriage::wrap

namespace mcptriage::wrap {
namespace {

/// A word as a POSIX shell would need it quoted, for showing a command line.
std::string shell_word(std::string_view w) {
  const bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%+=:,./_-", c) != nullptr;
  });
  if (plain) return std::string(w);
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_line(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + shell_word(w);
  return escape_terminal(out);
}

/// Writes `text` to `path` (mode `mode`) through a temporary file and rename(2); on failure the
/// temporary file is removed and `path` is as it was.
std::expected<void, std::string> replace_file(const std::string& path, std::string_view text, mode_t mode) {
  const std::string tmp = path + ".mcptriage-tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode & 07777);
  if (fd < 0) return std::unexpected(fmt::format("cannot create {}: {}", tmp, std::strerror(errno)));
  ::fchmod(fd, mode & 07777);  // the umask may have taken bits away
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return std::unexpected(fmt::format("cannot write {}: {}", tmp, why));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return std::unexpected(fmt::format("cannot write {}: {}", tmp, why));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return std::unexpected(fmt::format("cannot replace {}: {}", path, why));
  }
  return {};
}

}  // namespace

int edit_config_file(const ConfigRequest& req, std::FILE* out, std::FILE* err) {
  constexpr int kFailed = 3;
  const std::string shown = escape_terminal(req.path);
  auto fail = [&](const std::string& why) {
    std::fprintf(err, "mcptriage wrap: error: %s: %s; nothing changed\n", shown.c_str(), escape_terminal(why).c_str());
    return kFailed;
  };
  std::error_code ec;
  // Write the file a symbolic link points to, so that the link (a dotfiles checkout, say) stays.
  const std::string target = std::filesystem::canonical(req.path, ec).string();
  if (ec) return fail(ec.message());
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  auto text = io::read_file_limited(target, std::size_t{16} << 20);
  if (!text) return fail(text.error().message);
  auto edit = req.unwrap ? unwrap_server_entry(*text, req.server) : wrap_server_entry(*text, req.server, req.wrapper,
                                                                                        req.wrap_args);
  if (!edit) return fail(edit.error());
  const std::string backup = target + ".mcptriage-backup";
  bool exact = false;
  if (req.unwrap) {
    // When the file is exactly its backup with this entry wrapped (nothing else was edited since),
    // the backup is the file as it was, to the byte: its formatting of `args` included.
    const auto dashes = std::find(edit->before.begin() + 1, edit->before.end(), std::string("--"));
    const std::vector<std::string> options(edit->before.begin() + 2, dashes);
    if (auto old = io::read_file_limited(backup, std::size_t{16} << 20)) {
      auto again = wrap_server_entry(*old, req.server, edit->before.front(), options);
      if (again && again->text == *text) {
        edit->text = std::move(*old);
        exact = true;
      }
    }
  }
  if (!req.dry_run) {
    if (auto r = replace_file(backup, *text, st.st_mode); !r) return fail(r.error());
    if (auto r = replace_file(target, edit->text, st.st_mode); !r) return fail(r.error());
  }
  const std::string name = escape_terminal(req.server);
  std::fprintf(out, "%s server \"%s\" in %s (%s)%s\n",
               req.dry_run ? "would change" : "changed", name.c_str(), shown.c_str(), edit->where.c_str(),
               req.unwrap ? ": it runs without the wrapper again" : ": it runs through mcptriage wrap");
  std::fprintf(out, "  before: %s\n  after:  %s\n", command_line(edit->before).c_str(),
               command_line(edit->after).c_str());
  if (req.dry_run) {
    std::fprintf(out, "Nothing written (--dry-run).\n");
    return 0;
  }
  if (exact) std::fprintf(out, "  restored byte for byte from the backup made when it was wrapped\n");
  std::fprintf(out, "  backup of the file as it was: %s\n", escape_terminal(backup).c_str());
  std::fprintf(out, "Restart the host (or reload its MCP servers) to apply.\n");
  return 0;
}

}  // namespace mcptriage::wrap
