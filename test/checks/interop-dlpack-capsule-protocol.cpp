// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// The Python DLPack protocol: capsules are named "dltensor" (legacy struct)
// or "dltensor_versioned"; a consumer renames the capsule to the used_ name
// once its import succeeded; the producer's destructor calls the deleter only
// while the capsule is unconsumed and keeps any exception in flight.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <string.h>

struct python_error {};

namespace at {
struct Tensor {};
Tensor fromDLPack(DLManagedTensor *src);
DLManagedTensor *toDLPack(const Tensor &t);
DLManagedTensorVersioned *toDLPackVersioned(const Tensor &t);
} // namespace at
PyObject *wrap(const at::Tensor &t);

// PyTorch (torch/csrc/utils/tensor_new.cpp): the capsule was renamed before
// fromDLPack, which can still throw: the capsule then no longer deletes the
// tensor and nobody else does.
PyObject *THPModule_fromDLPack(PyObject *data) {
  DLManagedTensor *dlMTensor =
      (DLManagedTensor *)PyCapsule_GetPointer(data, "dltensor");
  if (!dlMTensor)
    throw python_error();
  PyCapsule_SetName(data, "used_dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: capsule renamed to its used_ name before the import has succeeded; if the import fails, nobody deletes the tensor [interop-dlpack-capsule-protocol]
  at::Tensor atensor = at::fromDLPack(dlMTensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: note: the import happens here
  return wrap(atensor);
}

PyObject *THPModule_fromDLPackFixed(PyObject *data) {
  DLManagedTensor *dlMTensor =
      (DLManagedTensor *)PyCapsule_GetPointer(data, "dltensor");
  if (!dlMTensor)
    throw python_error();
  at::Tensor atensor = at::fromDLPack(dlMTensor);
  PyCapsule_SetName(data, "used_dltensor");
  return wrap(atensor);
}

// Clearing the destructor instead of renaming is a legitimate consumer idiom.
PyObject *fromDLPackClearingDestructor(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  at::Tensor t = at::fromDLPack(mt);
  PyCapsule_SetDestructor(data, nullptr);
  return wrap(t);
}

// A consumer that never marks the capsule used: the producer's destructor
// deletes the tensor the consumer imported.
PyObject *fromDLPackNeverRenamed(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  if (mt == nullptr)
    return nullptr;
  return wrap(at::fromDLPack(mt));
}

// Taking the pointer whatever the capsule's name.
PyObject *fromDLPackAnyName(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(data, PyCapsule_GetName(data)));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  if (mt == nullptr)
    return nullptr;
  at::Tensor t = at::fromDLPack(mt);
  PyCapsule_SetName(data, "used_dltensor");
  return wrap(t);
}

// Dereferencing the pointer without checking that the name matched: a
// consumed capsule crashes instead of raising.
int64_t capsule_ndim(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  return mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-3]]:45: note: pointer taken here
}

// The versioned struct under the legacy name, and the reverse.
void versioned_destructor(PyObject *capsule);
PyObject *export_versioned(const at::Tensor &t) {
  return PyCapsule_New(at::toDLPackVersioned(t), "dltensor",
                       versioned_destructor);
  // CHECK-MESSAGES: :[[@LINE-2]]:50: warning: capsule named 'dltensor' holds a DLManagedTensorVersioned; a consumer will read it as the other struct [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-3]]:50: note: name it 'dltensor_versioned'
}
// A bare DLTensor under a DLPack name, through a file-local name variable.
static auto kBareName = "dltensor";
DLTensor *make_frames(int n);
void free_frames(PyObject *capsule);
PyObject *export_bare(int n) {
  return PyCapsule_New(make_frames(n), kBareName, free_frames);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: capsule named 'dltensor' holds a bare DLTensor; a consumer reads it as a DLManagedTensor and calls a deleter read past its end [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:40: note: capsule created here
}
DLManagedTensorVersioned *import_versioned(PyObject *data) {
  return static_cast<DLManagedTensorVersioned *>(
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule named 'dltensor' read as a DLManagedTensorVersioned [interop-dlpack-capsule-protocol]
      PyCapsule_GetPointer(data, "dltensor"));
}

// A name no consumer looks for.
void legacy_destructor(PyObject *capsule);
PyObject *export_misnamed(const at::Tensor &t) {
  return PyCapsule_New(at::toDLPack(t), "DLTensor", legacy_destructor);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: capsule holding a DLPack tensor created with name 'DLTensor'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
}

// CuPy (cupy/_core/dlpack.pyx): the capsule destructor called the deleter
// even after a consumer had renamed the capsule and taken the tensor.
void cupy_deleter(PyObject *dltensor) {
  DLManagedTensor *dlm_tensor = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(dltensor, PyCapsule_GetName(dltensor)));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  if (dlm_tensor != nullptr && dlm_tensor->deleter != nullptr)
    dlm_tensor->deleter(dlm_tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
}
PyObject *cupy_toDlpack(const at::Tensor &t) {
  return PyCapsule_New(at::toDLPack(t), "dltensor", cupy_deleter);
}

// jaxlib (xla/python/dlpack.cc): the destructor cleared the error
// indicator, discarding any exception that was propagating.
void jax_capsule_destructor(PyObject *capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *dlmt = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(capsule, "dltensor"));
    if (dlmt->deleter)
      dlmt->deleter(dlmt);
  } else {
    PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
  }
}
PyObject *jax_to_dlpack(const at::Tensor &t) {
  return PyCapsule_New(at::toDLPack(t), "dltensor", jax_capsule_destructor);
}

