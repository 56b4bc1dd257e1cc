#include "python_policy.hpp"

#include <pybind11/stl.h>

#include <cstdint>
#include <limits>

#include "batfill/core/availability_profile.hpp"
#include "batfill/core/release_timeline.hpp"

namespace batfill::python {
namespace {

std::uint64_t g_pass = 0;  // the latest pass a Python policy was asked about
bool g_in_pass = false;    // whether it is still deciding

// Marks the pass as over however select returns.
struct PassScope {
  PassScope() {
    ++g_pass;
    g_in_pass = true;
  }
  ~PassScope() { g_in_pass = false; }
  PassScope(const PassScope&) = delete;
  PassScope& operator=(const PassScope&) = delete;
};

// Times are Python ints of microseconds, exact on the whole 128-bit range (batfill.NEVER is
// kNever), as the core counts them (docs/semantics.md#time).
py::object time_to_py(Time t) {
  if (t >= std::numeric_limits<std::int64_t>::min() &&
      t <= std::numeric_limits<std::int64_t>::max()) {
    return py::int_(static_cast<long long>(t));
  }
  const py::int_ high(static_cast<long long>(t >> 64));
  const py::int_ low(static_cast<unsigned long long>(t & ~std::uint64_t{0}));
  return (high << py::int_(64)) | low;
}

Time time_from_py(const py::handle& value, const char* what) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
    throw py::type_error(std::string(what) + " must be an int of microseconds, not " +
                         py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  }
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow == 0) return small;
  const py::int_ whole = py::reinterpret_borrow<py::int_>(value);
  const py::object high = whole >> py::int_(64);
  const py::object low = whole & py::int_(~0ULL);
  long long high_part = 0;
  try {
    high_part = high.cast<long long>();
  } catch (const py::cast_error&) {
    throw py::value_error(std::string(what) + " is beyond batfill's 128-bit time range");
  }
  return static_cast<Time>(high_part) * (Time{1} << 64) +
         static_cast<Time>(low.cast<unsigned long long>());
}

int nodes_from_py(int nodes) {
  if (nodes <= 0) throw py::value_error("nodes must be > 0, not " + std::to_string(nodes));
  return nodes;
}

