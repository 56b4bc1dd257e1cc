#pragma once
// A scheduling policy written in Python (a subclass of batfill.Policy, docs/python.md) as the
// core's Policy: at each pass it hands the Python object a read-only view of the instant and
// turns the jobs it returns into the pass's starts, checked.

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "batfill/core/policy.hpp"

namespace batfill::python {

namespace py = pybind11;

// A Python policy raised: the message holds its traceback, the time and the queue's head.
struct PolicyFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A Python policy returned something that is not a list of the view's jobs (TypeError), or jobs
// that cannot start now (ValueError).
struct PolicyTypeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct PolicyValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Which pass the Python objects of a view belong to: they are valid only during it, as the
// core's jobs they point to may move or end afterwards.
std::uint64_t current_pass();
void check_current(std::uint64_t pass, const char* what);

// A waiting job as a policy sees it, at its position in the pass's queue.
struct JobHandle {
  const Job* job;
  std::size_t position;
  std::uint64_t pass;
  const Job& get() const {
    check_current(pass, "a job");
    return *job;
  }
};

// The instant a policy decides on (SchedulingView), valid during its pass.
struct ViewHandle {
  const SchedulingView* view;
  std::uint64_t pass;
  const SchedulingView& get() const {
    check_current(pass, "the view");
    return *view;
  }
};

// The view's wait queue as a Python sequence whose jobs are made as they are read: a policy that
// looks at the head of a long queue costs what it reads, as a C++ one.
struct QueueHandle {
  ViewHandle view;
  std::size_t size() const { return view.get().queue.size(); }
  JobHandle at(std::size_t position) const {
    return JobHandle{view.get().queue[position], position, view.pass};
  }
};

class PythonPolicy final : public Policy {
 public:
  explicit PythonPolicy(py::object policy);
  ~PythonPolicy() override;

  bool plans_with_predictions() const override { return plans_with_predictions_; }
  bool orders_candidates() const override { return orders_candidates_; }
  std::vector<const Job*> select_jobs_to_start(const SchedulingView& view) override;

 private:
  std::vector<const Job*> checked_starts(const py::handle& returned, const SchedulingView& view,
                                         std::uint64_t pass) const;
  std::string where(const SchedulingView& view) const;

  py::object policy_;
  py::object select_;
  std::string name_;
  bool plans_with_predictions_;
  bool orders_candidates_;
};

// Registers the view's classes (Job, View, Timeline, Profile) and the errors in `module`.
void bind_policy_view(py::module_& module);

}  // namespace batfill::python
