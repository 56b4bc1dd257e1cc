// Predictors, correctors and the SJBF backfill order
// (docs/semantics.md#predictions-correctors-and-backfill-order), on small cases whose expected
// values are derived by hand in the comments.

#include <gtest/gtest.h>

#include "batfill/core/policy_registry.hpp"
#include "batfill/core/prediction.hpp"

#include "../support/instant_replay.hpp"

namespace batfill {
namespace {

using testing::run_instant;

Job job(const std::string& id, int nodes, int limit_seconds, int user = -1, Time submit = 0) {
  Job j;
  j.id = id;
  j.nodes = nodes;
  j.time_limit = from_seconds(limit_seconds);
  j.user = user;
  j.submit_time = submit;
  return j;
}

Time s(std::int64_t seconds) { return from_seconds(seconds); }

TEST(Predictors, RequestedIsTheWalltime) {
  auto predictor = make_predictor("requested");
  EXPECT_EQ(predictor->predict(job("a", 1, 300), 0, {}), s(300));
}

TEST(Predictors, ClairvoyantIsTheRuntimeCappedByTheWalltime) {
  auto predictor = make_predictor("clairvoyant");
  Job a = job("a", 1, 300);
  EXPECT_EQ(predictor->predict(a, 0, {}), s(300));  // runtime unknown: the walltime
  a.runtime = s(120);
  EXPECT_EQ(predictor->predict(a, 0, {}), s(120));
  a.runtime = s(400);  // runs into its walltime: it ends there
  EXPECT_EQ(predictor->predict(a, 0, {}), s(300));
}

TEST(Predictors, TsafrirAveragesTheUsersLastTwoCompletedRuntimes) {
  auto predictor = make_predictor("tsafrir");
  // User 7: no completed job, then one: the walltime both times.
  EXPECT_EQ(predictor->predict(job("a", 1, 1000, 7), 0, {}), s(1000));
  predictor->learn(job("x", 1, 1000, 7), s(100), s(100));
  EXPECT_EQ(predictor->predict(job("b", 1, 1000, 7), s(100), {}), s(1000));
  // Completed 100 s then 51 s: (100 + 51) / 2 = 75.5, rounded down to 75 s.
  predictor->learn(job("y", 1, 1000, 7), s(51), s(200));
  EXPECT_EQ(predictor->predict(job("c", 1, 1000, 7), s(200), {}), s(75));
  // Capped by the walltime: min(75, 60) = 60.
  EXPECT_EQ(predictor->predict(job("d", 1, 60, 7), s(200), {}), s(60));
  // A third completion (300 s) drops the oldest: (51 + 300) / 2 = 175.5 -> 175.
  predictor->learn(job("z", 1, 1000, 7), s(300), s(500));
  EXPECT_EQ(predictor->predict(job("e", 1, 1000, 7), s(500), {}), s(175));
  // Another user and an unknown user have no history.
  EXPECT_EQ(predictor->predict(job("f", 1, 1000, 8), s(500), {}), s(1000));
  predictor->learn(job("u", 1, 1000, -1), s(10), s(510));
  predictor->learn(job("v", 1, 1000, -1), s(10), s(520));
  EXPECT_EQ(predictor->predict(job("g", 1, 1000, -1), s(520), {}), s(1000));
}

// The published KTH-SP2 run of the learned predictor (EASY++, reqtime corrector), jobs 1-6: its
// output field 18 gives 1, 3468, 3675, 3833, 2832, 5384 s. The calls replay that schedule:
// submit times, users, nodes and walltimes are the trace's; starts and ends the published ones
// (job 2 runs 327952-337334, job 3 337334-337511, job 4 337511-337651, job 5 from 508960).
TEST(Predictors, SgdReproducesThePublishedKthPredictions) {
  auto predictor = make_predictor("sgd");
  const auto user_job = [](const std::string& id, int user, int nodes, int limit, int submit) {
    return job(id, nodes, limit, user, s(submit));
  };
  const Job j1 = user_job("1", 1, 56, 210000, 0), j2 = user_job("2", 2, 80, 14400, 327952),
            j3 = user_job("3", 2, 84, 14400, 327998), j4 = user_job("4", 3, 80, 14400, 333654),
            j5 = user_job("5", 4, 16, 53400, 508960), j6 = user_job("6", 5, 5, 48000, 534471);
  EXPECT_EQ(predictor->predict(j1, s(0), {}), s(1));  // zero weights: max(1, |0|)
  predictor->learn(j1, s(97225), s(97225));
  EXPECT_EQ(predictor->predict(j2, s(327952), {}), s(3468));
  EXPECT_EQ(predictor->predict(j3, s(327998), {{&j2, s(327952)}}), s(3675));
  EXPECT_EQ(predictor->predict(j4, s(333654), {{&j2, s(327952)}}), s(3833));
  predictor->learn(j2, s(9382), s(337334));
  predictor->learn(j3, s(177), s(337511));
  predictor->learn(j4, s(140), s(337651));
  EXPECT_EQ(predictor->predict(j5, s(508960), {}), s(2832));
  EXPECT_EQ(predictor->predict(j6, s(534471), {{&j5, s(508960)}}), s(5384));
}

TEST(Predictors, UnknownNamesAndOptionsAreErrors) {
  EXPECT_THROW(make_predictor("oracle"), std::invalid_argument);
  EXPECT_THROW(make_predictor("tsafrir", {{"eta", "1"}}), std::invalid_argument);
  EXPECT_THROW(make_predictor("sgd", {{"gamma", "1"}}), std::invalid_argument);
  EXPECT_THROW(make_predictor("sgd", {{"eta", "fast"}}), std::invalid_argument);
  EXPECT_NO_THROW(make_predictor("sgd", {{"eta", "5000"}}));
}

TEST(Correctors, Reqtime) {
  EXPECT_EQ(make_corrector("reqtime")->correct(job("a", 1, 900), s(100), s(100), 0), s(900));
}

TEST(Correctors, TsafrirStepsFromTheInitialPredictionThenTheWalltime) {
  auto corrector = make_corrector("tsafrir");
  const Job a = job("a", 1, 1'000'000);
  // k-th correction: initial 100 s + 60, 300, 900, ... 360000 s.
  EXPECT_EQ(corrector->correct(a, s(100), s(100), 0), s(160));
  EXPECT_EQ(corrector->correct(a, s(100), s(160), 1), s(400));
  EXPECT_EQ(corrector->correct(a, s(100), s(400), 2), s(1000));
  EXPECT_EQ(corrector->correct(a, s(100), s(0), 10), s(360100));
  // After the eleventh: the walltime.
  EXPECT_EQ(corrector->correct(a, s(100), s(360100), 11), s(1'000'000));
  // Capped by the walltime: min(100 + 300, 350) = 350.
  EXPECT_EQ(corrector->correct(job("b", 1, 350), s(100), s(160), 1), s(350));
}

TEST(Correctors, DoublingIsNotCapped) {
  EXPECT_EQ(make_corrector("doubling")->correct(job("a", 1, 150), s(100), s(100), 0), s(200));
}

// User 1's jobs x and y complete after 10 s and 20 s (at 10 and 30), so a, submitted at 40 (a
// submission does not see completions of its own instant), is predicted (10 + 20) / 2 = 15 s.
// a starts at 40 on the whole machine: its prediction expires at 40 + 15 = 55.
SchedulerOptions tsafrir_with(const std::string& corrector) {
  SchedulerOptions options;
  options.predictor = "tsafrir";
  options.corrector = corrector;
  return options;
}

void run_history(Scheduler& scheduler) {
  run_instant(scheduler, 0, {}, {job("x", 10, 100, 1)});
  run_instant(scheduler, s(10), {"x"}, {job("y", 10, 100, 1, s(10))});
  run_instant(scheduler, s(30), {"y"}, {});
  run_instant(scheduler, s(40), {}, {job("a", 10, 100, 1, s(40))});
}

TEST(Corrections, ReqtimePlansTheJobUntilItsWalltime) {
  Scheduler scheduler(10, make_policy("easy-classic"), tsafrir_with("reqtime"));
  run_history(scheduler);
  EXPECT_EQ(scheduler.prediction_of("a"), s(15));
  EXPECT_EQ(scheduler.next_correction_time(), s(55));
  EXPECT_EQ(scheduler.correct_predictions(s(54)), 0);
  EXPECT_EQ(scheduler.correct_predictions(s(55)), 1);
  EXPECT_EQ(scheduler.prediction_of("a"), s(100));
  EXPECT_EQ(scheduler.corrections_of("a"), 1);
  EXPECT_EQ(scheduler.next_correction_time(), kNever);  // planned until its walltime
}

TEST(Corrections, TsafrirCatchesUpWithEveryExpiredStep) {
  Scheduler scheduler(10, make_policy("easy-classic"), tsafrir_with("tsafrir"));
  run_history(scheduler);
  // At 55: 15 + 60 = 75 s, expiring at 40 + 75 = 115.
  EXPECT_EQ(scheduler.correct_predictions(s(55)), 1);
  EXPECT_EQ(scheduler.prediction_of("a"), s(75));
  EXPECT_EQ(scheduler.next_correction_time(), s(115));
  // At 200 (no wake-up at 115): min(15 + 300, 100) = 100, the walltime; no further step.
  EXPECT_EQ(scheduler.correct_predictions(s(200)), 1);
  EXPECT_EQ(scheduler.prediction_of("a"), s(100));
  EXPECT_EQ(scheduler.corrections_of("a"), 2);
}

TEST(Corrections, NoneWithoutACorrectorOrWithAKnownRuntime) {
  Scheduler plain(10, make_policy("easy-classic"), tsafrir_with(""));
  run_history(plain);
  EXPECT_EQ(plain.next_correction_time(), kNever);
  EXPECT_EQ(plain.correct_predictions(s(90)), 0);
  EXPECT_EQ(plain.prediction_of("a"), s(15));
  // Clairvoyant: the prediction is the runtime, so the job completes when it expires.
  SchedulerOptions options;
  options.predictor = "clairvoyant";
  options.corrector = "reqtime";
  Scheduler clairvoyant(10, make_policy("easy-classic"), options);
  Job a = job("a", 10, 100);
  a.runtime = s(40);
  run_instant(clairvoyant, 0, {}, {a});
  EXPECT_EQ(clairvoyant.next_correction_time(), kNever);
  EXPECT_EQ(clairvoyant.correct_predictions(s(40)), 0);
}

// Two running jobs expire at different times; the next correction time follows the earliest
// one still to be corrected, and a completion takes its job's expiry away. 10 nodes, users 1
// and 2 each ran two 10-node jobs first: user 1 10 s (0-10) and 20 s (10-30), user 2 40 s
// (30-70) and 60 s (70-130). At 131 (a job submitted at 130 would not see the completion at
// 130, docs/semantics.md#predictions-correctors-and-backfill-order), a (user 1) and b (user 2), 5
// nodes each, start: a is predicted (10 + 20) / 2 = 15 s, expiring at 146; b (40 + 60) / 2 = 50 s,
// expiring at 181.
TEST(Corrections, TheNextCorrectionIsTheEarliestExpiryOfARunningJob) {
  Scheduler scheduler(10, make_policy("easy-classic"), tsafrir_with("reqtime"));
  run_instant(scheduler, 0, {}, {job("x1", 10, 100, 1)});
  run_instant(scheduler, s(10), {"x1"}, {job("x2", 10, 100, 1, s(10))});
  run_instant(scheduler, s(30), {"x2"}, {job("y1", 10, 100, 2, s(30))});
  run_instant(scheduler, s(70), {"y1"}, {job("y2", 10, 100, 2, s(70))});
  run_instant(scheduler, s(130), {"y2"}, {});
  run_instant(scheduler, s(131), {}, {job("a", 5, 100, 1, s(131)), job("b", 5, 100, 2, s(131))});
  EXPECT_EQ(scheduler.prediction_of("a"), s(15));
  EXPECT_EQ(scheduler.prediction_of("b"), s(50));
  EXPECT_EQ(scheduler.next_correction_time(), s(146));
  // At 150 only a is due: reqtime plans it until its walltime, so only b may still expire.
  EXPECT_EQ(scheduler.correct_predictions(s(150)), 1);
  EXPECT_EQ(scheduler.prediction_of("a"), s(100));
  EXPECT_EQ(scheduler.next_correction_time(), s(181));
  // b ends at 170, before its prediction expires: nothing is left to correct.
  run_instant(scheduler, s(170), {"b"}, {});
  EXPECT_EQ(scheduler.next_correction_time(), kNever);
  EXPECT_EQ(scheduler.correct_predictions(s(1000)), 0);
}

// A zero prediction (user 2's two jobs ran 0 s) that doubling cannot extend: the walltime.
TEST(Corrections, ACorrectionThatWouldNotExtendGivesTheWalltime) {
  SchedulerOptions options = tsafrir_with("doubling");
  Scheduler scheduler(10, make_policy("easy-classic"), options);
  run_instant(scheduler, 0, {}, {job("x", 10, 100, 2)});
  run_instant(scheduler, 0, {"x"}, {});
  run_instant(scheduler, s(1), {}, {job("y", 10, 100, 2, s(1))});
  run_instant(scheduler, s(1), {"y"}, {});
  run_instant(scheduler, s(2), {}, {job("a", 10, 100, 2, s(2))});
  EXPECT_EQ(scheduler.prediction_of("a"), 0);
  EXPECT_EQ(scheduler.correct_predictions(s(2)), 1);
  EXPECT_EQ(scheduler.prediction_of("a"), s(100));
}

// 10 nodes; r runs on 6 nodes, walltime 100 s, actual runtime 50 s. Head h needs all 10; c
// (id i, 4 nodes, 60 s; queued after h) fits in the 4 free nodes now.
// - requested: h's shadow time is r's walltime end, 100; c ends at 60 <= 100: backfilled.
// - clairvoyant: the shadow time is r's actual end, 50; c ends at 60 > 50 and the extra nodes at
//   50 are 10 - 10 = 0 < 4: c waits.
std::vector<Decision> predicted_pass(const std::string& predictor) {
  SchedulerOptions options;
  options.predictor = predictor;
  Scheduler scheduler(10, make_policy("easy-classic"), options);
  Job r = job("r", 6, 100);
  r.runtime = s(50);
  Job h = job("h", 10, 100);
  h.runtime = s(100);
  Job c = job("i", 4, 60);
  c.runtime = s(60);
  run_instant(scheduler, 0, {}, {r});
  return run_instant(scheduler, s(1), {}, {h, c});
}

TEST(PredictedPlanning, ShadowTimeFollowsThePrediction) {
  const std::vector<Decision> requested = predicted_pass("requested");
  ASSERT_EQ(requested.size(), 1u);
  EXPECT_EQ(requested[0].job_id, "i");
  EXPECT_TRUE(predicted_pass("clairvoyant").empty());
}

// 10 nodes; r uses 5 until its walltime 100. Head h needs 10 (shadow 100, no extra nodes).
// Behind it: c1 (5 nodes, 90 s) then c2 (5 nodes, 40 s); only one fits in the 5 free nodes.
// Queue order tries c1 first (90 <= 100: starts); SJBF tries c2 (40 s) first.
JobId first_backfilled(BackfillOrder order) {
  SchedulerOptions options;
  options.backfill_order = order;
  Scheduler scheduler(10, make_policy("easy-classic"), options);
  run_instant(scheduler, 0, {}, {job("r", 5, 100)});
  const std::vector<Decision> decisions =
      run_instant(scheduler, s(1), {}, {job("h", 10, 100), job("i1", 5, 90), job("i2", 5, 40)});
  EXPECT_EQ(decisions.size(), 1u);
  return decisions.empty() ? "" : decisions[0].job_id;
}

TEST(BackfillOrder, QueueOrSjbf) {
  EXPECT_EQ(first_backfilled(BackfillOrder::kQueue), "i1");
  EXPECT_EQ(first_backfilled(BackfillOrder::kShortestFirst), "i2");
  EXPECT_EQ(parse_backfill_order("sjbf"), BackfillOrder::kShortestFirst);
  EXPECT_THROW(parse_backfill_order("lpt"), std::invalid_argument);
}

// A job that ends in the instant a job of its user is submitted still runs for the learned
// predictor's features x10..x13 (docs/semantics.md#predictions-correctors-and-backfill-order),
// whichever order the instant's events come in. Expected values derived by hand from the rules of
// docs/semantics.md#predictions-correctors-and-backfill-order: 10 nodes, W = 604800 s (a week, so
// every submission below has x14 = x16 = 1, x15 = x17 = 0). At 0: r (user 1, 2 nodes, walltime 4W,
// ends at 3W) and x (user 3, 5 nodes, walltime 10W) start, predicted 1 s (w = 0), corrected to
// their walltimes by reqtime. At W: a (user 1, 3 nodes, walltime q = 100000 s) starts and runs 1 s.
// Its features: x0 = 1, x1..x6 = q, x10 = 2, x11 = W, x12 = 1, x13 = W, x14 = x16 = 1, x18 = 3,
// others 0: 14 base coordinates, 66 products and 13 squares are non-zero, K = 93. Its fit (y = 1,
// weight 5 + ln 3 > 0, v = 0) sets s_i = |x_i|, N = K, g_i = -2(5 + ln 3)x_i, so w_i = η / (√K ·
// x_i) (up to 1e-11 relative) on those coordinates and 0 elsewhere: a later job's v is (5000 / √93)
// Σ x_i / a's x_i. At 3W - 10, h (user 4, 10 nodes) arrives and is blocked until x's end, 10W. At
// 3W r ends, then b (user 1) and c (user 2), 3 nodes and walltime q each, arrive; 5 nodes are free:
// one fits.
// - c: no history, nothing running: ratio 1 on x0..x6, x14, x16, x18 (10), their 28 products and
//   9 squares: 47, p = ⌊518.4758 · 47⌋ = 24368 s.
// - b with r running (elapsed 3W): ratios 1, but 3 on x11 and x13: 18 + 114 + 29 = 161,
//   p = ⌊518.4758 · 161⌋ = 83474 s. SJBF tries c first: c is backfilled.
// - b without r (the rule that drops a job ending now) would have c's features, p = 24368 s: a
//   tie, kept in queue order, so b would be backfilled instead.
TEST(BackfillOrder, SjbfSeesJobsEndingNowAsRunningForTheLearnedPredictor) {
  constexpr int kWeek = 604800;
  SchedulerOptions options;
  options.predictor = "sgd";
  options.corrector = "reqtime";
  options.backfill_order = BackfillOrder::kShortestFirst;
  Scheduler scheduler(10, make_policy("easy-classic"), options);
  run_instant(scheduler, 0, {}, {job("r", 2, 4 * kWeek, 1), job("x", 5, 10 * kWeek, 3)});
  scheduler.correct_predictions(s(1));
  run_instant(scheduler, s(kWeek), {}, {job("a", 3, 100000, 1, s(kWeek))});
  run_instant(scheduler, s(kWeek + 1), {"a"}, {});
  run_instant(scheduler, s(3 * kWeek - 10), {}, {job("h", 10, 100, 4, s(3 * kWeek - 10))});
  const std::vector<Decision> decisions =
      run_instant(scheduler, s(3 * kWeek), {"r"},
                  {job("b", 3, 100000, 1, s(3 * kWeek)), job("c", 3, 100000, 2, s(3 * kWeek))});
  ASSERT_EQ(decisions.size(), 1u);
  ASSERT_EQ(decisions[0].job_id, "c");
  EXPECT_EQ(scheduler.prediction_of("c"), s(24368));
}

TEST(BackfillOrder, SjbfNeedsAPolicyThatOrdersCandidates) {
  SchedulerOptions options;
  options.backfill_order = BackfillOrder::kShortestFirst;
  EXPECT_THROW(Scheduler(10, make_policy("easy"), options), std::invalid_argument);
}

// The spec's CONSERVATIVE plans with walltimes whatever the predictor: same case as
// ShadowTimeFollowsThePrediction, c must end strictly before h's shadow, r's walltime end 100.
TEST(PredictedPlanning, SpecConservativeKeepsWalltimes) {
  SchedulerOptions options;
  options.predictor = "clairvoyant";
  Scheduler scheduler(10, make_policy("conservative"), options);
  Job r = job("r", 6, 100);
  r.runtime = s(50);
  Job c = job("i", 4, 60);
  c.runtime = s(60);
  run_instant(scheduler, 0, {}, {r});
  const std::vector<Decision> decisions = run_instant(scheduler, s(1), {}, {job("h", 10, 100), c});
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].job_id, "i");
}

}  // namespace
}  // namespace batfill
