// Resize requests of running jobs (docs/semantics.md#resize-requests-of-running-jobs): the seed's
// example (a 20 h job asks after 4 h: the request is planned for 16 h), each rule on a hand-derived
// case under each policy, and properties on random workloads with random requests. Times are in
// hours unless said otherwise.

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

constexpr long kHour = 3600;

Time hours(long h) { return from_seconds(h * kHour); }

// limit <= 0: no run limit. Runtime defaults to the whole limit.
TraceJob job(const std::string& id, long submit, int nodes, long limit, long runtime = -1,
             const std::string& queue = "", int user = -1) {
  return testing::trace_job(id, hours(submit), nodes, limit > 0 ? hours(limit) : kNoTimeLimit,
                            hours(runtime >= 0 ? runtime : limit), queue, user);
}

TraceJob resizing(TraceJob t, long after, int nodes) {
  t.resizes.push_back({hours(after), nodes});
  return t;
}

SchedulerOptions with_queue(bool backfill, int user_slot_limit = kNoSlotLimit) {
  auto config = std::make_shared<QueueConfig>();
  QueueSpec spec;
  spec.name = "normal";
  spec.ids = {""};
  spec.backfill = backfill;
  spec.user_slot_limit = user_slot_limit;
  config->queues = {spec};
  config->default_queue = "normal";
  SchedulerOptions options;
  options.queues = config;
  return options;
}

long hours_of(Time t) { return static_cast<long>(to_seconds(t)) / kHour; }

const std::vector<std::string> kBackfillPolicies = {"easy", "easy-classic", "conservative",
                                                    "conservative-classic"};
const std::vector<std::string> kAllPolicies = {"none", "easy", "easy-classic", "conservative",
                                               "conservative-classic"};

// Sees every pass's queue and records the planned runtimes of the resize requests in it.
class RequestSpy final : public Policy {
 public:
  explicit RequestSpy(std::map<JobId, std::vector<Time>>& seen)
      : inner_(make_policy("easy-classic")), seen_(seen) {}
  bool orders_candidates() const override { return true; }
  void on_job_queued(const Job& job, std::size_t position) override {
    inner_->on_job_queued(job, position);
  }
  void on_job_started(const Job& job, std::size_t position) override {
    inner_->on_job_started(job, position);
  }
  void on_job_completed(const Job& job) override { inner_->on_job_completed(job); }
  void on_job_removed(const Job& job, std::size_t position) override {
    inner_->on_job_removed(job, position);
  }
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    for (const Job* job : view.queue) {
      if (job->resize_request) seen_[job->id].push_back(job->time_limit);
    }
    return inner_->select_jobs_to_start(view);
  }

 private:
  std::unique_ptr<Policy> inner_;
  std::map<JobId, std::vector<Time>>& seen_;
};

TEST(ResizeSeedExample, TwentyHourJobAskingAfterFourHoursIsPlannedForSixteen) {
  // 10 nodes. a (4 nodes, 20 h limit) starts at 0 and asks for 6 more at 4 h; b (10 nodes, 25 h)
  // comes at 1 h and is reserved for 20 h, a's end. At 4 h the request is planned for 20 − 4 =
  // 16 h, so it ends at 20 h, exactly at b's reservation: it is seen with a 16 h limit, and
  // easy-classic (≤) and conservative-classic (a slot may end where another begins) grant it
  // at 4 h. Planned for 20 h it would end at 24 h, after the reservation, with no spare node.
  for (const std::string& policy : {"easy-classic", "conservative-classic"}) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 4, 20), 4, 6), job("b", 1, 10, 25)};
    const ReplayResult result = replay(trace, 10, policy);
    ASSERT_EQ(result.granted.count("a#resize1"), 1U) << policy;
    EXPECT_EQ(hours_of(result.granted.at("a#resize1")), 4) << policy;
    EXPECT_EQ(hours_of(result.start.at("b")), 20) << policy;  // a's end does not change
    EXPECT_EQ(machine_count(result.granted_machines.at("a#resize1")), 6) << policy;
  }
  std::map<JobId, std::vector<Time>> seen;
  const std::vector<TraceJob> trace = {resizing(job("a", 0, 4, 20), 4, 6), job("b", 1, 10, 25)};
  replay(trace, 10, std::make_unique<RequestSpy>(seen));
  ASSERT_EQ(seen.at("a#resize1").size(), 1U);
  EXPECT_EQ(seen.at("a#resize1").front(), hours(16));
}

