// LSF-style queues (docs/semantics.md#queues---queues): the LSF example of backfilling under each
// combination of queue flags, each rule on a hand-derived case, and properties on random
// workloads with random queue configurations. Times are seconds; in the LSF example 0 is 08:00.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>

#include "batfill/core/policy_registry.hpp"
#include "batfill/core/scheduler.hpp"

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::replay;
using testing::ReplayResult;
using testing::TraceJob;

// A job in seconds; limit <= 0 means no run limit.
TraceJob job(const std::string& id, long submit, int nodes, long limit, long runtime,
             const std::string& queue = "", int user = -1) {
  return testing::trace_job(id, from_seconds(submit), nodes,
                            limit > 0 ? from_seconds(limit) : kNoTimeLimit, from_seconds(runtime),
                            queue, user);
}

QueueSpec queue(const std::string& name, const std::string& id, int priority, bool backfill,
                bool reserve) {
  QueueSpec spec;
  spec.name = name;
  spec.ids = {id};
  spec.priority = priority;
  spec.backfill = backfill;
  spec.slot_reserve = reserve;
  return spec;
}

SchedulerOptions with_queues(std::vector<QueueSpec> queues, std::string default_queue = "") {
  auto config = std::make_shared<QueueConfig>();
  config->queues = std::move(queues);
  config->default_queue = std::move(default_queue);
  SchedulerOptions options;
  options.queues = config;
  return options;
}

std::map<JobId, long> starts(const ReplayResult& result) {
  std::map<JobId, long> seconds;
  for (const auto& [id, start] : result.start) seconds[id] = static_cast<long>(to_seconds(start));
  return seconds;
}

const std::vector<std::string> kQueuePolicies = {"easy", "easy-classic", "conservative-classic"};

// The LSF example on 4 CPUs: job1 (1 CPU, 2 h limit) starts at 08:00 and ends at 10:00; job2
// (4 CPUs, 1 h) comes at 08:01 and reserves all CPUs for 10:00; job3 (2 CPUs, 1 h limit) comes
// at 08:30 in queue `third`. job1 and job2 are in queue `main` (reserving, backfilling).
// Under conservative-classic job2's reservation is its slot [7200, 10800) in the profile, which
// job1 leaves with 3 CPUs free before 7200 and none during it.
std::vector<TraceJob> lsf_example(long job3_limit, long job1_limit = 7200) {
  return {job("job1", 0, 1, job1_limit, 7200, "1"), job("job2", 60, 4, 3600, 3600, "1"),
          job("job3", 1800, 2, job3_limit, job3_limit > 0 ? job3_limit : 3600, "3")};
}

TEST(QueuesLsfExample, BackfillQueueBackfillsIntoTheReservation) {
  // job3 ends at 09:30 (5400), before job2's reservation at 10:00 (7200): it starts at 08:30.
  // job2 starts at 10:00 when job1 ends. conservative-classic: [1800, 5400) has 3 CPUs free and
  // ends before job2's slot, so job3's slot is 1800.
  for (const std::string& policy : kQueuePolicies) {
    const auto options =
        with_queues({queue("main", "1", 20, true, true), queue("third", "3", 20, true, true)});
    EXPECT_EQ(starts(replay(lsf_example(3600), 4, make_policy(policy), options)),
              (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 1800}}))
        << policy;
  }
}

TEST(QueuesLsfExample, NonBackfillQueueWaitsBehindTheReservation) {
  // job3 would end before 10:00 but its queue may not use reserved CPUs, and no CPU is spare
  // at 10:00 (job2 needs all 4): it waits. At 10:00 job1 ends and job2 starts (4 CPUs, until
  // 11:00 = 10800); job3 starts at 11:00. The same with or without slot_reserve for `third`.
  // conservative-classic: job3 must find 2 CPUs free for ever from its start; none are during
  // job2's slot, so it gets 10800 (reserving) or finds them at job2's completion (not).
  for (const std::string& policy : kQueuePolicies) {
    for (bool reserve : {true, false}) {
      const auto options = with_queues(
          {queue("main", "1", 20, true, true), queue("third", "3", 20, false, reserve)});
      EXPECT_EQ(starts(replay(lsf_example(3600), 4, make_policy(policy), options)),
                (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 10800}}))
          << policy << " reserve=" << reserve;
    }
  }
}