std::string type_name(const py::handle& value) {
  return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

std::string traceback_text(py::error_already_set& error) {
  const py::object format = py::module_::import("traceback").attr("format_exception");
  std::string text;
  for (const py::handle line : format(error.type(), error.value(), error.trace())) {
    text += line.cast<std::string>();
  }
  return text;
}

// A ReleaseTimeline of the view, valid during its pass (it reads the view's releases).
struct TimelineHandle {
  ReleaseTimeline timeline;
  std::uint64_t pass;
  ReleaseTimeline& get() {
    check_current(pass, "a timeline");
    return timeline;
  }
};

// The availability profile of the view's instant: the running jobs' nodes until their planned
// ends (an overdue job's until the next microsecond, as it is still running now), unavailable
// nodes for ever. A copy: it stays valid after the pass.
AvailabilityProfile profile_of(const SchedulingView& view) {
  AvailabilityProfile profile(view.machine_count, view.now);
  int running = 0;
  for (const auto& [end, nodes] : *view.releases) {
    profile.reserve(view.now, std::max(end, view.now + 1), nodes);
    running += nodes;
  }
  const int unavailable = view.machine_count - view.free_nodes - running;
  if (unavailable > 0) profile.reserve(view.now, kNever, unavailable);
  return profile;
}

Time positive_duration(const py::handle& value) {
  const Time duration = time_from_py(value, "duration");
  if (duration <= 0) throw py::value_error("duration must be > 0");
  return duration;
}

void bind_job(py::module_& module) {
  py::class_<JobHandle>(module, "Job",
                        "A waiting job of a policy's view (valid during the call to select).")
      .def_property_readonly("id", [](const JobHandle& job) { return job.get().id; })
      .def_property_readonly("submit_time",
                             [](const JobHandle& job) { return time_to_py(job.get().submit_time); })
      .def_property_readonly("nodes", [](const JobHandle& job) { return job.get().nodes; })
      .def_property_readonly("walltime",
                             [](const JobHandle& job) { return time_to_py(job.get().time_limit); })
      .def_property_readonly("has_walltime",
                             [](const JobHandle& job) { return job.get().has_time_limit(); })
      .def_property_readonly("prediction",
                             [](const JobHandle& job) { return time_to_py(job.get().prediction); })
      .def_property_readonly(
          "planned_runtime",
          [](const JobHandle& job) { return time_to_py(planned_runtime(job.get())); })
      .def("planned_end",
           [](const JobHandle& job, const py::handle& start) {
             return time_to_py(planned_end(job.get(), time_from_py(start, "start")));
           })
      .def_property_readonly("occupancy",
                             [](const JobHandle& job) { return time_to_py(occupancy(job.get())); })
      .def_property_readonly("user", [](const JobHandle& job) { return job.get().user; })
      .def_property_readonly("queue", [](const JobHandle& job) { return job.get().queue; })
      .def_property_readonly("position",
                             [](const JobHandle& job) {
                               job.get();
                               return job.position;
                             })
      .def("__repr__", [](const JobHandle& job) {
        if (job.pass != current_pass()) return std::string("<batfill.Job of an earlier pass>");
        const Job& core = *job.job;
        return "<batfill.Job " + core.id + ": " + std::to_string(core.nodes) + " nodes, walltime " +
               format_seconds(core.time_limit) + " s>";
      });
}

// A position of the queue from a Python index (negative from the end); IndexError outside.
std::size_t queue_position(const QueueHandle& queue, long long index) {
  const auto size = static_cast<long long>(queue.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) throw py::index_error("queue index out of range");
  return static_cast<std::size_t>(index);
}

struct QueueIterator {
  QueueHandle queue;
  std::size_t next = 0;
};

void bind_queue(py::module_& module) {
  py::class_<QueueHandle>(module, "Queue",
                          "The waiting jobs in queue order (a sequence, valid during the call).")
      .def("__len__", &QueueHandle::size)
      .def("__bool__", [](const QueueHandle& queue) { return queue.size() > 0; })
      .def("__getitem__", [](const QueueHandle& queue,
                             long long index) { return queue.at(queue_position(queue, index)); })
      .def("__getitem__",
           [](const QueueHandle& queue, const py::slice& slice) {
             std::size_t start = 0, stop = 0, step = 0, length = 0;
             if (!slice.compute(queue.size(), &start, &stop, &step, &length)) {
               throw py::error_already_set();
             }
             py::list jobs(length);
             for (std::size_t i = 0; i < length; ++i, start += step) jobs[i] = queue.at(start);
             return jobs;
           })
      .def("__iter__", [](const QueueHandle& queue) { return QueueIterator{queue}; });
  py::class_<QueueIterator>(module, "QueueIterator")
      .def("__iter__", [](QueueIterator& iterator) -> QueueIterator& { return iterator; })
      .def("__next__", [](QueueIterator& iterator) {
        if (iterator.next >= iterator.queue.size()) throw py::stop_iteration();
        return iterator.queue.at(iterator.next++);
      });
}

void bind_view(py::module_& module) {
  bind_queue(module);
  py::class_<ViewHandle>(module, "View", "The instant a policy decides on (read-only).")
      .def_property_readonly("now",
                             [](const ViewHandle& view) { return time_to_py(view.get().now); })
      .def_property_readonly("machine_count",
                             [](const ViewHandle& view) { return view.get().machine_count; })
      .def_property_readonly("free_nodes",
                             [](const ViewHandle& view) { return view.get().free_nodes; })
      .def_property_readonly("queue",
                             [](const ViewHandle& view) {
                               view.get();
                               return QueueHandle{view};
                             })
      .def_property_readonly("running",
                             [](const ViewHandle& view) {
                               py::list running;
                               for (const auto& [end, nodes] : *view.get().releases) {
                                 running.append(py::make_tuple(time_to_py(end), nodes));
                               }
                               return running;
                             })
      .def_property_readonly(
          "backfill_order",
          [](const ViewHandle& view) { return to_string(view.get().backfill_order); })
      .def("timeline",
           [](const ViewHandle& view) {
             return TimelineHandle{ReleaseTimeline(view.get()), view.pass};
           })
      .def("profile", [](const ViewHandle& view) { return profile_of(view.get()); });

  py::class_<TimelineHandle>(module, "Timeline",
                             "Free nodes now and at the running jobs' planned ends, with the "
                             "jobs started in this call (valid during it).")
      .def_property_readonly(
          "now", [](TimelineHandle& timeline) { return time_to_py(timeline.get().now()); })
      .def_property_readonly("free_nodes",
                             [](TimelineHandle& timeline) { return timeline.get().free_nodes(); })
      .def("start",
           [](TimelineHandle& timeline, const JobHandle& job) { timeline.get().start(job.get()); })
      .def("earliest_time_with",
           [](TimelineHandle& timeline, int nodes) {
             return time_to_py(timeline.get().earliest_time_with(nodes_from_py(nodes)));
           })
      .def("free_nodes_at",
           [](TimelineHandle& timeline, const py::handle& time) {
             return timeline.get().free_nodes_at(time_from_py(time, "time"));
           })
      .def("waits_on_unlimited", [](TimelineHandle& timeline, int nodes) {
        return timeline.get().waits_on_unlimited(nodes_from_py(nodes));
      });

  py::class_<AvailabilityProfile>(module, "Profile",
                                  "Free nodes over time as a step function (a copy: yours to "
                                  "reserve in).")
      .def_property_readonly(
          "origin", [](const AvailabilityProfile& profile) { return time_to_py(profile.origin()); })
      .def("free_at",
           [](const AvailabilityProfile& profile, const py::handle& time) {
             return profile.free_at(time_from_py(time, "time"));
           })
      .def("earliest_fit",
           [](const AvailabilityProfile& profile, const py::handle& from,
              const py::handle& duration, int nodes) {
             return time_to_py(profile.earliest_fit(
                 time_from_py(from, "from"), positive_duration(duration), nodes_from_py(nodes)));
           })
      .def("earliest_start",
           [](const AvailabilityProfile& profile, const JobHandle& job) {
             const Job& core = job.get();
             return time_to_py(profile.earliest_fit(profile.origin(), occupancy(core), core.nodes));
           })
      .def("fits",
           [](const AvailabilityProfile& profile, const py::handle& start,
              const py::handle& duration, int nodes) {
             const Time from = time_from_py(start, "start");
             if (from < profile.origin()) throw py::value_error("start is before the origin");
             return profile.fits(from, positive_duration(duration), nodes_from_py(nodes));
           })
      .def("reserve",
           [](AvailabilityProfile& profile, const py::handle& start, const py::handle& end,
              int nodes) {
             profile.reserve(time_from_py(start, "start"), time_from_py(end, "end"),
                             nodes_from_py(nodes));
           })
      .def("release",
           [](AvailabilityProfile& profile, const py::handle& start, const py::handle& end,
              int nodes) {
             profile.release(time_from_py(start, "start"), time_from_py(end, "end"),
                             nodes_from_py(nodes));
           })
      .def("reserve_job",
           [](AvailabilityProfile& profile, const JobHandle& job, const py::handle& start) {
             const Job& core = job.get();
             const Time from = time_from_py(start, "start");
             profile.reserve(from, add_saturating(from, occupancy(core)), core.nodes);
           })
      .def_property_readonly("steps", [](const AvailabilityProfile& profile) {
        py::list steps;
        for (const auto& [start, free] : profile.steps()) {
          steps.append(py::make_tuple(time_to_py(start), free));
        }
        return steps;
      });
}

}  // namespace