TEST(ResizeSeedExample, StrictPoliciesNeedTheRequestToEndBeforeTheReservation) {
  // The same under the spec's easy and conservative: ending exactly at the reservation is not
  // before it (strict <, docs/semantics.md#edge-cases item 4), so the request waits; at 20 h a
  // ends, the request is withdrawn and b starts.
  for (const std::string& policy : {"easy", "conservative"}) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 4, 20), 4, 6), job("b", 1, 10, 25)};
    const ReplayResult result = replay(trace, 10, policy);
    EXPECT_EQ(result.granted.count("a#resize1"), 0U) << policy;
    EXPECT_EQ(hours_of(result.cancelled.at("a#resize1")), 20) << policy;
    EXPECT_EQ(hours_of(result.start.at("b")), 20) << policy;
  }
}

// 10 nodes. a (2 nodes, 20 h) and c (6 nodes, 30 h) start at 0; b (10 nodes, 5 h) comes at 1 h
// and is reserved for 30 h, c's end, with no spare node then. a asks for 2 more at 4 h.
std::vector<TraceJob> ends_before_reservation() {
  return {resizing(job("a", 0, 2, 20), 4, 2), job("c", 0, 6, 30), job("b", 1, 10, 5)};
}

TEST(ResizeRules, RequestBackfillsIntoReservedNodesWhenItEndsFirst) {
  // The request ends with a at 20 h, before 30 h: it uses two of b's reserved nodes from 4 h
  // under every backfilling policy. conservative-classic: 2 nodes are free in [4 h, 20 h).
  for (const std::string& policy : kBackfillPolicies) {
    const ReplayResult result = replay(ends_before_reservation(), 10, policy);
    ASSERT_EQ(result.granted.count("a#resize1"), 1U) << policy;
    EXPECT_EQ(hours_of(result.granted.at("a#resize1")), 4) << policy;
    EXPECT_EQ(hours_of(result.start.at("b")), 30) << policy;
  }
}

TEST(ResizeRules, RequestThatEndsAfterTheReservationWaits) {
  // 10 nodes. a (2 nodes, 20 h), c (6 nodes, 10 h) start at 0; b (8 nodes, 5 h) comes at 1 h:
  // at 10 h c's 6 and the 2 free nodes make 8, so b is reserved for 10 h and no node is spare
  // then. a's request (2 nodes at 4 h) would end at 20 h, after 10 h: it waits. b runs 10–15 h;
  // at 15 h 8 nodes are free and the request is granted, until a's end at 20 h.
  for (const std::string& policy : kBackfillPolicies) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 2, 20), 4, 2), job("c", 0, 6, 10),
                                         job("b", 1, 8, 5)};
    const ReplayResult result = replay(trace, 10, policy);
    EXPECT_EQ(hours_of(result.start.at("b")), 10) << policy;
    ASSERT_EQ(result.granted.count("a#resize1"), 1U) << policy;
    EXPECT_EQ(hours_of(result.granted.at("a#resize1")), 15) << policy;
  }
}

TEST(ResizeRules, NonBackfillQueueRequestWaitsAndIsCancelledAtTheJobsEnd) {
  // As RequestBackfillsIntoReservedNodesWhenItEndsFirst, but the queue does not backfill: the
  // only free nodes are b's, so the request waits until a ends at 20 h and is withdrawn then.
  // b still starts at 30 h.
  for (const std::string& policy : kBackfillPolicies) {
    const ReplayResult result = replay(ends_before_reservation(), 10, policy, with_queue(false));
    EXPECT_EQ(result.granted.count("a#resize1"), 0U) << policy;
    EXPECT_EQ(hours_of(result.cancelled.at("a#resize1")), 20) << policy;
    EXPECT_EQ(hours_of(result.start.at("b")), 30) << policy;
  }
}

TEST(ResizeRules, SlotLimitCountsTheJobsNodes) {
  // 10 nodes, user_slot_limit 4, one user, nothing else running: a (2 nodes, 20 h) asks for 3 at
  // 4 h; 2 + 3 > 4, so it is never granted and is withdrawn at a's end. A request for 2 makes
  // 4: granted at once, under every policy (no reservation is in force).
  for (const std::string& policy : kAllPolicies) {
    const auto options = with_queue(true, 4);
    const ReplayResult over =
        replay({resizing(job("a", 0, 2, 20, 20, "", 1), 4, 3)}, 10, policy, options);
    EXPECT_EQ(over.granted.count("a#resize1"), 0U) << policy;
    EXPECT_EQ(hours_of(over.cancelled.at("a#resize1")), 20) << policy;
    const ReplayResult within =
        replay({resizing(job("a", 0, 2, 20, 20, "", 1), 4, 2)}, 10, policy, options);
    EXPECT_EQ(hours_of(within.granted.at("a#resize1")), 4) << policy;
  }
}

