// The version is declared once, in CMake's project(): the binary must print that value, both
// for --version and in _schedule.csv's batsim_version column.

#include "cli_support.hpp"

namespace batfill {
namespace {

const std::string kExpected = std::string("batfill ") + BATFILL_PROJECT_VERSION;

TEST(Version, FlagPrintsTheCMakeProjectVersion) {
  const cli_testing::CommandResult result = cli_testing::run("--version");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, kExpected + "\n");
}

TEST(Version, ScheduleCsvCarriesTheCMakeProjectVersion) {
  const std::string prefix = cli_testing::output_dir() + "/run";
  const cli_testing::CommandResult result =
      cli_testing::run("simulate " + cli_testing::source_path("workloads/tiny.swf") +
                       " --no-progress --output " + prefix);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<cli_testing::CsvRow> rows = cli_testing::read_csv(prefix + "_schedule.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("batsim_version"), kExpected);
}

}  // namespace
}  // namespace batfill
