#include "reply_checker.hpp"

#include <algorithm>
#include <stdexcept>

namespace batfill::simulator {
namespace {

[[noreturn]] void invalid_decision(Time now, const std::string& what) {
  throw std::runtime_error("invalid decision at t=" + format_seconds(now) + ": " + what);
}

}  // namespace

void ReplyChecker::refuse(Time now, const std::string& what) { invalid_decision(now, what); }

void ReplyChecker::check_timestamp(const protocol::Event& event, Time reply_now, Time now) const {
  if (event.timestamp > reply_now) {
    invalid_decision(now, "event timestamp " + format_seconds(event.timestamp) +
                              " is after the reply's now " + format_seconds(reply_now));
  }
}

void ReplyChecker::check_wake_up(Time at, Time now) const {
  if (at <= now) {
    invalid_decision(now, "CALL_ME_LATER at " + format_seconds(at) + " is not after now");
  }
}

// The message is built only on failure: this runs for every job started.
void ReplyChecker::check_allocation(const char* decision, const std::string& id, int requested,
                                    const MachineSet& alloc, Time now) const {
  const auto what = [&] { return std::string(decision) + " of " + quoted(id); };
  const int size = machine_count(alloc);
  if (size != requested) {
    invalid_decision(now, what() + " on " + count_of(size, "machine") + ", but it requests " +
                              std::to_string(requested));
  }
  const int machines = machines_.machine_count();
  if (!alloc.empty() && (boost::icl::first(alloc) < 0 || boost::icl::last(alloc) >= machines)) {
    invalid_decision(now, what() + " on machines " + quoted(to_string(alloc)) + " outside 0-" +
                              std::to_string(machines - 1));
  }
  if (machines_.any_busy(alloc)) {
    invalid_decision(
        now, what() + " on busy machines " + quoted(to_string(machines_.busy_among(alloc))));
  }
}

void ReplyChecker::throw_not_waiting(const JobTable& jobs, const std::string& id,
                                     const char* decision, Time now) const {
  const bool known = std::any_of(jobs.begin(), jobs.end(),
                                 [&](const SimulatedJob& job) { return job.batsim_id == id; });
  if (!known) invalid_decision(now, std::string(decision) + " of unknown job " + quoted(id));
  invalid_decision(now, std::string(decision) + " of job " + quoted(id) + ", which is not waiting");
}

void ReplyChecker::throw_unexpected_event(const protocol::Event& event, Time now) const {
  // A scheduler that gives up says why in a NOTIFY of its own type (batfill serve's stop
  // notice does): show it.
  const auto* notify = std::get_if<protocol::BatsimNotify>(&event.data);
  const std::string said =
      notify != nullptr && !notify->other.empty() ? " " + quoted(notify->other) : "";
  invalid_decision(now,
                   "unexpected " + protocol::event_type_name(event.data) + said + " in a reply");
}

void ReplyChecker::throw_without_energy(const protocol::Event& event, Time now) const {
  invalid_decision(now, protocol::event_type_name(event.data) +
                            " without --energy (Batsim refuses power decisions and energy "
                            "queries when its energy model is off)");
}

void ReplyChecker::throw_no_pending_resize(const std::string& request_id, Time now) const {
  invalid_decision(
      now, "resize grant of " + quoted(request_id) + ", which is no pending resize request");
}

void ReplyChecker::throw_deadlock(const JobTable& jobs) {
  // Slots are reused, so the first waiting job is the one submitted first, wherever it sits.
  const SimulatedJob* first_job = nullptr;
  std::size_t waiting = 0;
  for (const SimulatedJob& job : jobs) {
    if (job.stage != JobStage::kWaiting) continue;
    ++waiting;
    if (first_job == nullptr || job.submit_order < first_job->submit_order) first_job = &job;
  }
  const std::string first = first_job == nullptr ? "" : first_job->batsim_id;
  throw std::runtime_error("the decision process left " + std::to_string(waiting) +
                           " job(s) waiting (first: " + first +
                           ") with nothing running and no wake-up pending; a real Batsim would "
                           "deadlock here");
}

void ReplyChecker::check_end_reply(const protocol::Message& reply) {
  if (!reply.events.empty()) {
    throw std::runtime_error("the decision process answered SIMULATION_ENDS with " +
                             protocol::event_type_name(reply.events.front().data) +
                             "; Batsim requires an empty reply");
  }
}

}  // namespace batfill::simulator
