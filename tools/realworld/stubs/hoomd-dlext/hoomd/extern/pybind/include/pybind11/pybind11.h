/* Self-written forwarder for the hoomd-dlext entries: HOOMD 2 ships pybind11
 * under hoomd/extern/pybind; the harness uses the system pybind11 instead. */
#pragma once
#include <pybind11/pybind11.h>