TEST(QueuesLsfExample, TwoHourJobCannotBackfill) {
  // With a 2 h limit job3 would end at 10:30, after the reservation: it runs after job2, at
  // 11:00, whatever its queue's flags. conservative-classic: [1800, 9000) overlaps job2's slot,
  // where no CPU is spare; the next fit is 10800.
  for (const std::string& policy : kQueuePolicies) {
    for (bool backfill : {true, false}) {
      const auto options = with_queues(
          {queue("main", "1", 20, true, true), queue("third", "3", 20, backfill, true)});
      EXPECT_EQ(starts(replay(lsf_example(7200), 4, make_policy(policy), options)),
                (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 10800}}))
          << policy;
    }
  }
}

TEST(QueuesLsfExample, NonReservingQueueDoesNotProtectItsJob) {
  // job2's queue does not reserve: no reservation is in force, so job3 starts at 08:30 and
  // job4 (1 CPU, 2 h) at 5000 (one CPU is free: job1 holds 1, job3 2 until 5400) whatever
  // their queues; job4 holds a CPU until 12200, so job2, which needs all 4, starts only then
  // (LSF's starvation). With a reserving queue job4 would end after 10:00 with no spare CPU
  // then: it waits, job2 runs 10:00-11:00 and job4 starts at 11:00 (10800).
  // conservative-classic, starving: no job reserves, so each starts at the first pass where its
  // CPUs are free (job3 and job4 for ever, their queue does not backfill: 3 and then 1 CPU are
  // free for ever at 1800 and 5000), and job2 only when all 4 are, at 12200. Reserving: job2's
  // slot is [7200, 10800); job4's run [5000, 12200) overlaps it, so job4 gets 10800.
  for (const std::string& policy : kQueuePolicies) {
    auto trace = lsf_example(3600);
    trace.push_back(job("job4", 5000, 1, 7200, 7200, "3"));
    const auto starving =
        with_queues({queue("main", "1", 20, true, false), queue("third", "3", 20, false, false)});
    EXPECT_EQ(starts(replay(trace, 4, make_policy(policy), starving)),
              (std::map<JobId, long>{{"job1", 0}, {"job2", 12200}, {"job3", 1800}, {"job4", 5000}}))
        << policy;
    const auto reserving =
        with_queues({queue("main", "1", 20, true, true), queue("third", "3", 20, true, true)});
    EXPECT_EQ(starts(replay(trace, 4, make_policy(policy), reserving)),
              (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 1800}, {"job4", 10800}}))
        << policy;
  }
}

TEST(QueuesLsfExample, JobWithoutLimitNeverBackfills) {
  // job3 has no run limit: it cannot be known to end by 10:00, so it waits and starts after
  // job2, at 11:00 (it runs 1 h). Also without --queues, where it used to be rejected.
  // conservative-classic: not before job2's slot, 7200, and from there it needs 2 CPUs for
  // ever: 10800.
  for (const std::string& policy : kQueuePolicies) {
    EXPECT_EQ(starts(replay(lsf_example(0), 4, make_policy(policy))),
              (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 10800}}))
        << policy;
  }
}

TEST(QueuesLsfExample, NothingBackfillsWhileTheReservationWaitsOnAJobWithoutLimit) {
  // job1 has no limit: job2's start is unknown, so job3 may not backfill. job1 really ends at
  // 10:00; job2 runs 10:00-11:00; job3 starts at 11:00. conservative-classic: job1 holds its CPU
  // for ever in the profile, so job2 has no slot and nothing behind it is planned; job1's
  // completion at 7200 gives job2 [7200, 10800), and job3 the next fit, 10800.
  for (const std::string& policy : kQueuePolicies) {
    EXPECT_EQ(starts(replay(lsf_example(3600, 0), 4, make_policy(policy))),
              (std::map<JobId, long>{{"job1", 0}, {"job2", 7200}, {"job3", 10800}}))
        << policy;
  }
}

TEST(Queues, PriorityOrdersTheQueueBeforeTheOrder) {
  // 2 nodes. a (low, 2 nodes, 100 s) starts at 0; b (low) comes at 10, c (high) at 20: at 100
  // c is ahead of b although later, so c runs 100-200 and b 200-300.
  for (const std::string& policy : {"none", "easy", "easy-classic"}) {
    const auto options =
        with_queues({queue("high", "1", 40, true, true), queue("low", "2", 1, true, true)});
    const std::vector<TraceJob> trace = {job("a", 0, 2, 100, 100, "2"),
                                         job("b", 10, 2, 100, 100, "2"),
                                         job("c", 20, 2, 100, 100, "1")};
    EXPECT_EQ(starts(replay(trace, 2, make_policy(policy), options)),
              (std::map<JobId, long>{{"a", 0}, {"b", 200}, {"c", 100}}))
        << policy;
  }
}

