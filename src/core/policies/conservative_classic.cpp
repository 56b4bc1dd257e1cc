// Classic conservative backfilling (Feitelson & Weil 1998; Mu'alem & Feitelson 2001; batsched's
// conservative_bf; docs/semantics.md#conservative-classic--feitelson--weil-1998).
//
// An availability profile holds the running jobs until their planned end and ONE persistent
// reservation per waiting job. A new job gets the earliest slot where it fits for its whole
// limit around everything already planned (holes may be filled, a slot may end exactly where
// another begins). After completions, compression takes each waiting job out in queue order and
// puts it back at its earliest slot with all others in place: no reservation ever moves later.
// Rebuilding all reservations instead would be a different algorithm (it can push jobs later).
//
// One instant, in the core's order: completions free their remaining rectangles, compression,
// then one walk in queue order places the new jobs and starts the jobs whose slot has come.
//
// Queues (docs/semantics.md#queues---queues) decide which jobs hold a reservation (slot_reserve,
// slot limits, max_reserve_time) and which may be planned before the reservations ahead of them
// (backfill, a run limit); a job without a reservation competes at each pass for what the plan
// leaves free.
//
// The profile counts the whole machine; the real free nodes are checked again at start time.
// They differ only when Batsim reports a completion after the planned end (an overdue job,
// planned as ending then) or machines are unavailable: a due job that does not fit then keeps
// its slot and starts as soon as it fits, at the late report, planned as if it had started at
// its slot. No reservation moves later for it
// (docs/semantics.md#conservative-classic--feitelson--weil-1998).
//
// The waiting jobs, their reservations and the index through which a pass visits only the
// entries that may move or start are a ReservationIndex (reservation_index.hpp); the capacity
// given back since the slots were chosen, and whether a compression is due, a CompressionWindow
// (compression_window.hpp); the runs of the plan a compression's searches read, FreeRuns
// (free_runs.hpp). This file is the algorithm.

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "batfill/core/availability_profile.hpp"
#include "batfill/core/policy.hpp"
#include "batfill/core/queue_rules.hpp"
#include "conservative/compression_window.hpp"
#include "conservative/free_runs.hpp"
#include "conservative/reservation_index.hpp"

namespace batfill {
namespace {

// Whether some queue does not reserve, caps its nodes or releases reservations: only then may
// a job hold a reservation at one pass and not at the next (docs/semantics.md#queues---queues).
bool reservations_vary(const SchedulingView& view) {
  if (view.queues == nullptr) return false;
  for (const QueueSpec& queue : view.queues->queues) {
    if (!queue.slot_reserve || queue.slot_limit != kNoSlotLimit ||
        queue.user_slot_limit != kNoSlotLimit || queue.max_reserve_time != kNoTimeLimit) {
      return true;
    }
  }
  return false;
}

// Everything planned, from the current instant on. Copyable, so that a waiting-time estimate
// can play the next pass on a copy.
class Plan {
 public:
  // `job` joined the wait queue at `position`: it gets an entry, unplanned.
  void queue(const Job& job, std::size_t position) {
    placement_due_ = true;
    // A resize request never holds a reservation
    // (docs/semantics.md#resize-requests-of-running-jobs): from then on each pass decides which
    // jobs do.
    resize_requests_seen_ = resize_requests_seen_ || job.resize_request;
    reservations_vary_ = reservations_vary_ || resize_requests_seen_;
    waiting_.queue(job, position);
  }

  // A waiting job left the queue without starting: its entry is emptied as a started job's,
  // and a slot it held is given back for compression.
  void remove(const Job& job, std::size_t position) {
    waiting_.settle();
    const std::size_t entry = waiting_.entry_at(position);
    if (entry == ReservationIndex::kNone) throw std::logic_error("removal of a job not waiting");
    const WaitingEntry& waiting = waiting_[entry];
    if (waiting.planned) {
      take_out(job, waiting.slot);
      window_.release(waiting.slot, now_);
    }
    waiting_.mark_started(entry);
  }

  // The wait queue was sorted again: the entries follow it.
  void reorder(const std::vector<std::size_t>& previous_positions) {
    waiting_.reorder(previous_positions);
  }

  void finish(const Job& job) {
    const auto it = running_.find(job.id);
    if (it == running_.end()) return;
    // Only the part from the last instant on is still in the profile.
    profile_.release(it->second.start, it->second.end, job.nodes);
    window_.complete(it->second.end);
    running_.erase(it);
  }