std::uint64_t current_pass() { return g_in_pass ? g_pass : 0; }

void check_current(std::uint64_t pass, const char* what) {
  if (!g_in_pass || pass != g_pass) {
    throw std::runtime_error(std::string(what) +
                             " of a policy's view is valid only during the call to select that "
                             "received it");
  }
}

PythonPolicy::PythonPolicy(py::object policy)
    : policy_(std::move(policy)),
      select_(policy_.attr("select")),
      name_(type_name(policy_)),
      plans_with_predictions_(
          py::getattr(policy_, "plans_with_predictions", py::bool_(true)).cast<bool>()),
      orders_candidates_(
          py::getattr(policy_, "follows_backfill_order", py::bool_(false)).cast<bool>()) {}

// The replay runs without the GIL (module.cpp), so that SimGrid may run its actor on a thread
// of its own (contexts/factory:thread); the policy takes it to touch Python.
PythonPolicy::~PythonPolicy() {
  const py::gil_scoped_acquire gil;
  select_.release().dec_ref();
  policy_.release().dec_ref();
}

std::string PythonPolicy::where(const SchedulingView& view) const {
  std::string text = "policy " + name_ + " at time " + format_seconds(view.now) + " s, ";
  if (view.queue.empty()) return text + "no job waiting";
  return text + std::to_string(view.queue.size()) + " waiting, first job " + view.queue[0]->id;
}

