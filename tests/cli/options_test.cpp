// The command line: batfill's own --backfill/--order/--alloc and batsched's spellings
// (-v/--variant, -o/--queue_order, -p/--policy, --variant_options): a user
// replaces `batsched -v easy_bf` with `batfill serve -v easy_bf` and nothing else changes.

#include <algorithm>

#include "cli_support.hpp"

namespace batfill {
namespace {

using cli_testing::run;

// The summary's first line names the policy, order and allocation rule in force.
std::string settings_line(const std::string& options) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --no-progress --output " +
          cli_testing::output_dir() + "/x " + options);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  // The summary's first line; a sanitized build may print its own warnings before it.
  const std::size_t start = result.output.find("batfill simulate:");
  if (start == std::string::npos) return "";
  return result.output.substr(start, result.output.find('\n', start) - start);
}

TEST(BatschedAliases, VariantsMapToBatfillPolicies) {
  EXPECT_NE(settings_line("-v easy_bf").find("batfill easy-classic,"), std::string::npos);
  EXPECT_NE(settings_line("--variant conservative_bf").find("batfill conservative-classic,"),
            std::string::npos);
  EXPECT_NE(settings_line("-v fcfs").find("batfill none,"), std::string::npos);
  EXPECT_NE(settings_line("-v fcfs_fast").find("batfill none,"), std::string::npos);
  EXPECT_NE(settings_line("-v conservative").find("batfill conservative,"), std::string::npos);
}

TEST(BatschedAliases, QueueOrderAndMachineChoice) {
  const std::string line = settings_line("-o asc_size -p contiguous");
  EXPECT_NE(line.find("order asc_size"), std::string::npos) << line;
  EXPECT_NE(line.find("alloc contiguous"), std::string::npos) << line;
  EXPECT_NE(settings_line("-p basic").find("alloc lowest"), std::string::npos);
  EXPECT_NE(
      settings_line("--queue_order desc_bounded_slowdown").find("order desc_bounded_slowdown"),
      std::string::npos);
}

TEST(BatschedAliases, VariantOptionsJson) {
  const std::string line =
      settings_line("--variant_options '{\"backfill\":\"conservative\",\"order\":\"lcfs\"}'");
  EXPECT_NE(line.find("batfill conservative, order lcfs"), std::string::npos) << line;
}

TEST(BatschedAliases, UnknownVariantListsWhatExists) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --output " +
          cli_testing::output_dir() + "/x -v fillr");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("'fillr'"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("easy_bf"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("conservative-classic"), std::string::npos) << result.output;
}

TEST(BatschedAliases, PolicyMeansMachineChoiceNotAlgorithm) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --output " +
          cli_testing::output_dir() + "/x -p easy");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("basic, contiguous"), std::string::npos) << result.output;
}

TEST(BatschedAliases, ConflictingSpellingsAreRefused) {
  const cli_testing::CommandResult result =
      run("simulate " BATFILL_SOURCE_DIR "/workloads/tiny.swf --output " +
          cli_testing::output_dir() + "/x --backfill easy -v conservative_bf");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("conflicting"), std::string::npos) << result.output;
}

// Prediction options are checked before anything runs
// (docs/semantics.md#predictions-correctors-and-backfill-order).
TEST(PredictionOptions, BadNamesAndCombinationsAreRefused) {
  const cli_testing::CommandResult unknown = cli_testing::run("serve --predictor oracle");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.output.find("unknown predictor 'oracle' (valid: requested, clairvoyant, "
                                "tsafrir, sgd)"),
            std::string::npos);
  const cli_testing::CommandResult sjbf =
      cli_testing::run("serve --backfill easy --backfill-order sjbf");
  EXPECT_NE(sjbf.exit_code, 0);
  EXPECT_NE(sjbf.output.find("needs a policy that orders its candidates"), std::string::npos);
  const cli_testing::CommandResult option =
      cli_testing::run("serve --predictor tsafrir --predictor-options '{\"eta\":1}'");
  EXPECT_NE(option.exit_code, 0);
  EXPECT_NE(option.output.find("predictor 'tsafrir' takes no options"), std::string::npos);
  const cli_testing::CommandResult batching = cli_testing::run("serve --batching per-second");
  EXPECT_NE(batching.exit_code, 0);
  EXPECT_NE(batching.output.find("unknown event batching 'per-second' (valid: instant, per-event)"),
            std::string::npos)
      << batching.output;
}

// The line of `output` from `from` on.
std::string line_from(const std::string& output, const std::string& from) {
  const std::size_t start = output.find(from);
  if (start == std::string::npos) return "(not found) " + output;
  return output.substr(start, output.find('\n', start) - start);
}