  // A running job's prediction was corrected: it holds its nodes until `end` now, which may
  // overlap reservations. So the next catch_up plans every waiting job again, in queue order
  // (docs/semantics.md#predictions-correctors-and-backfill-order): the one case where a reservation
  // may move later.
  void extend(const Job& job, Time end) {
    const auto it = running_.find(job.id);
    if (it == running_.end() || end <= it->second.end) return;
    profile_.reserve(it->second.end, end, job.nodes);
    it->second.end = end;
    replan_due_ = true;
  }

  // Brings the plan to `view.now`: compression after completions, with the reservations the
  // queues grant in this pass. The waiting jobs are the queue's already, at their positions (the
  // events put them there); place_and_start places the new ones.
  void catch_up(const SchedulingView& view, QueueGate& gate) {
    if (!begun_) {  // the machine's size is known from the first pass on
      profile_ = AvailabilityProfile(view.machine_count, view.now);
      reservations_vary_ = resize_requests_seen_ || reservations_vary(view);
      begun_ = true;
    }
    first_reservations_.clear();
    now_ = view.now;
    waiting_.settle();
    profile_.advance_to(view.now);
    window_.advance_to(view.now);
    if (replan_due_) replan();
    if (reservations_vary_) grant_reservations(gate, view.now);
    if (window_.compression_due()) compress_all(view.now, gate);
  }

  // One walk in queue order: each new job (or one granted a reservation again) gets its slot,
  // and the jobs whose slot has come start if their nodes are really free; so do the jobs
  // without a reservation that fit where none is needed. With `may_start` false (an estimate)
  // nothing starts. Returns the started jobs, in start order.
  std::vector<const Job*> place_and_start(const SchedulingView& view, QueueGate& gate,
                                          bool may_start) {
    std::vector<const Job*> started;
    const int free_nodes = may_start ? view.free_nodes : 0;
    const bool placing = std::exchange(placement_due_, false);
    if (competing_ == 0) {
      place_and_start_reserved(view.now, gate, free_nodes, placing, started);
    } else {
      place_and_start_competing(view.now, gate, free_nodes, placing, started);
    }
    if (may_start) waiting_.drop_started_if_sparse();
#ifndef NDEBUG
    waiting_.check_invariants();
    window_.check_invariants(view.now);
#endif
    return started;
  }

  // When the job at `position` of the queue of the last walk is planned to start: its slot, or,
  // without a reservation, the slot it would get (an estimate only).
  Time planned_start(std::size_t position, const QueueGate& gate, Time now) const {
    const std::size_t entry = waiting_.entry_at(position);
    const WaitingEntry& waiting = waiting_[entry];
    if (waiting.planned) return waiting.slot.start;
    const Job& job = *waiting.job;
    const Time from = earlier_reservations(entry, now).earliest_for(job, gate, now);
    return from == kNever ? kNever : profile_.earliest_fit(from, occupancy(job), job.nodes);
  }

  std::vector<FirstReservation> take_first_reservations() {
    return std::exchange(first_reservations_, {});
  }

 private:
  // The walk of a pass in which some job competes without a reservation: it visits every
  // waiting job in queue order.
  void place_and_start_competing(Time now, QueueGate& gate, int free_nodes, bool placing,
                                 std::vector<const Job*>& started) {
    Walk walk{EarlierReservations{now}, free_nodes, due_count(now), competing_};
    for (std::size_t position = 0; position < waiting_.size(); ++position) {
      if (!placing && !walk.may_start_more()) break;
      const WaitingEntry& waiting = waiting_[position];
      if (waiting.job == nullptr) continue;
      if (!waiting.planned && waiting.reserving) {
        place(position, walk.earlier.earliest_for(*waiting.job, gate, now), gate);
        if (waiting.slot.start <= now) ++walk.due;
      }
      if (!may_start_now(waiting, walk, gate)) continue;
      start_job(position, now, gate, walk.free_nodes, started);
    }
  }

  // The reservations of the jobs before the one visited, in a walk in queue order.
  struct EarlierReservations {
    Time latest;           // their latest known start, `now` if none is later
    bool unknown = false;  // one of them has no known start

    // From the latest start among them (kBeforeAll if none is planned; kNever if one has no
    // known start).
    static EarlierReservations of(Time latest_start, Time now) {
      return latest_start == kNever ? EarlierReservations{now, true}
                                    : EarlierReservations{std::max(latest_start, now)};
    }

