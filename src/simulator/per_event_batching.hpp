#pragma once
// EventBatching::kPerEvent: the events of one instant sent the way pyss (predictsim, SC'15)
// handles them, one scheduling pass per event.

#include <functional>
#include <string>
#include <vector>

#include "batfill/protocol/messages.hpp"
#include "simulated_job.hpp"

namespace batfill::simulator {

// Sends `instant` (completions first, then other events, as the stand-in collects them) as
// several requests through `send`, which exchanges a request and applies its reply.
// `completions` are the instant's JobCompleted events' jobs, in the same order. `planned_end`
// gives the decision process's planned end of a running job (DecisionProcess::planned_end).
void exchange_per_event(const protocol::Message& instant,
                        const std::vector<Completion>& completions, const JobTable& jobs,
                        const std::function<void(const protocol::Message&)>& send,
                        const std::function<Time(const std::string&)>& planned_end = {});

}  // namespace batfill::simulator