std::vector<const Job*> PythonPolicy::select_jobs_to_start(const SchedulingView& view) {
  const py::gil_scoped_acquire gil;
  const PassScope scope;
  py::object returned;
  try {
    returned = select_(ViewHandle{&view, g_pass});
  } catch (py::error_already_set& error) {
    throw PolicyFailure(where(view) + ": " + name_ + ".select raised\n" + traceback_text(error));
  }
  return checked_starts(returned, view, g_pass);
}

std::vector<const Job*> PythonPolicy::checked_starts(const py::handle& returned,
                                                     const SchedulingView& view,
                                                     std::uint64_t pass) const {
  const std::string context = where(view) + ": " + name_ + ".select returned ";
  if (!py::isinstance<py::list>(returned) && !py::isinstance<py::tuple>(returned)) {
    throw PolicyTypeError(context + "a " + type_name(returned) +
                          ", not a list of jobs of view.queue");
  }
  std::vector<const Job*> starts;
  std::vector<bool> taken(view.queue.size(), false);
  long long nodes = 0;
  std::size_t index = 0;
  for (const py::handle item : returned) {
    const std::string item_name = "item " + std::to_string(index++);
    if (!py::isinstance<JobHandle>(item)) {
      throw PolicyTypeError(context + item_name + ", a " + type_name(item) +
                            ", not a job of view.queue");
    }
    const JobHandle& job = item.cast<const JobHandle&>();
    if (job.pass != pass) {
      throw PolicyValueError(context + item_name +
                             ", a job of an earlier call's view, not waiting now as far as this "
                             "call knows: return jobs of this call's view.queue");
    }
    if (taken[job.position]) {
      throw PolicyValueError(context + "job " + job.job->id +
                             " twice: it is no longer waiting "
                             "when it starts the second time");
    }
    taken[job.position] = true;
    nodes += job.job->nodes;
    if (nodes > view.free_nodes) {
      throw PolicyValueError(
          context + "job " + job.job->id + " (" + std::to_string(job.job->nodes) +
          " nodes), which does not fit: the "
          "jobs up to it need " +
          std::to_string(nodes) + " nodes, " + std::to_string(view.free_nodes) + " are free");
    }
    starts.push_back(job.job);
  }
  return starts;
}

void bind_policy_view(py::module_& module) {
  bind_job(module);
  bind_view(module);
  static py::exception<PolicyFailure> policy_error(module, "PolicyError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const PolicyTypeError& error) {
      PyErr_SetString(PyExc_TypeError, error.what());
    } catch (const PolicyValueError& error) {
      PyErr_SetString(PyExc_ValueError, error.what());
    } catch (const PolicyFailure& error) {
      PyErr_SetString(policy_error.ptr(), error.what());
    }
  });
}

}  // namespace batfill::python