TEST(Queues, SlotLimitHoldsAJobInItsPlace) {
  // 4 nodes, slot_limit 2. At 0: a (1 node) starts; b (2 nodes) would make 3 > 2 and waits in
  // its place; c (1 node) makes 2 and starts. At 100 both end and b starts. conservative-
  // classic: nothing runs at the pass at 0, so all three get the slot 0 (4 nodes); a starts, b
  // does not (3 > 2), c does. At 100 b, due, starts.
  for (const std::string& policy : {"none", "easy", "easy-classic", "conservative-classic"}) {
    QueueSpec limited = queue("q", "1", 0, true, true);
    limited.slot_limit = 2;
    const std::vector<TraceJob> trace = {job("a", 0, 1, 100, 100, "1"),
                                         job("b", 0, 2, 100, 100, "1"),
                                         job("c", 0, 1, 100, 100, "1")};
    EXPECT_EQ(starts(replay(trace, 4, make_policy(policy), with_queues({limited}))),
              (std::map<JobId, long>{{"a", 0}, {"b", 100}, {"c", 0}}))
        << policy;
  }
}

TEST(Queues, UserSlotLimitCountsEachUserApart) {
  // user_slot_limit 1: a (user 1) starts; b (user 1) waits; c (user 2) starts. b at 100.
  // conservative-classic as in SlotLimitHoldsAJobInItsPlace.
  for (const std::string& policy : {"none", "easy", "easy-classic", "conservative-classic"}) {
    QueueSpec limited = queue("q", "1", 0, true, true);
    limited.user_slot_limit = 1;
    const std::vector<TraceJob> trace = {job("a", 0, 1, 100, 100, "1", 1),
                                         job("b", 0, 1, 100, 100, "1", 1),
                                         job("c", 0, 1, 100, 100, "1", 2)};
    EXPECT_EQ(starts(replay(trace, 4, make_policy(policy), with_queues({limited}))),
              (std::map<JobId, long>{{"a", 0}, {"b", 100}, {"c", 0}}))
        << policy;
  }
}

TEST(Queues, MaxReserveTimeReleasesTheReservation) {
  // 4 nodes, max_reserve_time 100 s. a (3 nodes, 1000 s) at 0. b (4 nodes) at 10 reserves
  // for 1000. c (1 node, 2000 s) at 50 would end after 1000: waits (40 s held). At 200 (d
  // arrives, 1 node, 10 s) b has held its reservation 190 s: released, so c starts at 200
  // (until 2200) and d, now the head, waits for a node. At 1000 a ends; b reserves again (for
  // 2200) and d, ending at 1010, backfills. b starts at 2200.
  // conservative-classic: b's slot is [1000, 1100); c's run would overlap it, so c's slot is
  // 1100. At 200 both have held theirs 100 s or more: both are released. c, without one, finds
  // its node free for its whole run beside a and starts; d, behind it, gets the next fit, 1000.
  // At 1000 b reserves again, after c: 2200; d has held its slot 800 s, loses it, and starts
  // without one in [1000, 1010), where a node is free.
  QueueSpec q = queue("q", "1", 0, true, true);
  q.max_reserve_time = from_seconds(100);
  const std::vector<TraceJob> trace = {
      job("a", 0, 3, 1000, 1000, "1"), job("b", 10, 4, 100, 100, "1"),
      job("c", 50, 1, 2000, 2000, "1"), job("d", 200, 1, 10, 10, "1")};
  for (const std::string& policy : {"easy-classic", "conservative-classic"}) {
    EXPECT_EQ(starts(replay(trace, 4, make_policy(policy), with_queues({q}))),
              (std::map<JobId, long>{{"a", 0}, {"b", 2200}, {"c", 200}, {"d", 1000}}))
        << policy;
  }
}

