// The resize-request book alone (docs/semantics.md#resize-requests-of-running-jobs): the requests'
// names, planned times and owners, worked out by hand from the running job's start, walltime and
// prediction.

#include <gtest/gtest.h>

#include <vector>

#include "batfill/core/resize_book.hpp"

namespace batfill {
namespace {

Time s(long seconds) { return from_seconds(seconds); }

// Job 7 of user 3 in queue "q", started at 0 s with a 100 s walltime, predicted to run 40 s.
RunningJob job7() {
  RunningJob running;
  running.job.id = "7";
  running.job.user = 3;
  running.job.queue = "q";
  running.job.queue_index = 1;
  running.job.time_limit = s(100);
  running.job.prediction = s(40);
  return running;
}

TEST(ResizeBook, ARequestIsPlannedForWhatRemainsOfItsJob) {
  const ResizeBook book;
  const RunningJob running = job7();
  const Job request = book.make_request(running, 2, s(10));
  EXPECT_EQ(request.id, "7#resize1");
  EXPECT_TRUE(request.resize_request);
  EXPECT_EQ(request.submit_time, s(10));
  EXPECT_EQ(request.nodes, 2);
  EXPECT_EQ(request.user, 3);
  EXPECT_EQ(request.queue, "q");
  EXPECT_EQ(request.queue_index, 1);
  EXPECT_EQ(request.time_limit, s(90));  // 100 - 10
  EXPECT_EQ(request.prediction, s(30));  // 40 - 10
}

TEST(ResizeBook, BooksRequestsInOrderAndAgesThePendingOnes) {
  ResizeBook book;
  const RunningJob running = job7();
  Job first = book.make_request(running, 1, s(10));
  book.add_pending(first, running);
  Job second = book.make_request(running, 1, s(20));
  book.add_pending(second, running);
  EXPECT_EQ(second.id, "7#resize2");
  EXPECT_EQ(book.job_of("7#resize2"), "7");
  EXPECT_EQ(book.requests_of("7"), (std::vector<JobId>{"7#resize1", "7#resize2"}));
  EXPECT_TRUE(book.requests_of("8").empty());

  book.leave_queue(&first);  // granted: no longer aged
  book.age_pending(s(50));
  EXPECT_EQ(second.time_limit, s(50));  // 100 - 50
  // The job outlived its 40 s prediction: what remains of its walltime, as nothing better is
  // known.
  EXPECT_EQ(second.prediction, s(50));
  EXPECT_EQ(first.time_limit, s(90));  // as made at 10 s
  EXPECT_TRUE(book.has_pending());

  book.leave_queue(&second);
  EXPECT_FALSE(book.has_pending());
  // A third request is the third, whatever became of the first two.
  EXPECT_EQ(book.make_request(running, 1, s(60)).id, "7#resize3");
  EXPECT_EQ(book.close("7"), (std::vector<JobId>{"7#resize1", "7#resize2"}));
  EXPECT_TRUE(book.empty());
  EXPECT_TRUE(book.close("7").empty());
}

TEST(ResizeBook, ARequestOfAJobWithoutLimitHasNone) {
  const ResizeBook book;
  RunningJob running = job7();
  running.job.time_limit = kNoTimeLimit;
  running.job.prediction = kNoTimeLimit;
  const Job request = book.make_request(running, 1, s(10));
  EXPECT_EQ(request.time_limit, kNoTimeLimit);
  EXPECT_EQ(request.prediction, kNoTimeLimit);
}

}  // namespace
}  // namespace batfill
