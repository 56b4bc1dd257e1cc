// What `batfill serve` spends on one Batsim message without the socket: decoding the request,
// answering it (decoding, one instant of the scheduler, encoding the reply), and encoding
// alone, side by side, per message (docs/protocol.md#what-a-message-costs). The requests are
// KTH-SP2's, as the embedded simulator sends them to a scheduler, recorded once at start.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "batfill/adapter/batsim4_session.hpp"
#include "batfill/adapter/batsim_adapter.hpp"
#include "batfill/protocol/codec.hpp"
#include "batfill/simulator/simulation.hpp"
#include "batfill/workload/job_stream.hpp"

namespace {

using batfill::protocol::Message;

const char* const kTrace = BATFILL_SOURCE_DIR "/workloads/KTH-SP2-1996-2.1-cln.swf.gz";
// The policy that answers when the requests are recorded, and when they are replayed: another
// policy's decisions would not match the completions that follow them.
const char* const kPolicy = "easy-classic";

// Passes each request to an adapter and keeps its text and its reply's.
class Recorder : public batfill::protocol::DecisionProcess {
 public:
  Message exchange(const Message& request) override {
    requests.push_back(batfill::protocol::write_message(request));
    Message reply = adapter_.exchange(request);
    replies.push_back(reply);
    return reply;
  }
  std::vector<std::string> requests;
  std::vector<Message> replies;

 private:
  batfill::adapter::BatsimAdapter adapter_{kPolicy};
};

// SimGrid runs one simulation per process: the recording is made once.
const Recorder& recorded() {
  static const Recorder recorder = [] {
    Recorder recording;
    const std::unique_ptr<batfill::workload::JobStream> jobs =
        batfill::workload::open_job_stream(kTrace);
    batfill::simulator::run_simulation(*jobs, recording, {}, [](const auto&) {});
    return recording;
  }();
  return recorder;
}

// Time per message instead of per iteration (an iteration is the whole run).
void per_message(benchmark::State& state, std::size_t messages) {
  state.counters["per_message"] = benchmark::Counter(
      static_cast<double>(messages),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_Decode(benchmark::State& state) {
  const std::vector<std::string>& requests = recorded().requests;
  for (auto _ : state) {
    for (const std::string& request : requests) {
      benchmark::DoNotOptimize(batfill::protocol::parse_message(request).events.size());
    }
  }
  per_message(state, requests.size());
}

void BM_Encode(benchmark::State& state) {
  const std::vector<Message>& replies = recorded().replies;
  for (auto _ : state) {
    for (const Message& reply : replies) {
      benchmark::DoNotOptimize(batfill::protocol::write_message(reply).size());
    }
  }
  per_message(state, replies.size());
}

void BM_Answer(benchmark::State& state) {
  const std::vector<std::string>& requests = recorded().requests;
  const batfill::adapter::Log quiet(batfill::adapter::Verbosity::kQuiet);
  for (auto _ : state) {
    batfill::adapter::Settings settings;
    settings.policy = kPolicy;
    batfill::adapter::Batsim4Session session(settings, quiet);
    for (const std::string& request : requests) {
      benchmark::DoNotOptimize(session.reply_to(request).size());
    }
  }
  per_message(state, requests.size());
}

BENCHMARK(BM_Decode)->Name("serve/decode/KTH-SP2")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Encode)->Name("serve/encode/KTH-SP2")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Answer)->Name("serve/answer/easy-classic/KTH-SP2")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
