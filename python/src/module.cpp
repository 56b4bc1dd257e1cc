// batfill._batfill: the C++ side of the Python package (docs/python.md). A thin layer: replays
// as `batfill simulate` runs them (replay.hpp), and Python policies (python_policy.hpp).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <sstream>

#include "batfill/adapter/settings.hpp"
#include "batfill/common/time.hpp"
#include "batfill/core/policy_registry.hpp"
#include "batfill/transport/serve.hpp"
#include "job_columns_binding.hpp"
#include "pick_episode_binding.hpp"
#include "python_policy.hpp"
#include "replay.hpp"

namespace py = pybind11;
using namespace batfill;

namespace {

py::dict metrics_dict(const simulator::ScheduleMetrics& m) {
  py::dict out;
  out["nodes"] = m.machine_count;
  out["jobs"] = m.jobs;
  out["executed"] = m.jobs_executed;
  out["rejected"] = m.jobs_rejected;
  out["succeeded"] = m.jobs_succeeded;
  out["walltime_reached"] = m.jobs_walltime_reached;
  out["failed"] = m.jobs_failed;
  out["makespan"] = to_seconds(m.makespan);
  out["utilization"] = m.utilization;
  out["mean_waiting_time"] = m.mean_waiting_time_executed;
  out["mean_bounded_slowdown"] = m.mean_bounded_slowdown;
  return out;
}

py::dict result_dict(python::ReplayResult&& result) {
  py::dict out;
  out["jobs"] = python::job_columns_dict(std::move(result.jobs));
  out["schedule"] = result.schedule;
  out["resizes_csv"] = result.resizes_csv;
  out["summary_text"] = result.summary_text;
  py::dict summary = metrics_dict(result.metrics);
  summary["rejection_reasons"] = result.rejection_reasons;
  py::dict queues;
  for (const simulator::QueueMetrics& queue : result.queues) {
    py::dict figures;
    figures["executed"] = queue.jobs;
    figures["mean_waiting_time"] = queue.mean_waiting_time;
    figures["mean_bounded_slowdown"] = queue.mean_bounded_slowdown;
    queues[py::str(queue.name)] = figures;
  }
  if (!result.queues.empty()) summary["queues"] = queues;
  if (result.resizes.made > 0 || result.resizes.not_made > 0) {
    py::dict resizes;
    resizes["made"] = result.resizes.made;
    resizes["granted"] = result.resizes.granted;
    resizes["cancelled"] = result.resizes.cancelled;
    resizes["not_made"] = result.resizes.not_made;
    resizes["mean_wait"] = result.resizes.mean_wait();
    summary["resizes"] = resizes;
  }
  summary["scheduler"] = result.scheduler;
  summary["records"] = result.records;
  if (!result.transforms.empty()) summary["transforms"] = result.transforms;
  out["summary"] = summary;
  return out;
}

// A Python policy as the core's policy factory. The scheduler runs without the GIL: the
// factory's copies share one reference to the object, dropped with the GIL taken.
adapter::BatsimAdapter::PolicyFactory policy_factory(const py::object& policy) {
  const std::shared_ptr<py::object> shared(new py::object(policy), [](py::object* object) {
    const py::gil_scoped_acquire gil;
    delete object;
  });
  return [shared]() {
    const py::gil_scoped_acquire gil;
    return std::make_unique<python::PythonPolicy>(*shared);
  };
}

std::string policy_label(const py::object& policy) {
  return py::str(py::type::of(policy).attr("__name__")).cast<std::string>() + " (Python)";
}

py::dict replay(const std::string& workload_path, const std::string& workload_json,
                const std::string& platform, std::optional<int> nodes,
                const std::string& settings_json, const py::object& policy, double load_factor,
                std::optional<std::string> shake, const std::string& resize_label,
                std::optional<std::string> resize_csv, bool reject_missing_walltime) {
  python::ReplayRequest request;
  request.workload_path = workload_path;
  request.workload_json = workload_json;
  request.platform_file = platform;
  request.nodes = nodes;
  request.settings_json = settings_json;
  if (!policy.is_none()) {
    request.policy_name = policy_label(policy);
    request.make_policy = policy_factory(policy);
  }
  request.load_factor = load_factor;
  request.shake = std::move(shake);
  request.resize_label = resize_label;
  request.resize_csv = std::move(resize_csv);
  request.reject_missing_walltime = reject_missing_walltime;
  python::ReplayResult result;
  {
    // Without the GIL: other Python threads run meanwhile, and a policy takes it to decide.
    const py::gil_scoped_release release;
    result = python::replay(request);
  }
  return result_dict(std::move(result));
}

// `batfill serve` with a Python policy (or a registered one when `policy` is None): its exit
// status and what it wrote (errors, and log lines at `verbosity`).
std::pair<int, std::string> serve(const std::string& settings_json, const py::object& policy,
                                  const std::string& protocol, const std::string& endpoint,
                                  double timeout_seconds, const std::string& verbosity) {
  transport::ServeOptions options;
  options.endpoint = endpoint;
  options.timeout = std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  options.protocol = adapter::parse_protocol(protocol);
  options.verbosity = adapter::parse_verbosity(verbosity);
  if (!settings_json.empty()) adapter::settings_from_json(settings_json).apply_to(options.settings);
  if (!policy.is_none()) {
    options.settings.policy = policy_label(policy);
    options.settings.make_policy = policy_factory(policy);
  }
  adapter::check_settings(options.settings);
  std::ostringstream output;
  int status = 0;
  {
    // Without the GIL, as replays: the policy takes it to decide.
    const py::gil_scoped_release release;
    status = transport::serve(options, output);
  }
  return {status, output.str()};
}

}  // namespace

PYBIND11_MODULE(_batfill, module) {
  module.doc() = "batfill's C++ side; use the batfill package (docs/python.md)";
  module.attr("VERSION") = BATFILL_VERSION;
  module.attr("NEVER") = py::reinterpret_steal<py::object>(
      PyLong_FromString("170141183460469231731687303715884105727", nullptr, 10));
  module.attr("SECOND") = static_cast<long long>(kMicrosecondsPerSecond);
  module.def("setting_keys", &adapter::setting_keys,
             "The keys of --sched-cfg, from batfill's one table of settings.");
  module.def("policy_names", &policy_names, "The registered policies.");
  python::bind_policy_view(module);
  python::bind_pick_episode(module);
  python::bind_job_columns(module);
  module.def("replay", &replay, py::arg("workload_path"), py::arg("workload_json"),
             py::arg("platform"), py::arg("nodes"), py::arg("settings_json"), py::arg("policy"),
             py::arg("load_factor"), py::arg("shake"), py::arg("resize_label"),
             py::arg("resize_csv"), py::arg("reject_missing_walltime"),
             "One replay in this process (SimGrid allows one per process: batfill.simulate "
             "runs each in a child process).");
  module.def("serve", &serve, py::arg("settings_json"), py::arg("policy"), py::arg("protocol"),
             py::arg("endpoint"), py::arg("timeout"), py::arg("verbosity"),
             "`batfill serve` in this process: its exit status and output.");
}
