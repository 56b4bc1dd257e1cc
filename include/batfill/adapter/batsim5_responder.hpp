#pragma once
// batfill as a Batsim 5 External Decision Component (docs/protocol.md §8): the init string, the
// EDCHello, and each request text of Batsim 5 answered by one BatsimAdapter through the Batsim 5
// codec. The EDC library (libbatfill_edc.so) and `batfill serve --protocol batsim5` both use it;
// only how the texts travel differs.

#include <string>
#include <string_view>

#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/adapter/log.hpp"
#include "batfill/adapter/settings.hpp"

namespace batfill::adapter {

// The settings an init string gives, checked: the same JSON object as Batsim 4's --sched-cfg
// (settings.hpp), "" or {} for none. Batsim's example EDCs take a key `format_json`; batfill
// accepts it when true (it speaks JSON only) and refuses false. Throws std::invalid_argument
// naming the key, or the settings that do not combine with `base`. `settings` is the object
// without `format_json`, "" when empty.
struct InitSettings {
  std::string settings;
  bool forward_profiles = false;  // the predictor in force reads the jobs' delay profiles
};
InitSettings read_init_string(std::string_view init, const Settings& base);

class Batsim5Responder {
 public:
  // Throws std::invalid_argument for an unknown policy or a bad init string.
  Batsim5Responder(std::string policy, SchedulerOptions options, Log log, EventBatching batching,
                   std::string_view init);

  // The reply to init: a message holding batfill's EDCHello.
  const std::string& hello() const { return hello_; }

  // Decodes the request, runs one exchange and encodes the reply, logging ignored events.
  // Throws RequestError (responder.hpp) naming the message index, the event and the field.
  std::string reply_to(std::string_view request);

  bool finished() const { return adapter_.finished(); }

 private:
  Log log_;
  BatsimAdapter adapter_;
  std::string settings_;  // handed to the adapter as SIMULATION_BEGINS' sched-config
  std::string hello_;
  long index_ = 0;  // the next request's number (NumberedRequest)
};

}  // namespace batfill::adapter
