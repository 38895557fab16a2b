// Collecting a run's inputs (inputs.hpp): the folder walk, body pairing, request sidecars.
#include "io/inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <unordered_set>

#include "io/body_pairing.hpp"
#include "io/read_limited.hpp"
#include "mcptriage/capture.hpp"
#include "mcptriage/jsonrpc.hpp"

namespace mcptriage::io {

namespace {

namespace fs = std::filesystem;

bool is_request_sidecar(const fs::path& p) { return p.filename().string().ends_with(".request.json"); }

/// Files inside a folder that are not captures: documentation and manifests (docs/formats.md).
bool is_not_capture(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".md" || ext == ".manifest";
}

/// `X.request.json` beside capture `X.<ext>` gives that capture's request (docs/formats.md).
std::optional<fs::path> sidecar_for(const fs::path& p) {
  fs::path side = p;
  side.replace_extension(".request.json");
  std::error_code ec;
  if (side != p && fs::is_regular_file(side, ec)) return side;
  return std::nullopt;
}

/// In the order of fs::path's comparison (component by component: "a/b" before "a-b"), compared
/// as strings with the separator lowest: path::compare splits both paths into components at
/// every call, 14% of the run for a folder of 2,000 captures.
bool path_less(const std::string& x, const std::string& y) {
  const std::size_t n = std::min(x.size(), y.size());
  const std::size_t at = static_cast<std::size_t>(std::mismatch(x.begin(), x.begin() + n, y.begin()).first - x.begin());
  if (at == n) return x.size() < y.size();
  auto key = [](char ch) { return ch == '/' ? 0 : static_cast<int>(static_cast<unsigned char>(ch)) + 1; };
  return key(x[at]) < key(y[at]);
}

/// The capture files under folder `arg`, in path order, each with the sidecar the walk found.
void walk(const std::string& arg, std::vector<Input>& out, InputReport& report) {
  std::vector<std::string> files;
  std::unordered_set<std::string> sidecars;  // the request sidecars the walk found
  std::vector<std::pair<std::string, const char*>> skipped;  // (path, why): noted after the walk
  // Folder by folder, so that a folder that cannot be read is an input error of its own (exit
  // 3) and the walk goes on; recursive_directory_iterator could only skip it silently or
  // stop. Symbolic links to folders are not followed (as that iterator's default).
  std::vector<fs::path> folders{fs::path(arg)};
  bool walk_failed = false;  // reported already: no "holds no capture files" besides
  std::error_code ec;
  while (!folders.empty()) {
    const fs::path folder = std::move(folders.back());
    folders.pop_back();
    fs::directory_iterator it(folder, ec), end;
    if (ec) {
      report.input_error(folder.string(), ec.message());
      walk_failed = true;
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        report.input_error(folder.string(), ec.message());
        walk_failed = true;
        break;
      }
      std::error_code fec;
      // Hidden files and folders (".git", ".gitattributes", ".DS_Store") are version control
      // and desktop files, not captures, as in other tools that walk folders: a note each,
      // and a hidden folder is not entered. A hidden path given as an argument is read.
      if (const std::string name = it->path().filename().string(); name.starts_with('.')) {
        skipped.emplace_back(it->path().string(), it->is_directory(fec) ? "hidden folder" : "hidden file");
        continue;
      }
      if (it->is_directory(fec) && !it->is_symlink(fec)) {
        folders.push_back(it->path());
        continue;
      }
      if (!it->is_regular_file(fec)) continue;
      if (is_request_sidecar(it->path())) {
        sidecars.insert(it->path().string());
        continue;
      }
      if (is_not_capture(it->path())) {
        skipped.emplace_back(it->path().string(), "documentation or manifest, not a capture");
        continue;
      }
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end(), path_less);
  // The notes in the same order (directory order differs between file systems).
  std::sort(skipped.begin(), skipped.end(), [](const auto& x, const auto& y) { return path_less(x.first, y.first); });
  for (const auto& [path, why] : skipped) report.skipped(path, why);
  if (files.empty() && !walk_failed) report.input_error(arg, "folder holds no capture files");
  for (auto& f : files) {
    std::string side_name;
    if (!sidecars.empty()) {
      fs::path side = f;
      side.replace_extension(".request.json");
      if (side.string() != f && sidecars.contains(side.string())) side_name = side.string();
    }
    out.push_back(Input{f, f, "", std::move(side_name)});
  }
}

}  // namespace

std::vector<Input> collect_inputs(std::span<const std::string> args, InputReport& report) {
  std::vector<Input> inputs;
  for (const auto& arg : args) {
    if (arg == "-") {
      inputs.push_back(Input{.name = "stdin"});
      continue;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(arg, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
      report.input_error(arg, ec.message());  // "Permission denied", not "no such file"
      continue;
    }
    if (ec || !fs::exists(st)) {
      report.input_error(arg, "no such file or folder");
      continue;
    }
    if (fs::is_directory(st)) {
      walk(arg, inputs, report);
      continue;
    }
    inputs.push_back(Input{.name = arg, .path = arg});
  }
  return inputs;
}

void pair_bodies(std::vector<Input>& inputs, const std::string& body_file) {
  std::unordered_set<std::string> body_files;
  for (Input& in : inputs) {
    if (!body_file.empty()) in.body_path = body_file;
    else if (!in.path.empty()) in.body_path = paired_body_path(in.path).value_or("");
    if (!in.body_path.empty()) body_files.insert(fs::path(in.body_path).lexically_normal().string());
  }
  if (!body_files.empty()) {
    std::erase_if(inputs, [&](const Input& in) {
      return !in.path.empty() && body_files.count(fs::path(in.path).lexically_normal().string()) > 0;
    });
  }
}

ContextFlags context_for(const Input& in, const ContextFlags& flags) {
  ContextFlags file_flags = flags;
  if (in.path.empty()) return file_flags;
  std::optional<fs::path> side;
  if (in.walked_sidecar) {
    if (!in.walked_sidecar->empty()) side = *in.walked_sidecar;
  } else {
    side = sidecar_for(in.path);
  }
  if (side && !flags.request) {
    if (auto body = read_file_limited(side->string(), kDefaultMaxInput)) {
      file_flags.request = jsonrpc::read_request(*body);
      file_flags.request_origin = "request sidecar " + side->filename().string();
    } else {
      // Not silently: the exchange is judged without its request, and the record says why.
      file_flags.warnings.push_back(fmt::format("request sidecar {} could not be read ({}): judged without it",
                                                side->filename().string(), body.error().message));
    }
  }
  return file_flags;
}

}  // namespace mcptriage::io