    void see(const WaitingEntry& waiting) {
      if (!waiting.planned) return;
      if (waiting.slot.start == kNever) {
        unknown = true;
      } else {
        latest = std::max(latest, waiting.slot.start);
      }
    }
    // The earliest start of a new reservation of `job`. Nothing is planned behind an unknown
    // start, and only a job that may backfill (a backfill queue and a run limit) is planned
    // before a reservation ahead of it: any other starts only once none is in force
    // (docs/semantics.md#queues---queues).
    Time earliest_for(const Job& job, const QueueGate& gate, Time now) const {
      if (unknown) return kNever;
      return gate.may_backfill(job) ? now : latest;
    }
    // The earliest start a reservation held from `start` may move to. One made before the
    // reservations ahead that start later (they came since, with a higher priority, or have no
    // known start) keeps its promise and moves as any other: the jobs ahead had the first pick.
    Time earliest_move_for(const Job& job, const QueueGate& gate, Time now, Time start) const {
      if (start == kNever) return earliest_for(job, gate, now);
      return gate.may_backfill(job) || unknown || start < latest ? now : latest;
    }
  };

  // What one walk has seen: the due and competing jobs still to visit, the nodes really free,
  // the reservations before the job visited.
  struct Walk {
    EarlierReservations earlier;
    int free_nodes;
    std::size_t due;
    std::size_t competing;
    bool may_start_more() const { return free_nodes > 0 && (due > 0 || competing > 0); }
  };

  // Whether the job may start now; counts it off the due or competing jobs of the walk.
  bool may_start_now(const WaitingEntry& waiting, Walk& walk, const QueueGate& gate) {
    const Job& job = *waiting.job;
    if (waiting.planned) {
      if (waiting.slot.start > now_) {
        walk.earlier.see(waiting);
        return false;
      }
      --walk.due;
    } else {
      --walk.competing;
    }
    if (job.nodes > walk.free_nodes || !gate.within_limits(job)) return false;
    return waiting.planned || fits_without_reservation(job, walk.earlier, gate);
  }

  // A job without a reservation starts where the plan has room for its whole run, and, unless
  // it may backfill, only once no reservation ahead of it is in force.
  bool fits_without_reservation(const Job& job, const EarlierReservations& earlier,
                                const QueueGate& gate) const {
    return earlier.earliest_for(job, gate, now_) == now_ &&
           profile_.fits(now_, occupancy(job), job.nodes);
  }

  // The walk of a pass in which every waiting job holds a reservation or is given one (no job
  // competes without one): it visits only the jobs to place and the due jobs, in queue order,
  // found through the index, and stops once no node is free and nothing is to be placed. The
  // reservations ahead of a job to place are read from the index too.
  void place_and_start_reserved(Time now, QueueGate& gate, int free_nodes, bool placing,
                                std::vector<const Job*>& started) {
    for (std::size_t position = waiting_.first_to_visit(0, now);
         position != ReservationIndex::kNone;
         position = waiting_.first_to_visit(position + 1, now)) {
      if (!placing && free_nodes == 0) break;
      const WaitingEntry& waiting = waiting_[position];
      if (!waiting.planned) {
        place(position, earlier_reservations(position, now).earliest_for(*waiting.job, gate, now),
              gate);
        if (waiting.slot.start > now) continue;
      }
      if (waiting.job->nodes > free_nodes || !gate.within_limits(*waiting.job)) continue;
      start_job(position, now, gate, free_nodes, started);
    }
  }

  void start_job(std::size_t position, Time now, QueueGate& gate, int& free_nodes,
                 std::vector<const Job*>& started) {
    const Job* job = waiting_[position].job;
    start(position, now);
    gate.start(*job);
    free_nodes -= job->nodes;
    started.push_back(job);
  }

  // The reservations before `position` in queue order, from the index.
  EarlierReservations earlier_reservations(std::size_t position, Time now) const {
    return EarlierReservations::of(waiting_.latest_start_before(position), now);
  }

