// The subcommand table's look-up and the help block made from it (src/cli/command.hpp).
#include <gtest/gtest.h>

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace mcptriage::cli {
namespace {

int one(int, char**) { return 1; }
int two(int, char**) { return 2; }

constexpr Command kTable[] = {
    {"explain", "what a name means", one},
    {"longername", "does more", two},
};

TEST(Command, FindsARowByItsExactName) {
  ASSERT_NE(find_command(kTable, "longername"), nullptr);
  EXPECT_EQ(find_command(kTable, "longername")->entry, &two);
  EXPECT_EQ(find_command(kTable, "explain")->entry, &one);
  EXPECT_EQ(find_command(kTable, "Explain"), nullptr);
  EXPECT_EQ(find_command(kTable, "explai"), nullptr);
  EXPECT_EQ(find_command(kTable, ""), nullptr);
  EXPECT_EQ(find_command({}, "explain"), nullptr);
}

TEST(Command, HelpListsEveryRowInOneColumn) {
  EXPECT_EQ(commands_help(kTable),
            "Subcommands (the first argument, before any option; mcptriage NAME --help for its usage):\n"
            "  explain     what a name means\n"
            "  longername  does more\n");
  EXPECT_EQ(commands_help({}), "");
}

TEST(Command, TriageHelpIsMadeFromTheTable) {
  const char* argv[] = {"mcptriage", "--help"};
  auto with = parse_options(2, argv, kTable);
  ASSERT_FALSE(with.has_value());
  EXPECT_EQ(with.error().code, 0);
  EXPECT_NE(with.error().out.find("  longername  does more\n"), std::string::npos) << with.error().out;
  auto without = parse_options(2, argv);
  ASSERT_FALSE(without.has_value());
  EXPECT_EQ(without.error().out.find("Subcommands"), std::string::npos);
}

}  // namespace
}  // namespace mcptriage::cli