// The pointer read only when the capsule is unconsumed, kept NULL
// otherwise: the test of the joined pointer is the test of the capsule.
void joined_destructor(PyObject *capsule) {
  DLManagedTensor *managed = nullptr;
  if (PyCapsule_IsValid(capsule, "dltensor"))
    managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed && managed->deleter)
    managed->deleter(managed);
}
PyObject *joined_to_dlpack(const at::Tensor &t) {
  return PyCapsule_New(at::toDLPack(t), "dltensor", joined_destructor);
}

// The runtime's importer takes ownership even when it fails, so the capsule
// must be claimed on the failure path too.
namespace interop {
struct Device {};
struct Status {};
struct Array {};
template <class T> struct Result {
  bool ok() const;
};
Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target);
} // namespace interop
PyObject *wrap_array(const interop::Result<interop::Array> &r);
PyObject *shim_from_dlpack(PyObject *capsule, const interop::Device &device) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  interop::Result<interop::Array> r = interop::from_dlpack(mt, device);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: from_dlpack takes ownership even when it fails, but the capsule is not renamed on some path after it; the capsule's destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  if (!r.ok())
    return nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the function leaves here without renaming it
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap_array(r);
}

PyObject *shim_from_dlpack_fixed(PyObject *capsule,
                                 const interop::Device &device) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  // Renaming first is right for an importer that always takes ownership.
  PyCapsule_SetName(capsule, "used_dltensor");
  interop::Result<interop::Array> r = interop::from_dlpack(mt, device);
  if (!r.ok())
    return nullptr;
  return wrap_array(r);
}

// --- Correct destructors that must stay silent ---

void good_destructor(PyObject *capsule) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *mt = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(capsule, "dltensor"));
    if (mt->deleter)
      mt->deleter(mt);
  } else {
    PyErr_Clear();
  }
  PyErr_Restore(type, value, traceback);
}

void good_destructor_by_name(PyObject *capsule) {
  if (strcmp(PyCapsule_GetName(capsule), "used_dltensor_versioned") == 0)
    return;
  auto *mt = static_cast<DLManagedTensorVersioned *>(
      PyCapsule_GetPointer(capsule, "dltensor_versioned"));
  if (mt != nullptr && mt->deleter != nullptr)
    mt->deleter(mt);
}

void good_destructor_pointer_checked(PyObject *capsule) {
  PyObject *saved = PyErr_GetRaisedException();
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    PyErr_Clear();
  else if (mt->deleter)
    mt->deleter(mt);
  PyErr_SetRaisedException(saved);
}

PyObject *export_all(const at::Tensor &t) {
  PyObject *a = PyCapsule_New(at::toDLPack(t), "dltensor", good_destructor);
  PyObject *b = PyCapsule_New(at::toDLPackVersioned(t), "dltensor_versioned",
                              good_destructor_by_name);
  PyObject *c = PyCapsule_New(at::toDLPack(t), "dltensor",
                              good_destructor_pointer_checked);
  return a ? a : (b ? b : c);
}

// A Python object is never a managed tensor: the capsule's tensor is its
// pointer.
void tensor_deleter(DLManagedTensor *t);
static void destroy_object(PyObject *capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor"))
    tensor_deleter((DLManagedTensor *)capsule);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: Python object cast to 'DLManagedTensor *'; a DLPack tensor is a capsule's pointer (PyCapsule_GetPointer), never the object itself [interop-dlpack-capsule-protocol]
}
PyObject *export_destroy_object(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", destroy_object);
}
static void destroy_payload(PyObject *capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor"))
    tensor_deleter(
        (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor"));
}
PyObject *export_destroy_payload(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", destroy_payload);
}