  // Starts the job at `position` of the walk. Its entry stays, empty, so the positions of the
  // others hold during the walk.
  void start(std::size_t position, Time now) {
    const WaitingEntry& waiting = waiting_[position];
    Reservation slot = waiting.slot;
    if (!waiting.planned) {
      const Job& job = *waiting.job;
      slot = {now, add_saturating(now, occupancy(job)), window_.version()};
      profile_.reserve(slot.start, slot.end, job.nodes);
    }
    // A planned job keeps its rectangle, even one kept from starting by a late report: it is
    // planned as if it had started at its slot, and is overdue by its delay at the end
    // (docs/semantics.md#conservative-classic--feitelson--weil-1998). Held from now instead, it
    // would overlap the reservations after it, and a profile below zero there would block every
    // compression across it.
    running_.emplace(waiting.job->id, slot);
    waiting_.mark_started(position);
  }

  // Reports the job's first known slot: the start it was promised.
  void note_first_reservation(std::size_t position) {
    const WaitingEntry& waiting = waiting_[position];
    if (waiting.reserved || waiting.slot.start == kNever) return;
    waiting_.mark_reported(position);
    first_reservations_.push_back({waiting.job->id, waiting.slot.start});
  }

  // After a correction every waiting job is planned again, in queue order.
  void replan() {
    for (std::size_t position = 0; position < waiting_.size(); ++position) {
      const WaitingEntry& waiting = waiting_[position];
      if (waiting.planned) take_out(*waiting.job, waiting.slot);
    }
    waiting_.unplan_all();
    placement_due_ = true;
    replan_due_ = false;
  }

  // Which jobs hold a reservation in this pass (docs/semantics.md#queues---queues): those of
  // reserving queues that no slot limit holds and whose reservation has not reached
  // max_reserve_time. A job that loses its reservation gives its slot back: it competes without
  // one.
  void grant_reservations(QueueGate& gate, Time now) {
    competing_ = 0;
    for (std::size_t position = 0; position < waiting_.size(); ++position) {
      const WaitingEntry& waiting = waiting_[position];
      if (waiting.job == nullptr) continue;
      const Job& job = *waiting.job;
      waiting_.set_reserving(position, gate.within_limits(job) && gate.may_reserve(job));
      if (waiting.reserving) {
        placement_due_ = placement_due_ || !waiting.planned;
        continue;
      }
      ++competing_;
      if (!waiting.planned) continue;
      take_out(job, waiting.slot);
      waiting_.unplan(position);
      window_.release(waiting.slot, now);
    }
  }

  // Compression, in queue order. It is skipped when nothing was freed since the last one began:
  // then no reservation can move. That is the case at a completion reported at or after its
  // planned end (its nodes were already free in the plan, and the jobs waiting for them are
  // due), unless the last compression moved jobs: their old slots may suit the jobs it had
  // already passed, as at any completion
  // (docs/semantics.md#conservative-classic--feitelson--weil-1998).
  //
  // Only the reservations that may move are visited, found through the index. Every
  // reservation is the earliest fit as of the last compression (or its placing): since then,
  // capacity only came back where recorded, so a job can move only to a start before the end of
  // such a record, before its own start, where its nodes are free. Jobs needing more nodes than
  // any instant from now to the end of those records has free cannot move, and are passed as
  // the full walk would pass them. Jobs that may not backfill or have no known start are always
  // visited: their earliest start depends on the reservations ahead.
  void compress_all(Time now, const QueueGate& gate) {
    Time reach = window_.begin_compression();
    if (reach == kBeforeAll) return;
    int most_free = profile_.most_free(now, reach);
    forget_runs();  // the runs of the plan at this instant, read by the searches
    for (std::size_t position = waiting_.first_movable(0, most_free);
         position != ReservationIndex::kNone;
         position = waiting_.first_movable(position + 1, most_free)) {
      const WaitingEntry& waiting = waiting_[position];
      const Time from = waiting.moves_from_now()
                            ? now
                            : earlier_reservations(position, now)
                                  .earliest_move_for(*waiting.job, gate, now, waiting.slot.start);
      const FreedCapacity freed = compress(position, from, reach);
      note_first_reservation(position);
      if (freed.empty()) continue;
      // The capacity it left may let the jobs after it move: the bound grows to cover it.
      Time lowest = freed.from;
      if (freed.until > reach) lowest = std::min(lowest, reach);
      reach = std::max(reach, freed.until);
      most_free = std::max(most_free, profile_.most_free(std::max(lowest, now), freed.until));
    }
#ifndef NDEBUG
    for (std::size_t runs = 0; runs < runs_in_use_; ++runs) free_runs_[runs].check_invariants();
#endif
  }

