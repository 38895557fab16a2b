// The subcommand table's look-up and help text (command.hpp).
#include "cli/command.hpp"

#include <algorithm>

namespace mcptriage::cli {

const Command* find_command(std::span<const Command> commands, std::string_view name) {
  const auto it = std::ranges::find(commands, name, &Command::name);
  return it == commands.end() ? nullptr : &*it;
}

std::string commands_help(std::span<const Command> commands) {
  if (commands.empty()) return {};
  std::size_t width = 0;
  for (const Command& c : commands) width = std::max(width, c.name.size());
  std::string text = "Subcommands (the first argument, before any option; mcptriage NAME --help for its usage):\n";
  for (const Command& c : commands) {
    text += "  ";
    text += c.name;
    text.append(width - c.name.size() + 2, ' ');
    text += c.summary;
    text += '\n';
  }
  return text;
}

}  // namespace mcptriage::cli