// conservative-classic keeps its promises: a job of a higher priority submitted later is planned
// around the reservations already made, and goes first at every compression (docs/semantics.md
// docs/semantics.md#queues---queues). 2 nodes, 50 s limits but a's 100 s. a (low) runs from 0,
// planned until 100; b (low) comes at 10 and gets [100, 150); c (high) comes at 20 and gets [150,
// 200), after b's slot. If a runs its 100 s, b starts at 100 and c at 150. If a ends at 50,
// compression takes c first: [50, 100) is free, so c starts at 50 and b keeps 100. With one queue b
// goes first: it moves to 50 and c to 100.
TEST(QueuesConservativeClassic, PriorityOrdersCompressionNotPromises) {
  const auto options =
      with_queues({queue("high", "1", 40, true, true), queue("low", "2", 1, true, true)});
  auto trace = [](long a_runtime) {
    return std::vector<TraceJob>{job("a", 0, 2, 100, a_runtime, "2"), job("b", 10, 2, 50, 50, "2"),
                                 job("c", 20, 2, 50, 50, "1")};
  };
  EXPECT_EQ(starts(replay(trace(100), 2, make_policy("conservative-classic"), options)),
            (std::map<JobId, long>{{"a", 0}, {"b", 100}, {"c", 150}}));
  EXPECT_EQ(starts(replay(trace(50), 2, make_policy("conservative-classic"), options)),
            (std::map<JobId, long>{{"a", 0}, {"b", 100}, {"c", 50}}));
  EXPECT_EQ(starts(replay(trace(50), 2, make_policy("conservative-classic"))),
            (std::map<JobId, long>{{"a", 0}, {"b", 50}, {"c", 100}}));
}

// A job of a non-backfill queue is never planned before a reservation ahead of it: it starts
// only once none is in force, as under `easy` and `conservative`
// (docs/semantics.md#queues---queues). 10 nodes, queue 1 backfills, queue 2 does not, both reserve.
// R (6 nodes, 100 s) runs from 0; H (8 nodes, 100 s) at 1 gets [100, 200). K (queue 2, 2 nodes, 500
// s) at 2 is planned from H's slot: 2 nodes are free beside H, so it gets 100 (it would fit now in
// the 2 nodes H does not need; easy-classic would start it). L (queue 2, 2 nodes, 50 s) at 3, from
// 100: none free beside H and K until 200. M (queue 1, 2 nodes, 50 s) at 4 backfills: [4, 54) has 4
// nodes free and ends before H's slot.
TEST(QueuesConservativeClassic, NonBackfillJobsWaitForTheReservationsAhead) {
  const auto options =
      with_queues({queue("main", "1", 0, true, true), queue("strict", "2", 0, false, true)});
  const std::vector<TraceJob> trace = {job("R", 0, 6, 100, 100, "1"), job("H", 1, 8, 100, 100, "1"),
                                       job("K", 2, 2, 500, 500, "2"), job("L", 3, 2, 50, 50, "2"),
                                       job("M", 4, 2, 50, 50, "1")};
  EXPECT_EQ(starts(replay(trace, 10, make_policy("conservative-classic"), options)),
            (std::map<JobId, long>{{"R", 0}, {"H", 100}, {"K", 100}, {"L", 200}, {"M", 4}}));
}

// A job without a run limit starts only as the head or when no reservation is in force
// (docs/semantics.md#queues---queues), even where nodes are spare for ever. 10 nodes, no --queues:
// R (6 nodes, 100 s) runs from 0; H (8 nodes) at 1 gets [100, 200); U (1 node, no limit, runs 10 s)
// at 2 is not planned before H's slot, and from 100 finds 2 nodes free for ever: it starts
// with H at 100.
TEST(QueuesConservativeClassic, JobWithoutLimitWaitsForTheReservationsAhead) {
  const std::vector<TraceJob> trace = {job("R", 0, 6, 100, 100), job("H", 1, 8, 100, 100),
                                       job("U", 2, 1, 0, 10)};
  EXPECT_EQ(starts(replay(trace, 10, make_policy("conservative-classic"))),
            (std::map<JobId, long>{{"R", 0}, {"H", 100}, {"U", 100}}));
}

TEST(Queues, UnmatchedJobsGoToTheDefaultOrAreRejected) {
  const std::vector<TraceJob> trace = {job("a", 0, 1, 100, 100, "9"), job("b", 0, 1, 100, 100)};
  const auto with_default = with_queues({queue("q", "1", 0, true, true)}, "q");
  EXPECT_EQ(replay(trace, 2, make_policy("easy"), with_default).start.size(), 2u);
  const ReplayResult without =
      replay(trace, 2, make_policy("easy"), with_queues({queue("q", "1", 0, true, true)}));
  ASSERT_EQ(without.rejected.size(), 2u);
  EXPECT_NE(without.rejected.at("a").why().find("queue '9'"), std::string::npos);
}