  // Moves the job to its earliest slot from `from` with all others in place. Two cheap tests
  // first tell that it cannot move: no capacity was freed before its planned end since its slot
  // was chosen (the slot was the earliest fit then, and adding rectangles only takes nodes), or
  // no instant before its slot even has its nodes free. The first does not hold for a job
  // planned after the reservations ahead of it: those may have moved earlier.
  // A reservation that is the earliest fit from now as of the last compression (one that may
  // backfill, with a known start) can only move to a start before `reach`, the end of the
  // capacity given back since then: the search stops there. The plan's runs with the job's
  // nodes free, or a few fewer (FreeRuns, read once per compression and again only where
  // capacity comes back; see runs_with)
  // tell where an earlier slot could begin at the soonest: the search starts there, and where
  // no run allows one, the job cannot move, which under overload is most jobs. Returns the
  // capacity its old slot gave back (none if it did not move).
  FreedCapacity compress(std::size_t position, Time from, Time reach) {
    const WaitingEntry& waiting = waiting_[position];
    const Job& job = *waiting.job;
    const Reservation& slot = waiting.slot;
    // A due job keeps its slot, even one in the past: it waits for nodes held by a job
    // reported after its planned end, and starts at that report
    // (docs/semantics.md#conservative-classic--feitelson--weil-1998). Planning it again from now
    // could push it behind later reservations.
    if (slot.start <= now_ || from >= slot.start) return {};
    if (waiting.backfills && window_.earliest_since(slot.placed_at) >= slot.end) return {};
    const Time before = waiting.moves_from_now() ? reach : kNever;
    const Time duration = occupancy(job);
    FreeRuns* runs = runs_with(job.nodes);
    const Time lowest =
        runs == nullptr ? from : runs->earliest_start(duration, slot.start, profile_);
    if (std::max(from, lowest) >= std::min(slot.start, before)) return {};
    const Time start =
        profile_.earliest_move(std::max(from, lowest), slot.start, duration, job.nodes, before);
    if (start == slot.start) return {};
    const Reservation old = slot;
    take_out(job, old);
    waiting_.move(position, put_at(job, start));
    if (old.start == kNever) return {};
    const FreedCapacity freed{std::max(old.start, slot.end), old.end};
    window_.give_back(freed);
    give_back_to_runs(freed);
    return freed;
  }

  // The runs of the plan that bound the searches for `nodes` nodes, read by this compression's
  // searches; null while the queue is short: then a compression makes a few searches, which cost
  // less than reading runs. The runs with the largest power of two not above `nodes` free hold
  // every run with `nodes` free, so they bound its searches too, a little lower: one read of the
  // plan then serves jobs of up to twice the size (measured on KTH-SP2's first 10,000 jobs at
  // load 2: 21 % fewer instructions than runs per size, 7 % fewer than per two leading bits; runs
  // per power of four made the searches the larger cost).
  FreeRuns* runs_with(int nodes) {
    if (waiting_.size() < kQueueForRuns || nodes < 1) return nullptr;
    nodes = power_of_two_at_most(nodes);
    const auto index = static_cast<std::size_t>(nodes);
    if (index >= free_runs_by_nodes_.size()) free_runs_by_nodes_.resize(index + 1, kNoRuns);
    std::size_t& runs = free_runs_by_nodes_[index];
    if (runs == kNoRuns) {
      runs = runs_in_use_++;
      if (runs == free_runs_.size()) free_runs_.emplace_back();
      free_runs_[runs].reset(nodes, now_);
    }
    return &free_runs_[runs];
  }
  static int power_of_two_at_most(int nodes) {
    int power = 1;
    while (power <= nodes / 2) power *= 2;
    return power;
  }
  void forget_runs() {
    for (std::size_t runs = 0; runs < runs_in_use_; ++runs) {
      free_runs_by_nodes_[static_cast<std::size_t>(free_runs_[runs].nodes())] = kNoRuns;
    }
    runs_in_use_ = 0;
  }

  // Capacity given back changes the runs with no more nodes than it has free, around it.
  void give_back_to_runs(FreedCapacity freed) {
    if (runs_in_use_ == 0 || freed.empty()) return;
    const int most = profile_.most_free(freed.from, freed.until);
    for (std::size_t runs = 0; runs < runs_in_use_; ++runs) {
      if (free_runs_[runs].nodes() <= most) free_runs_[runs].give_back(freed.from, freed.until);
    }
  }