// A bad value, and an unknown key, get the same message from a flag, from --variant_options and
// from --sched-cfg (the table of settings, docs/protocol.md#options-through-batsim).
TEST(Settings, SameMessageFromEveryPath) {
  const std::string simulate = "simulate " BATFILL_SOURCE_DIR
                               "/workloads/tiny.swf --no-progress --output " +
                               cli_testing::output_dir() + "/x ";
  const std::string expected =
      "setting 'predictor' (--predictor): unknown predictor 'oracle' (valid: requested, "
      "clairvoyant, tsafrir, sgd)";
  for (const std::string& command :
       {std::string("serve --predictor oracle"),
        std::string("serve --variant_options '{\"predictor\":\"oracle\"}'"),
        simulate + "--sched-cfg '{\"predictor\":\"oracle\"}'"}) {
    const cli_testing::CommandResult result = run(command);
    EXPECT_EQ(result.exit_code, 1) << command;
    EXPECT_EQ(line_from(result.output, "setting '"), expected) << command;
  }
  const std::string unknown_key =
      "unknown key 'foo' (valid: backfill, order, alloc, predictor, predictor_options, "
      "corrector, backfill_order, queues, batching, power_off_after, power_switch_on, "
      "power_switch_off, power_keep_awake, pstate_sleep, pstate_compute)";
  for (const std::string& command : {std::string("serve --variant_options '{\"foo\":1}'"),
                                     simulate + "--sched-cfg '{\"foo\":1}'"}) {
    const cli_testing::CommandResult result = run(command);
    EXPECT_EQ(result.exit_code, 1) << command;
    EXPECT_EQ(line_from(result.output, "unknown key"), unknown_key) << command;
  }
}

TEST(Help, ServeAndSimulateDescribeTheirOptions) {
  const cli_testing::CommandResult serve = run("serve --help");
  EXPECT_EQ(serve.exit_code, 0);
  EXPECT_NE(serve.output.find("--socket-endpoint"), std::string::npos);
  EXPECT_NE(serve.output.find("--variant"), std::string::npos);
  EXPECT_NE(serve.output.find("--batching"), std::string::npos);  // pyss's handling is serve's too
  const cli_testing::CommandResult simulate = run("simulate --help");
  EXPECT_EQ(simulate.exit_code, 0);
  EXPECT_NE(simulate.output.find("--platform"), std::string::npos);
  EXPECT_NE(run("frobnicate").exit_code, 0);
}

}  // namespace
}  // namespace batfill

namespace batfill {
namespace {

// Every policy with every queue order runs end to end and accounts for every job.
TEST(Combinations, EveryPolicyWithEveryOrderRuns) {
  const std::string dir = cli_testing::output_dir();
  for (const std::string& policy : cli_testing::kPolicies) {
    for (const std::string& order : cli_testing::kQueueOrders) {
      const std::string prefix = dir + "/" + policy + "-" + order;
      const cli_testing::CommandResult result =
          cli_testing::run(std::string("simulate " BATFILL_SOURCE_DIR
                                       "/workloads/drevt-huge_2000jobs.csv --nodes 400 "
                                       "--no-progress --backfill ") +
                           policy + " --order " + order + " --output " + prefix);
      ASSERT_EQ(result.exit_code, 0) << policy << " " << order << "\n" << result.output;
      const auto rows = cli_testing::read_csv(prefix + "_jobs.csv");
      EXPECT_EQ(rows.size(), 2000u) << policy << " " << order;
      cli_testing::expect_valid_schedule(prefix + "_jobs.csv", "--nodes 400");
      for (const auto& row : rows) {
        EXPECT_NE(row.at("final_state"), "REJECTED") << policy << " " << order;
      }
    }
  }
}

}  // namespace
}  // namespace batfill

namespace batfill {
namespace {

// The combination tests cover every registered policy: kPolicies must list what `batfill
// policies` prints, so a newly registered policy cannot be left out silently. The policies of
// batsched's variants (`sequential`, `easy-bf-fast`, `filler`, `rejecter`) have no golden outputs
// yet: they are left out by name, and checked beside batsched (tests/batsim/variants_test.cpp).
const std::vector<std::string> kNotInCombinations = {"sequential", "easy-bf-fast", "filler",
                                                     "rejecter"};

TEST(Combinations, TestListsEveryRegisteredPolicy) {
  const cli_testing::CommandResult result = cli_testing::run("policies");
  ASSERT_EQ(result.exit_code, 0);
  std::vector<std::string> names;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("--", 0) == 0) continue;  // the predictors and correctors listed after them
    const std::string name = line.substr(0, line.find('\t'));
    if (std::find(kNotInCombinations.begin(), kNotInCombinations.end(), name) ==
        kNotInCombinations.end()) {
      names.push_back(name);
    }
  }
  EXPECT_EQ(names, cli_testing::kPolicies);
}

}  // namespace
}  // namespace batfill
