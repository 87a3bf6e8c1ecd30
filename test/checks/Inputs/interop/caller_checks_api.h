// A consumer function other translation units call (its callers there are
// not seen by the one defining it).
#pragma once
#include <pybind11/pybind11.h>
void consume_exported(const pybind11::capsule &cap);