TEST(ResizeRules, GrantedNodesCountTowardTheLimitOfLaterJobs) {
  // user_slot_limit 4: a (2 nodes) is granted 2 more at 4 h; d (same user, 1 node) comes at 5 h
  // and waits until a ends at 20 h, when a's 4 nodes are given back at once.
  for (const std::string& policy : kAllPolicies) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 2, 20, 20, "", 1), 4, 2),
                                         job("d", 5, 1, 2, 2, "", 1)};
    const ReplayResult result = replay(trace, 10, policy, with_queue(true, 4));
    EXPECT_EQ(hours_of(result.granted.at("a#resize1")), 4) << policy;
    EXPECT_EQ(hours_of(result.start.at("d")), 20) << policy;
  }
}

TEST(ResizeRules, JobEndingEarlyCancelsItsRequestAndKeepsItsEnd) {
  // a (8 of 10 nodes, 20 h limit, runs 6 h) asks for 4 more at 2 h: only 2 are free, so it
  // waits; a ends at 6 h, its own end, and the request is withdrawn then; e (10 nodes) comes at
  // 1 h and starts at 6 h.
  for (const std::string& policy : kAllPolicies) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 8, 20, 6), 2, 4), job("e", 1, 10, 1)};
    const ReplayResult result = replay(trace, 10, policy);
    EXPECT_EQ(hours_of(result.requested.at("a#resize1")), 2) << policy;
    EXPECT_EQ(hours_of(result.cancelled.at("a#resize1")), 6) << policy;
    EXPECT_EQ(hours_of(result.start.at("e")), 6) << policy;
  }
}

TEST(ResizeRules, RequestOfAJobWithoutLimitNeverBackfills) {
  // As RequestBackfillsIntoReservedNodesWhenItEndsFirst, a without a run limit (runs 20 h): its
  // request's run time is unknown, so it may not use b's reserved nodes; withdrawn at 20 h.
  for (const std::string& policy : kBackfillPolicies) {
    auto trace = ends_before_reservation();
    trace[0].job.time_limit = kNoTimeLimit;
    const ReplayResult result = replay(trace, 10, policy);
    EXPECT_EQ(result.granted.count("a#resize1"), 0U) << policy;
    EXPECT_EQ(hours_of(result.cancelled.at("a#resize1")), 20) << policy;
  }
}

TEST(ResizeRules, RequestNeverDelaysAReservationBehindIt) {
  // A request holds no reservation even at the head of the queue: 10 nodes, a (6 nodes, 20 h)
  // asks for 6 more at 1 h, when 4 are free (it does not fit); g (4 nodes, 30 h) comes at 2 h.
  // Were the request reserved for 20 h (a's end), g, ending at 32 h, could not use the 4 nodes
  // under the spec's easy and conservative. It starts at 2 h under every policy; the request is
  // withdrawn at 20 h.
  for (const std::string& policy : kBackfillPolicies) {
    const std::vector<TraceJob> trace = {resizing(job("a", 0, 6, 20), 1, 6), job("g", 2, 4, 30)};
    const ReplayResult result = replay(trace, 10, policy);
    EXPECT_EQ(hours_of(result.start.at("g")), 2) << policy;
    EXPECT_EQ(hours_of(result.cancelled.at("a#resize1")), 20) << policy;
  }
}

TEST(ResizeScheduler, RefusesBadRequestsAndCompletions) {
  Scheduler scheduler(4, make_policy("easy"));
  Job a;
  a.id = "a";
  a.nodes = 2;
  a.time_limit = hours(2);
  scheduler.submit(a);
  scheduler.schedule(0);
  EXPECT_THROW(scheduler.request_resize("nobody", 1, hours(1)), std::invalid_argument);
  EXPECT_THROW(scheduler.request_resize("a", 0, hours(1)), std::invalid_argument);
  const JobId request = scheduler.request_resize("a", 1, hours(1));
  EXPECT_TRUE(scheduler.is_pending_resize(request));
  const auto decisions = scheduler.schedule(hours(1));
  ASSERT_EQ(decisions.size(), 1U);
  EXPECT_EQ(decisions[0].kind, Decision::Kind::kGrantResize);
  EXPECT_THROW(scheduler.complete(request, hours(2)), std::invalid_argument);
  EXPECT_THROW(scheduler.withdraw(request), std::invalid_argument);  // granted, not pending
  EXPECT_EQ(scheduler.free_nodes(), 1);
  scheduler.complete("a", hours(2));
  EXPECT_EQ(scheduler.free_nodes(), 4);
  EXPECT_EQ(scheduler.running_count(), 0U);
}

// Property: random workloads with random requests and queue limits. After every pass no machine
// is held twice (jobs and grants together, grants held until their job's completion), no
// queue or user limit is exceeded, and at the end every request made was granted or withdrawn,
// never both.
class ResizeInvariants final : public testing::ReplayObserver {
 public:
  ResizeInvariants(const std::map<JobId, const TraceJob*>& jobs, const QueueConfig& config)
      : jobs_(jobs), config_(config) {}

