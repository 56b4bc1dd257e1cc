// batfill._batfill.PickEpisode: the C++ episode under batfill.gym.SchedulingEnv.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "pick_episode.hpp"
#include "pick_episode_binding.hpp"

namespace batfill::python {
namespace {

using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

template <typename T, typename Array>
std::vector<T> column(const Array& array, std::size_t size, const char* name) {
  if (static_cast<std::size_t>(array.size()) != size) {
    throw std::invalid_argument(std::string("PickEpisode: column ") + name + " has " +
                                std::to_string(array.size()) + " values, expected " +
                                std::to_string(size));
  }
  return std::vector<T>(array.data(), array.data() + array.size());
}

std::shared_ptr<PickTrace> make_trace(const Int64Array& submit, const Int64Array& runtime,
                                      const Int64Array& requested_time,
                                      const Int64Array& processors, const Int64Array& nodes,
                                      const DoubleArray& static_features, int machine_nodes,
                                      std::int64_t machine_processors) {
  auto trace = std::make_shared<PickTrace>();
  const auto size = static_cast<std::size_t>(submit.size());
  trace->submit = column<std::int64_t>(submit, size, "submit");
  trace->runtime = column<std::int64_t>(runtime, size, "runtime");
  trace->requested_time = column<std::int64_t>(requested_time, size, "requested_time");
  trace->processors = column<std::int64_t>(processors, size, "processors");
  for (const std::int64_t n : column<std::int64_t>(nodes, size, "nodes")) {
    trace->nodes.push_back(static_cast<int>(n));
  }
  trace->static_features =
      column<double>(static_features, size * (kPickFeatures - 2), "static_features");
  trace->machine_nodes = machine_nodes;
  trace->machine_processors = machine_processors;
  for (std::size_t i = 0; i < size; ++i) {
    Job job;
    job.id = std::to_string(i);  // ties in an order: trace order
    job.submit_time = from_seconds(trace->submit[i]);
    job.nodes = trace->nodes[i];
    job.time_limit = from_seconds(trace->requested_time[i]);
    job.runtime = from_seconds(trace->runtime[i]);
    trace->core_jobs.push_back(job);
  }
  return trace;
}

PickMetric parse_metric(const std::string& name) {
  if (name == "bounded_slowdown") return PickMetric::kBoundedSlowdown;
  if (name == "wait") return PickMetric::kWait;
  if (name == "turnaround") return PickMetric::kTurnaround;
  if (name == "utilization") return PickMetric::kUtilization;
  if (name == "slowdown") return PickMetric::kSlowdown;
  throw std::invalid_argument("unknown metric '" + name +
                              "' (valid: bounded_slowdown, wait, turnaround, utilization, "
                              "slowdown)");
}

py::array_t<float> observation(PickEpisode& episode) {
  py::array_t<float> out(static_cast<py::ssize_t>(episode.options().slots * kPickFeatures));
  episode.observe(out.mutable_data());
  return out;
}

// What the environment returns after a reset or a step, made in one call: a step is a few
// microseconds, and each call from Python, attribute and numpy operation costs a fraction of one.
// (observation, action mask, time).
py::tuple observed(PickEpisode& episode) {
  py::array_t<float> observation_now = observation(episode);
  py::array_t<bool> mask(static_cast<py::ssize_t>(episode.options().slots));
  bool* occupied = mask.mutable_data();
  for (std::size_t slot = 0; slot < episode.options().slots; ++slot) {
    occupied[slot] = slot < episode.shown();
  }
  return py::make_tuple(std::move(observation_now), std::move(mask), episode.now());
}

// step_slot(slot) and then observed(): (terminated, observation, action mask, time).
py::tuple advance(PickEpisode& episode, std::size_t slot) {
  const bool terminated = episode.step_slot(slot);
  return py::make_tuple(terminated) + observed(episode);
}

// Plays an order until the episode ends: its total.
double play(PickEpisode& episode, const std::string& order_name) {
  const QueueOrder order = parse_queue_order(order_name);
  while (!episode.done()) episode.step(episode.sort_queue(order));
  return episode.total();
}

}  // namespace

void bind_pick_episode(py::module_& module) {
  py::class_<PickEpisode>(module, "PickEpisode")
      .def(py::init([](const Int64Array& submit, const Int64Array& runtime,
                       const Int64Array& requested_time, const Int64Array& processors,
                       const Int64Array& nodes, const DoubleArray& static_features,
                       int machine_nodes, std::int64_t machine_processors, std::size_t window,
                       std::size_t slots, bool backfill, const std::string& metric) {
             PickOptions options;
             options.window = window;
             options.slots = slots;
             options.backfill = backfill;
             options.metric = parse_metric(metric);
             return PickEpisode(make_trace(submit, runtime, requested_time, processors, nodes,
                                           static_features, machine_nodes, machine_processors),
                                options);
           }),
           py::arg("submit"), py::arg("runtime"), py::arg("requested_time"), py::arg("processors"),
           py::arg("nodes"), py::arg("static_features"), py::arg("machine_nodes"),
           py::arg("machine_processors"), py::arg("window"), py::arg("slots"), py::arg("backfill"),
           py::arg("metric"))
      .def("reset", &PickEpisode::reset)
      .def("step", &PickEpisode::step, "Starts the trace's job; true when the episode is over.")
      .def("sort_queue",
           [](PickEpisode& episode, const std::string& order) {
             return episode.sort_queue(parse_queue_order(order));
           })
      .def("play", &play, "Plays an order (a --order name) to the end; the total.")
      .def("visible", &PickEpisode::visible)
      .def("step_slot", &PickEpisode::step_slot,
           "Starts the job of a slot of the last observation; true when the episode is over.")
      .def_property_readonly("shown", &PickEpisode::shown)
      .def("observation", &observation)
      .def("observed", &observed, "(observation, action mask, time) now.")
      .def("advance", &advance, py::arg("slot"),
           "Steps the job of a slot of the last observation: (terminated, observation, action "
           "mask, time).")
      .def("total", &PickEpisode::total)
      .def("is_waiting", &PickEpisode::is_waiting)
      .def_property_readonly("done", &PickEpisode::done)
      .def_property_readonly("now", &PickEpisode::now)
      .def_property_readonly("start", &PickEpisode::start)
      .def_property_readonly("start_times", [](const PickEpisode& episode) {
        const auto& times = episode.start_times();
        return py::array_t<std::int64_t>(static_cast<py::ssize_t>(times.size()), times.data());
      });
}

}  // namespace batfill::python