  void place(std::size_t position, Time from, const QueueGate& gate) {
    const Job& job = *waiting_[position].job;
    const Time start =
        from == kNever ? kNever : profile_.earliest_fit(from, occupancy(job), job.nodes);
    waiting_.plan(position, put_at(job, start), gate.may_backfill(job));
    note_first_reservation(position);
  }
  Reservation put_at(const Job& job, Time start) {
    const Reservation slot{start, add_saturating(start, occupancy(job)), window_.version()};
    profile_.reserve(slot.start, slot.end, job.nodes);
    return slot;
  }
  void take_out(const Job& job, const Reservation& slot) {
    profile_.release(slot.start, slot.end, job.nodes);
  }
  // How many waiting jobs have a slot at or before `now`.
  std::size_t due_count(Time now) const {
    std::size_t due = 0;
    for (std::size_t position = waiting_.first_to_visit(0, now);
         position != ReservationIndex::kNone;
         position = waiting_.first_to_visit(position + 1, now)) {
      if (waiting_[position].planned) ++due;
    }
    return due;
  }

  AvailabilityProfile profile_{1, 0};  // made for the machine at the first pass
  bool begun_ = false;                 // the first pass has come
  // The waiting jobs and their slots, in the queue's order, and what a pass visits of them.
  ReservationIndex waiting_;
  // Started jobs by id: the Scheduler reports completions with a copy of the job.
  std::unordered_map<JobId, Reservation> running_;
  std::vector<FirstReservation> first_reservations_;  // made by the last pass
  Time now_ = 0;                                      // of the last catch_up
  bool reservations_vary_ = false;
  bool resize_requests_seen_ = false;  // some waiting job is or was a resize request
  std::size_t competing_ = 0;          // waiting jobs without a reservation in this pass
  bool placement_due_ = false;         // some waiting job should get a slot
  CompressionWindow window_;           // capacity given back since the slots were chosen
  // The runs of the last compression, one per power of two of nodes searched for, in the first
  // `runs_in_use_` (the others are kept for their memory); where each is, or kNoRuns.
  std::vector<FreeRuns> free_runs_;
  std::size_t runs_in_use_ = 0;
  static constexpr std::size_t kNoRuns = static_cast<std::size_t>(-1);
  std::vector<std::size_t> free_runs_by_nodes_;
  // Waiting entries from which compressions read runs (measured: KTH-SP2 at load 1.0, with
  // queues of tens, costs 5 % more instructions with runs).
  static constexpr std::size_t kQueueForRuns = 128;
  bool replan_due_ = false;  // a running job was extended by a correction
};

class ConservativeClassic final : public Policy {
 public:
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override {
    QueueGate gate(view, &clock_);
    plan_.catch_up(view, gate);
    return plan_.place_and_start(view, gate, /*may_start=*/true);
  }

  std::vector<FirstReservation> take_first_reservations() override {
    return plan_.take_first_reservations();
  }

  void on_job_queued(const Job& job, std::size_t position) override { plan_.queue(job, position); }
  void on_queue_reordered(const std::vector<std::size_t>& previous_positions) override {
    plan_.reorder(previous_positions);
  }
  // A started job's entry was emptied by the pass that started it.
  void on_job_completed(const Job& job) override { plan_.finish(job); }
  void on_job_removed(const Job& job, std::size_t position) override {
    plan_.remove(job, position);
  }
  void on_prediction_extended(const Job& job, Time start, Time) override {
    plan_.extend(job, planned_end(job, start));
  }

  // Exact for a job that would hold a reservation: the slot the next pass would give it.
  Time estimate_start(const Job& job, const PendingEvents& pending,
                      const SchedulingView& view) const override {
    Plan next = plan_;
    if (!pending.previous_positions.empty()) next.reorder(pending.previous_positions);
    next.queue(job, pending.position);
    QueueGate gate(view, nullptr);
    next.catch_up(view, gate);
    next.place_and_start(view, gate, /*may_start=*/false);
    return next.planned_start(pending.position, gate, view.now);
  }

 private:
  Plan plan_;
  ReservationClock clock_;
};

}  // namespace

std::unique_ptr<Policy> make_conservative_classic_policy() {
  return std::make_unique<ConservativeClassic>();
}

}  // namespace batfill
