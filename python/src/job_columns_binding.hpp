#pragma once
// _jobs.csv's columns between C++ and Python (docs/python.md, "Replays"): numpy arrays that own
// the replay's vectors, and the texts made into Python strings only where the DataFrame is made.

#include <pybind11/pybind11.h>

#include "batfill/simulator/memory_outputs.hpp"

namespace batfill::python {

namespace py = pybind11;

// Each column by its _jobs.csv name: numbers as int64 or float64 arrays, texts as a pair
// (uint8 array of their characters, int64 array of their ends).
py::dict job_columns_dict(simulator::JobColumns&& jobs);

// batfill._batfill.texts(chars, ends): a text pair as a numpy object array of str.
void bind_job_columns(py::module_& module);

}  // namespace batfill::python
