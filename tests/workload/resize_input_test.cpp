// Resize requests in the input (docs/semantics.md#resize-requests-of-running-jobs): the Batsim JSON
// job field "resize" and the --resize CSV file, with errors naming the file, the line and the key.

#include <gtest/gtest.h>

#include "batfill/workload/workload.hpp"

namespace batfill::workload {
namespace {

std::string with_jobs(const std::string& jobs) {
  return R"({"nb_res": 16, "profiles": {"d": {"type": "delay", "delay": 10}}, "jobs": [)" + jobs +
         "]}";
}

TEST(ResizeInput, JsonFieldGivesTheRequestsInOrder) {
  const Workload workload = read_batsim_json(
      "w.json", with_jobs(R"({"id": "1", "subtime": 0, "res": 4, "profile": "d", "walltime": 72000,
       "resize": [{"after": 14400, "nodes": 8}, {"after": 20000.5, "nodes": 2}]})"));
  ASSERT_TRUE(workload.jobs[0].is_valid()) << workload.jobs[0].rejection.text();
  const std::vector<ResizeRequest>& resizes = workload.jobs[0].resizes;
  ASSERT_EQ(resizes.size(), 2U);
  EXPECT_EQ(resizes[0].after, from_seconds(14400));
  EXPECT_EQ(resizes[0].nodes, 8);
  EXPECT_EQ(resizes[1].after, 20'000'500'000);
  EXPECT_EQ(resizes[1].nodes, 2);
  // Kept among the user fields, which `serve` forwards to the scheduler.
  EXPECT_NE(workload.jobs[0].extra_json.find("\"resize\""), std::string::npos);
}

TEST(ResizeInput, JsonErrorsMakeTheJobInvalidNamingLineAndKey) {
  const struct {
    std::string resize;
    std::string expected;
  } cases[] = {
      {R"([{"after": 10, "nodes": 0}])",
       "'resize[0].nodes' must be an integer from 1 to 1000000 (batfill's machine limit)"},
      {R"([{"after": 10, "nodes": 2147483648}])", "'resize[0].nodes' must be an integer from 1 to"},
      {R"([{"after": -1, "nodes": 2}])",
       "'resize[0].after' must be a number of seconds from 0 to 4.25e31 (batfill's time range)"},
      {R"([{"after": 1e300, "nodes": 2}])", "'resize[0].after' must be a number of seconds from 0"},
      {R"([{"after": 1, "nodes": 2}, {"after": 100, "nodes": 2}])",
       "'resize[1].after' must be before the job's walltime"},
      {R"({"after": 1})", "'resize' must be an array"},
  };
  for (const auto& c : cases) {
    const Workload workload =
        read_batsim_json("w.json", with_jobs("\n"
                                             R"({"id": "1", "subtime": 0, "res": 4, "profile": "d",
        "walltime": 100, "resize": )" + c.resize +
                                             "}"));
    const std::string reason = workload.jobs[0].rejection.text();
    EXPECT_NE(reason.find("w.json:2: jobs[0]"), std::string::npos) << reason;
    EXPECT_NE(reason.find(c.expected), std::string::npos) << reason;
  }
}

Workload two_jobs() {
  return read_batsim_json("w.json", with_jobs(R"({"id": "1", "subtime": 0, "res": 4, "profile": "d",
      "walltime": 72000}, {"id": "2", "subtime": 0, "res": 4, "profile": "d"})"));
}

TEST(ResizeInput, CsvFileAddsRequestsToAnyJob) {
  Workload workload = two_jobs();
  add_resize_requests("r.csv", "job_id,after,nodes\n1,14400,8\n\n2,5,1\r\n1,0,2\n", workload);
  ASSERT_EQ(workload.jobs[0].resizes.size(), 2U);
  EXPECT_EQ(workload.jobs[0].resizes[0].after, from_seconds(14400));
  EXPECT_EQ(workload.jobs[0].resizes[1].nodes, 2);
  ASSERT_EQ(workload.jobs[1].resizes.size(), 1U);  // no walltime: any `after` is before it
  EXPECT_EQ(workload.jobs[1].resizes[0].after, from_seconds(5));
}

// Spreadsheets put a UTF-8 byte-order mark before the header: it is no part of the header.
TEST(ResizeInput, CsvFileWithAByteOrderMarkIsRead) {
  Workload workload = two_jobs();
  add_resize_requests("r.csv", "\xEF\xBB\xBFjob_id,after,nodes\n1,10,2\n", workload);
  ASSERT_EQ(workload.jobs[0].resizes.size(), 1U);
}

TEST(ResizeInput, CsvErrorsNameFileLineAndColumn) {
  const struct {
    std::string text;
    std::string expected;
  } cases[] = {
      {"job_id,after,nodes\n1,10,2\n9,10,2\n",
       "r.csv:3: 'job_id' names no job of the workload: '9'"},
      {"job_id,after,nodes\n1,10,0\n",
       "r.csv:2: 'nodes' must be an integer from 1 to 1000000 (batfill's machine limit), got '0'"},
      {"job_id,after,nodes\n1,10,1.5\n", "r.csv:2: 'nodes' must be an integer from 1 to 1000000"},
      {"job_id,after,nodes\n1,10,2147483648\n",
       "r.csv:2: 'nodes' must be an integer from 1 to 1000000 (batfill's machine limit), got "
       "'2147483648'"},
      {"job_id,after,nodes\n1,-3,2\n",
       "r.csv:2: 'after' must be a number of seconds from 0 to 4.25e31 (batfill's time range), got "
       "'-3'"},
      {"job_id,after,nodes\n1,1e300,2\n",
       "r.csv:2: 'after' must be a number of seconds from 0 to 4.25e31 (batfill's time range), got "
       "'1e300'"},
      {"job_id,after,nodes\n1,72000,2\n",
       "r.csv:2: 'after' must be before the run limit of job '1' (72000.000000 s), got '72000'"},
      {"job,after,nodes\n", "r.csv:1: the header must be 'job_id,after,nodes'"},
      {"job_id,after,nodes\n1,10\n", "r.csv:2: expected 3 fields"},
      {"", "r.csv: no header line"},
  };
  for (const auto& c : cases) {
    Workload workload = two_jobs();
    try {
      add_resize_requests("r.csv", c.text, workload);
      ADD_FAILURE() << "no error for " << c.text;
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find(c.expected), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace batfill::workload