  void after_pass(const Scheduler& /*scheduler*/, Time /*now*/, const std::vector<JobId>& completed,
                  const std::vector<Decision>& decisions) override {
    for (const JobId& id : completed) {
      for (auto it = held_.begin(); it != held_.end();) {
        it = owner_of(it->first) == id ? held_.erase(it) : std::next(it);
      }
    }
    for (const Decision& d : decisions) {
      if (d.kind == Decision::Kind::kReject) continue;
      for (const auto& [other, machines] : held_) {
        EXPECT_FALSE(boost::icl::intersects(machines, d.machines)) << d.job_id << " and " << other;
      }
      held_[d.job_id] = d.machines;
      if (d.kind == Decision::Kind::kGrantResize) ++grants;
    }
    std::map<int, int> by_queue;
    std::map<std::pair<int, int>, int> by_user;
    for (const auto& [id, machines] : held_) {
      const Job& owner = jobs_.at(owner_of(id))->job;
      const int queue = config_.queue_index(owner.queue);
      by_queue[queue] += machine_count(machines);
      by_user[{queue, owner.user}] += machine_count(machines);
    }
    for (const auto& [queue, nodes] : by_queue) {
      EXPECT_LE(nodes, config_.queues[static_cast<std::size_t>(queue)].slot_limit);
    }
    for (const auto& [key, nodes] : by_user) {
      EXPECT_LE(nodes, config_.queues[static_cast<std::size_t>(key.first)].user_slot_limit);
    }
  }

  int grants = 0;

 private:
  static JobId owner_of(const JobId& id) { return id.substr(0, id.rfind("#resize")); }

  const std::map<JobId, const TraceJob*>& jobs_;
  const QueueConfig& config_;
  std::map<JobId, MachineSet> held_;
};

TEST(ResizeProperty, NoMachineTwiceNoLimitExceededEveryRequestSettled) {
  std::mt19937 random(19);
  int granted = 0;
  int cancelled = 0;
  for (int round = 0; round < 30; ++round) {
    auto config = std::make_shared<QueueConfig>();
    for (int q = 0; q < 2; ++q) {
      QueueSpec spec;
      spec.name = "q" + std::to_string(q);
      spec.ids = {std::to_string(q)};
      spec.priority = q;
      spec.backfill = random() % 3 != 0;
      spec.slot_reserve = random() % 4 != 0;
      if (random() % 2) spec.slot_limit = 6 + static_cast<int>(random() % 6);
      if (random() % 2) spec.user_slot_limit = 3 + static_cast<int>(random() % 4);
      config->queues.push_back(spec);
    }
    SchedulerOptions options;
    options.queues = config;
    std::vector<TraceJob> trace;
    long submit = 0;
    for (int i = 0; i < 40; ++i) {
      submit += static_cast<long>(random() % 1800);
      TraceJob t;
      t.job.id = std::to_string(i);
      t.job.submit_time = from_seconds(submit);
      t.job.nodes = 1 + static_cast<int>(random() % 3);
      t.job.time_limit = random() % 8 == 0 ? kNoTimeLimit : from_seconds(600 + random() % 7200);
      t.job.queue = std::to_string(random() % 2);
      t.job.user = static_cast<int>(random() % 3);
      const Time limit = t.job.has_time_limit() ? t.job.time_limit : from_seconds(7200);
      t.runtime = from_seconds(60) + static_cast<Time>(random() % static_cast<unsigned>(limit));
      if (random() % 3 == 0) {
        const Time after = static_cast<Time>(random() % static_cast<unsigned>(limit));
        t.resizes.push_back({after, 1 + static_cast<int>(random() % 4)});
      }
      trace.push_back(t);
    }
    std::map<JobId, const TraceJob*> jobs;
    for (const TraceJob& t : trace) jobs[t.job.id] = &t;
    for (const std::string& policy : kAllPolicies) {
      ResizeInvariants invariants(jobs, *config);
      const ReplayResult result = replay(trace, 12, policy, options, &invariants);
      for (const auto& [request, at] : result.requested) {
        EXPECT_NE(result.granted.count(request) + result.cancelled.count(request), 0U)
            << policy << " " << request;
        EXPECT_FALSE(result.granted.count(request) != 0 && result.cancelled.count(request) != 0)
            << policy << " " << request;
        if (result.granted.count(request) != 0) EXPECT_GE(result.granted.at(request), at);
      }
      EXPECT_EQ(static_cast<int>(result.granted.size()), invariants.grants) << policy;
      granted += static_cast<int>(result.granted.size());
      cancelled += static_cast<int>(result.cancelled.size());
    }
  }
  // The workloads exercise both outcomes.
  EXPECT_GT(granted, 0);
  EXPECT_GT(cancelled, 0);
}

}  // namespace
}  // namespace batfill
