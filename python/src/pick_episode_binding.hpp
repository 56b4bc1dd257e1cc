#pragma once
// The scheduling environment's episode for Python (pick_episode.hpp).

#include <pybind11/pybind11.h>

namespace batfill::python {

namespace py = pybind11;

void bind_pick_episode(py::module_& module);

}  // namespace batfill::python