TEST(Queues, ConfigurationErrorsNameTheProblem) {
  EXPECT_THROW(
      Scheduler(4, make_policy("easy"),
                with_queues({queue("q", "1", 0, true, true), queue("r", "1", 0, true, true)})),
      std::invalid_argument);
  EXPECT_THROW(
      Scheduler(4, make_policy("easy"), with_queues({queue("q", "1", 0, true, true)}, "x")),
      std::invalid_argument);
}

// Random workloads with random queues: every job starts or is rejected with a reason, and at
// every start no queue or user is over its slot limit.
TEST(QueuesProperty, LimitsHoldAndEveryJobEnds) {
  std::mt19937 random(2026);
  for (int round = 0; round < 60; ++round) {
    std::vector<QueueSpec> queues;
    const int queue_count = 1 + static_cast<int>(random() % 3);
    for (int q = 0; q < queue_count; ++q) {
      QueueSpec spec = queue("q" + std::to_string(q), std::to_string(q),
                             static_cast<int>(random() % 3), random() % 2 == 0, random() % 2 == 0);
      if (random() % 2) spec.slot_limit = 2 + static_cast<int>(random() % 6);
      if (random() % 2) spec.user_slot_limit = 1 + static_cast<int>(random() % 4);
      if (random() % 3 == 0) spec.max_reserve_time = from_seconds(50 + random() % 500);
      queues.push_back(spec);
    }
    std::vector<TraceJob> trace;
    for (int i = 0; i < 40; ++i) {
      const int q = static_cast<int>(random() % (queue_count + 1));  // queue_count: unmatched
      const long limit = random() % 8 == 0 ? 0 : 10 + static_cast<long>(random() % 400);
      const long runtime = 1 + static_cast<long>(random() % 400);
      trace.push_back(job(std::to_string(i), static_cast<long>(random() % 2000),
                          1 + static_cast<int>(random() % 8), limit,
                          limit > 0 ? std::min(runtime, limit) : runtime, std::to_string(q),
                          static_cast<int>(random() % 3)));
    }
    const auto options = with_queues(queues, random() % 2 ? "q0" : "");
    for (const std::string& policy :
         {"none", "easy", "easy-classic", "conservative", "conservative-classic"}) {
      const ReplayResult result = replay(trace, 8, make_policy(policy), options);
      std::map<std::string, const QueueSpec*> by_id;
      for (const QueueSpec& spec : queues) by_id[spec.ids[0]] = &spec;
      for (const TraceJob& t : trace) {
        const bool started = result.start.count(t.job.id) != 0;
        const bool rejected = result.rejected.count(t.job.id) != 0;
        ASSERT_TRUE(started != rejected) << policy << " job " << t.job.id;
        if (rejected) EXPECT_FALSE(result.rejected.at(t.job.id).empty());
      }
      // At each start, the nodes of the running jobs of each queue and user stay within limits.
      for (const auto& [id, start] : result.start) {
        std::map<std::string, int> queue_nodes;
        std::map<std::pair<std::string, int>, int> user_nodes;
        for (const TraceJob& t : trace) {
          const auto it = result.start.find(t.job.id);
          if (it == result.start.end() || it->second > start || it->second + t.runtime <= start) {
            continue;
          }
          const QueueSpec* spec = by_id.count(t.job.queue) ? by_id[t.job.queue] : &queues[0];
          queue_nodes[spec->name] += t.job.nodes;
          user_nodes[{spec->name, t.job.user}] += t.job.nodes;
          EXPECT_LE(queue_nodes[spec->name], spec->slot_limit) << policy;
          const int user_total = user_nodes[{spec->name, t.job.user}];
          EXPECT_LE(user_total, spec->user_slot_limit) << policy;
        }
      }
    }
  }
}

// conservative-classic's promise with queues and jobs without limits: no job starts later than
// its first reservation. Without slot limits and max_reserve_time nothing takes a reservation
// back, and jobs without one start only where the plan has room
// (docs/semantics.md#queues---queues). 1 to 3 queues with random priorities, reservation and
// backfill flags, and no limits.
std::vector<QueueSpec> random_plain_queues(std::mt19937& random) {
  std::vector<QueueSpec> queues;
  const int queue_count = 1 + static_cast<int>(random() % 3);
  for (int q = 0; q < queue_count; ++q) {
    queues.push_back(queue("q" + std::to_string(q), std::to_string(q),
                           static_cast<int>(random() % 3), random() % 2 == 0, random() % 2 == 0));
  }
  return queues;
}

