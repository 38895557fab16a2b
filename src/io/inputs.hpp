// The inputs of a run from its PATH arguments: files, folders walked (recursive, sorted, hidden
// files skipped with a note), standard input; curl -v captures paired with their body files;
// the request context of each input (its `X.request.json` sidecar). docs/formats.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/source.hpp"
#include "mcptriage/classify.hpp"

namespace mcptriage::io {

/// What collecting inputs has to tell, as it is found (the CLI prints it on standard error).
class InputReport {
 public:
  virtual ~InputReport() = default;
  /// `name` cannot be read (`why`: "no such file or folder", "Permission denied", ...): an
  /// input error; the other inputs are still read.
  virtual void input_error(std::string_view name, std::string_view why) = 0;
  /// A file or folder a walk passed over (`why`: "hidden file", ...).
  virtual void skipped(std::string_view path, std::string_view why) = 0;
};

/// The inputs named by `args`, in order: "-" is standard input (named "stdin"), a folder gives
/// its capture files (recursive, sorted as paths; symbolic links to folders not followed; hidden
/// entries, `.md` and `.manifest` files noted as skipped; `X.request.json` sidecars kept for
/// their captures), a file is itself. A path that cannot be read is an input error.
std::vector<Input> collect_inputs(std::span<const std::string> args, InputReport& report);

/// curl -v keeps headers and body apart: each capture gets its body file, `body_file` for the
/// one input when given, else `X-stdout.txt` beside `X-stderr.txt` (body_pairing.hpp); a body
/// file is then no input of its own and is removed from `inputs`.
void pair_bodies(std::vector<Input>& inputs, const std::string& body_file);

/// The request context of `input`: `flags`, plus the body of its request sidecar
/// (`X.request.json` beside capture `X.<ext>`) when `flags` has no request body; a sidecar that
/// cannot be read is a warning on each of its records, not an error.
ContextFlags context_for(const Input& input, const ContextFlags& flags);

}  // namespace mcptriage::io
