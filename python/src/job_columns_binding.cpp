#include "job_columns_binding.hpp"

#include <pybind11/numpy.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace batfill::python {
namespace {

// The vector moved into the array's owner: no copy of a column.
template <typename T>
py::array_t<T> owning_array(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  const py::capsule owner(owned, [](void* vector) { delete static_cast<std::vector<T>*>(vector); });
  return py::array_t<T>(static_cast<py::ssize_t>(owned->size()), owned->data(), owner);
}

// The characters as uint8, owned as the other columns are.
py::tuple text_pair(simulator::TextColumn&& column) {
  auto* owned = new std::string(std::move(column.chars));
  const py::capsule owner(owned, [](void* text) { delete static_cast<std::string*>(text); });
  const py::array_t<std::uint8_t> chars(static_cast<py::ssize_t>(owned->size()),
                                        reinterpret_cast<const std::uint8_t*>(owned->data()),
                                        owner);
  return py::make_tuple(chars, owning_array(std::move(column.ends)));
}

PyObject* new_text(const char* text, std::int64_t length) {
  PyObject* value = PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(length), nullptr);
  if (value == nullptr) throw py::error_already_set();
  return value;
}

// An object array of str in which equal texts share one object: the columns that name a state,
// a profile or a set of machines repeat a few texts many times (on SDSC-BLUE, 22,671 profiles
// and 37,332 machine sets for 243,306 jobs), and making a str costs more than finding it. A
// column whose first texts are nearly all different (ids) makes each text without looking.
py::array texts(const py::array_t<std::uint8_t, py::array::c_style>& chars,
                const py::array_t<std::int64_t, py::array::c_style>& ends) {
  constexpr std::size_t kSample = 1000;
  const auto count = static_cast<std::size_t>(ends.size());
  const auto* text = reinterpret_cast<const char*>(chars.data());
  const std::int64_t* end = ends.data();
  const auto size = static_cast<std::int64_t>(chars.size());
  py::array out(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(count)});
  // A new object array holds null pointers, which numpy reads as None: each slot is set once.
  auto** slots = static_cast<PyObject**>(out.mutable_data());
  std::unordered_map<std::string_view, PyObject*> made;
  bool share = true;
  std::int64_t begin = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (end[i] < begin || end[i] > size) {
      throw std::invalid_argument("texts: end " + std::to_string(end[i]) + " at " +
                                  std::to_string(i) + " is outside the characters");
    }
    const std::string_view value(text + begin, static_cast<std::size_t>(end[i] - begin));
    begin = end[i];
    if (!share) {
      slots[i] = new_text(value.data(), static_cast<std::int64_t>(value.size()));
      continue;
    }
    const auto [found, added] = made.try_emplace(value, nullptr);
    if (added) {
      found->second = new_text(value.data(), static_cast<std::int64_t>(value.size()));
    } else {
      Py_INCREF(found->second);
    }
    slots[i] = found->second;
    if (i + 1 == kSample && made.size() > kSample * 9 / 10) share = false;
  }
  return out;
}

}  // namespace

py::dict job_columns_dict(simulator::JobColumns&& jobs) {
  py::dict out;
  out["job_id"] = text_pair(std::move(jobs.job_id));
  out["workload_name"] = text_pair(std::move(jobs.workload_name));
  out["profile"] = text_pair(std::move(jobs.profile));
  out["submission_time"] = owning_array(std::move(jobs.submission_time));
  out["requested_number_of_resources"] =
      owning_array(std::move(jobs.requested_number_of_resources));
  out["requested_time"] = owning_array(std::move(jobs.requested_time));
  out["success"] = owning_array(std::move(jobs.success));
  out["final_state"] = text_pair(std::move(jobs.final_state));
  out["starting_time"] = owning_array(std::move(jobs.starting_time));
  out["execution_time"] = owning_array(std::move(jobs.execution_time));
  out["finish_time"] = owning_array(std::move(jobs.finish_time));
  out["waiting_time"] = owning_array(std::move(jobs.waiting_time));
  out["turnaround_time"] = owning_array(std::move(jobs.turnaround_time));
  out["stretch"] = owning_array(std::move(jobs.stretch));
  out["allocated_resources"] = text_pair(std::move(jobs.allocated_resources));
  out["consumed_energy"] = owning_array(std::move(jobs.consumed_energy));
  return out;
}

void bind_job_columns(py::module_& module) {
  module.def("texts", &texts, py::arg("chars"), py::arg("ends"),
             "A text column (its characters, the end of each text) as an object array of str.");
}

}  // namespace batfill::python