// 40 random jobs on 8 nodes spread over `queue_count` queues, one in `one_in_without_limit`
// without a time limit.
std::vector<TraceJob> random_trace(std::mt19937& random, std::size_t queue_count,
                                   unsigned one_in_without_limit) {
  std::vector<TraceJob> trace;
  for (int i = 0; i < 40; ++i) {
    const long limit =
        random() % one_in_without_limit == 0 ? 0 : 10 + static_cast<long>(random() % 400);
    const long runtime = 1 + static_cast<long>(random() % 400);
    trace.push_back(job(std::to_string(i), static_cast<long>(random() % 2000),
                        1 + static_cast<int>(random() % 8), limit,
                        limit > 0 ? std::min(runtime, limit) : runtime,
                        std::to_string(random() % queue_count)));
  }
  return trace;
}

TEST(QueuesProperty, ConservativeClassicKeepsItsFirstReservations) {
  std::mt19937 random(11);
  std::size_t promises = 0;
  for (int round = 0; round < 80; ++round) {
    const std::vector<QueueSpec> queues = random_plain_queues(random);
    const std::vector<TraceJob> trace = random_trace(random, queues.size(), 6);
    const ReplayResult result =
        replay(trace, 8, make_policy("conservative-classic"), with_queues(queues));
    for (const auto& [id, reserved] : result.first_reservation) {
      ++promises;
      EXPECT_LE(result.start.at(id), reserved) << "round " << round << " job " << id;
    }
  }
  EXPECT_GT(promises, 1000u);  // about half of the jobs are in reserving queues
}

// Watches the passes: a job of a non-backfill queue that starts while a job ahead of it, in a
// reserving queue, still waits has started inside that job's reservation. Without slot limits
// or max_reserve_time a blocked reserving job always holds its reservation, so under `easy`,
// `conservative`, `none` and, with one priority, `conservative-classic` (no extra nodes) this
// must never happen.
struct NonBackfillWatch : testing::ReplayObserver {
  const QueueConfig* config = nullptr;
  std::map<JobId, Job> waiting;
  int violations = 0;

  const QueueSpec& spec(const Job& job) const {
    return config->queues[static_cast<std::size_t>(config->queue_index(job.queue))];
  }
  bool ahead(const Job& a, const Job& b) const {
    if (spec(a).priority != spec(b).priority) return spec(a).priority > spec(b).priority;
    if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
    return job_id_less(a.id, b.id);
  }
  void before_submit(const Scheduler&, const Job& job, Time) override {
    if (config->queue_index(job.queue) >= 0) waiting.emplace(job.id, job);
  }
  void after_pass(const Scheduler&, Time, const std::vector<JobId>&,
                  const std::vector<Decision>& decisions) override {
    std::vector<Job> started;
    for (const Decision& decision : decisions) {
      const auto it = waiting.find(decision.job_id);
      if (it == waiting.end()) continue;
      if (decision.kind == Decision::Kind::kExecute) started.push_back(it->second);
      waiting.erase(it);
    }
    for (const Job& job : started) {
      if (spec(job).backfill && job.has_time_limit()) continue;
      for (const auto& [id, other] : waiting) {
        if (spec(other).slot_reserve && ahead(other, job)) ++violations;
      }
    }
  }
};

TEST(QueuesProperty, NonBackfillJobsNeverStartInsideAReservation) {
  std::mt19937 random(7);
  for (int round = 0; round < 80; ++round) {
    std::vector<QueueSpec> queues = random_plain_queues(random);
    const std::vector<TraceJob> trace = random_trace(random, queues.size(), 8);
    const auto options = with_queues(queues);
    for (const std::string& policy : {"none", "easy", "conservative"}) {
      NonBackfillWatch watch;
      watch.config = options.queues.get();
      replay(trace, 8, make_policy(policy), options, &watch);
      EXPECT_EQ(watch.violations, 0) << policy << " round " << round;
    }
    // conservative-classic plans a non-backfill job after the reservations ahead of it, but
    // keeps the promise of one made before a job of a higher priority came: with one priority,
    // the jobs ahead are always planned first.
    for (QueueSpec& spec : queues) spec.priority = 0;
    const auto one_priority = with_queues(queues);
    NonBackfillWatch watch;
    watch.config = one_priority.queues.get();
    replay(trace, 8, make_policy("conservative-classic"), one_priority, &watch);
    EXPECT_EQ(watch.violations, 0) << "conservative-classic round " << round;
  }
}

}  // namespace
}  // namespace batfill
