// The golden test's explanations (golden_diff.hpp) on small texts whose differences are placed
// by hand: each must name the row, job, column, block or line where they were placed.

#include "golden_diff.hpp"

namespace batfill {
namespace {

const std::string kHeader = "job_id,starting_time,allocated_resources,metadata\n";

TEST(GoldenDiff, CsvDifferenceNamesRowJobColumnAndBothValues) {
  const std::string recorded = kHeader + "1,0.000000,0-3,\"\"\n7,5.000000,4,\"\"\n";
  const std::string produced = kHeader + "1,0.000000,0-3,\"\"\n7,6.000000,4,\"\"\n";
  const golden::CsvDifference difference = golden::first_csv_difference(recorded, produced);
  EXPECT_EQ(difference.describe(),
            "row 2 (job 7), column starting_time: '6.000000', recorded '5.000000'");
  EXPECT_EQ(golden::first_csv_difference(recorded, recorded).row, 0u);
  EXPECT_TRUE(golden::first_csv_difference(recorded, recorded).column.empty());
}

TEST(GoldenDiff, CsvDifferenceNamesAMissingRowAndAChangedHeader) {
  const std::string recorded = kHeader + "1,0.000000,0-3,\"\"\n7,5.000000,4,\"\"\n";
  const std::string shorter = kHeader + "1,0.000000,0-3,\"\"\n";
  const golden::CsvDifference missing = golden::first_csv_difference(recorded, shorter);
  EXPECT_EQ(missing.row, 2u);
  EXPECT_EQ(missing.job, "7");
  EXPECT_EQ(missing.produced, "(none)");
  const golden::CsvDifference header =
      golden::first_csv_difference(recorded, "job_id,start\n1,0\n");
  EXPECT_EQ(header.row, 0u);
  EXPECT_EQ(header.column, "(header)");
}

TEST(GoldenDiff, ScheduleDifferenceNamesNoJob) {
  const golden::CsvDifference difference =
      golden::first_csv_difference("batsim_version,makespan\nbatfill 0.1.0,10.000000\n",
                                   "batsim_version,makespan\nbatfill 0.1.0,12.000000\n");
  EXPECT_EQ(difference.describe(), "row 1, column makespan: '12.000000', recorded '10.000000'");
}

TEST(GoldenDiff, LineDifferenceNamesLineAndCharacter) {
  const golden::LineDifference difference =
      golden::first_line_difference("reply #1: a\nreply #2: bcd\n", "reply #1: a\nreply #2: bXd\n");
  EXPECT_EQ(difference.line, 2u);
  EXPECT_EQ(difference.column, 12u);
  EXPECT_EQ(difference.produced, "reply #2: bXd");
  EXPECT_EQ(golden::first_line_difference("a\n", "a\n").line, 0u);
  EXPECT_EQ(golden::first_line_difference("a\n", "a\nb\n").line, 2u);
}

// 200 rows in blocks of 64: rows 1-64, 65-128 (from job 65), 129-192, 193-200.
std::string numbered_rows(std::size_t changed_row) {
  std::string csv = kHeader;
  for (std::size_t i = 1; i <= 200; ++i) {
    csv += std::to_string(i) + "," + (i == changed_row ? "9" : "1") + ".000000,0,\"\"\n";
  }
  return csv;
}

TEST(GoldenDiff, FingerprintNamesTheColumnAndFirstBlockThatDiffer) {
  const golden::CsvFingerprint recorded = golden::fingerprint(numbered_rows(0), 64);
  ASSERT_EQ(recorded.blocks.size(), 4u);
  EXPECT_EQ(recorded.blocks[1].first, "65");
  const golden::CsvFingerprint parsed = golden::CsvFingerprint::parse(recorded.to_line());
  EXPECT_EQ(parsed.to_line(), recorded.to_line());
  const std::string text =
      golden::describe_difference(parsed, golden::fingerprint(numbered_rows(100), 64));
  EXPECT_NE(text.find("columns that differ somewhere: starting_time\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rows 65 to 128 (lines 66 to 129 with the header), first job 65"),
            std::string::npos)
      << text;
}

TEST(GoldenDiff, GzipRoundTripsAndIsReproducible) {
  const std::string dir = cli_testing::output_dir();
  const std::string text = numbered_rows(3);
  golden::write_gzip(dir + "/a.gz", text);
  golden::write_gzip(dir + "/b.gz", text);
  EXPECT_EQ(golden::read_gzip(dir + "/a.gz"), text);
  EXPECT_EQ(cli_testing::read_file(dir + "/a.gz"), cli_testing::read_file(dir + "/b.gz"));
}

}  // namespace
}  // namespace batfill
