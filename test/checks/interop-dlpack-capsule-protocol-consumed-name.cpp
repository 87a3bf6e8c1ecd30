// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule renamed to its used_ name belongs to the consumer that renamed
// it: that consumer owns the tensor and may have freed it. A consumer that
// reads the pointer under the used_ name of a capsule it was handed reads
// another consumer's tensor. Reading it back after renaming it itself, or
// through a capsule the file keeps after claiming it, is its own tensor.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

#include <stdexcept>

namespace py = pybind11;

void import_tensor(DLManagedTensor *t);

// Accepts either name: a capsule already consumed is read as a live one.
DLManagedTensor *from_capsule(py::capsule capsule) {
  PyObject *obj = capsule.ptr();
  DLManagedTensor *managed = nullptr;
  if (PyCapsule_IsValid(obj, "dltensor")) {
    managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "dltensor"));
  } else if (PyCapsule_IsValid(obj, "used_dltensor")) {
    managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "used_dltensor"));
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: pointer taken from a capsule under its consumed name 'used_dltensor'; the consumer that renamed it owns the tensor and may already have deleted it [interop-dlpack-capsule-protocol]
  }
  if (!managed)
    throw std::invalid_argument("expected a DLPack capsule");
  return managed;
}

// The versioned name, in C.
extern "C" int read_ndim(PyObject *cap) {
  auto *mt = (DLManagedTensorVersioned *)PyCapsule_GetPointer(
      cap, "used_dltensor_versioned");
  // CHECK-MESSAGES: :[[@LINE-2]]:42: warning: pointer taken from a capsule under its consumed name 'used_dltensor_versioned'; {{.*}}
  return mt ? mt->dl_tensor.ndim : -1;
}

// Renamed here first: read back under the name it just gave.
void consume(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (!mt)
    return;
  import_tensor(mt);
  PyCapsule_SetName(cap, "used_dltensor");
  auto *again = (DLManagedTensor *)PyCapsule_GetPointer(cap, "used_dltensor");
  (void)again;
}

// A class that claims the capsule it is given and frees the tensor through
// it later: the stored capsule is its own.
class Imported {
public:
  explicit Imported(PyObject *cap) : cap_(cap) {
    Py_INCREF(cap_);
    auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap_, "dltensor");
    if (!mt)
      throw std::invalid_argument("expected a 'dltensor' capsule");
    import_tensor(mt);
    PyCapsule_SetName(cap_, "used_dltensor");
  }
  ~Imported() {
    auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap_, "used_dltensor");
    if (mt && mt->deleter)
      mt->deleter(mt);
    Py_DECREF(cap_);
  }

private:
  PyObject *cap_;
};

// Only the name is tested: nothing is read.
bool consumed(PyObject *cap) { return PyCapsule_IsValid(cap, "used_dltensor"); }
