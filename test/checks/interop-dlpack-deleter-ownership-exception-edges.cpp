// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Exception edges. A managed tensor the function allocates, or takes from a
// producer's call, is owed from then on: a call that throws out of the
// function before the tensor is handed on leaks it. A call throws when it
// may (not noexcept, not C, not an observer) and a body the file holds
// shows a throw; a callee only declared is given the benefit of the doubt.
// A call inside a try block is caught there. A parameter's tensor is not
// owed on that path: its caller still owns it until the importer returns.

#include <Python.h>
#include <dlpack/dlpack.h>

#include <memory>
#include <stdexcept>

DLDataType dtype_of(int code) {
  if (code == 1)
    return {kDLFloat, 32, 1};
  throw std::invalid_argument("unsupported type code");
}
void check_code(int code) {
  if (code < 0)
    throw std::out_of_range("negative code");
}
// Declared only: nothing shows a throw.
DLDataType dtype_declared(int code);
DLDataType dtype_noexcept(int code) noexcept;
extern "C" DLDevice device_of_c(int where);
DLManagedTensor *toDLPack(int handle);
void validate(const DLManagedTensor *t);

static void delete_tensor(DLManagedTensor *self) {
  delete[] self->dl_tensor.shape;
  delete self;
}
void capsule_destructor(PyObject *c);

PyObject *dispatch_after_new(void *data, int code, PyObject *owner) {
  DLManagedTensor *mt = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  mt->dl_tensor.data = data;
  mt->dl_tensor.dtype = dtype_of(code);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: note: still owned if this call throws, and nothing frees it then
  mt->manager_ctx = owner;
  Py_INCREF(owner);
  mt->deleter = delete_tensor;
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// The same producer with the throwing call first: nothing is owed yet.
PyObject *dispatch_before_new(void *data, int code, PyObject *owner) {
  DLDataType dt = dtype_of(code);
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = data;
  mt->dl_tensor.dtype = dt;
  mt->manager_ctx = owner;
  Py_INCREF(owner);
  mt->deleter = delete_tensor;
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// Calls that do not throw: noexcept, C linkage, a same-file body without a
// throw, a body the file does not hold.
static int bits_of(int code) { return code == 2 ? 32 : 64; }
PyObject *no_throwing_call(void *data, int code, PyObject *owner) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = data;
  mt->dl_tensor.dtype = dtype_noexcept(code);
  mt->dl_tensor.dtype = dtype_declared(code);
  mt->dl_tensor.dtype.bits = bits_of(code);
  mt->dl_tensor.device = device_of_c(code);
  mt->manager_ctx = owner;
  Py_INCREF(owner);
  mt->deleter = delete_tensor;
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// A handler that releases the tensor and rethrows: the call is caught.
PyObject *caught(void *data, int code, PyObject *owner) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = data;
  try {
    mt->dl_tensor.dtype = dtype_of(code);
  } catch (...) {
    delete mt;
    throw;
  }
  mt->manager_ctx = owner;
  Py_INCREF(owner);
  mt->deleter = delete_tensor;
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// Held by a unique_ptr until it is handed on: the holder frees it.
PyObject *guarded(void *data, int code, PyObject *owner) {
  std::unique_ptr<DLManagedTensor> holder(new DLManagedTensor{});
  holder->dl_tensor.data = data;
  holder->dl_tensor.dtype = dtype_of(code);
  holder->manager_ctx = owner;
  Py_INCREF(owner);
  holder->deleter = delete_tensor;
  return PyCapsule_New(holder.release(), "dltensor", capsule_destructor);
}

// A call given the tensor may take it: not a leak of this function.
PyObject *given_to_the_call(void *data, PyObject *owner) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = data;
  mt->manager_ctx = owner;
  Py_INCREF(owner);
  mt->deleter = delete_tensor;
  validate(mt);
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// The operand of a throw leaves by that throw: one exit, not two.
DLManagedTensor *thrown(int code) {
  DLManagedTensor *mt = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (code < 0)
    throw std::runtime_error(std::to_string(code));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the exception is thrown here
  mt->deleter = delete_tensor;
  return mt;
}

// A producer's tensor, validated by a call that may throw.
int consume(int handle, int code) {
  DLManagedTensor *mt = toDLPack(handle);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  check_code(code);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: still owned if this call throws, and nothing frees it then
  int n = mt->dl_tensor.ndim;
  mt->deleter(mt);
  return n;
}

// An importer owns its parameter only once it returns: the caller (or its
// capsule) still owns the tensor when check_code throws.
int import_param(DLManagedTensor *src, int code) {
  check_code(code);
  int n = src->dl_tensor.ndim;
  src->deleter(src);
  return n;
}

// A throw two calls deep is still this call's.
static DLDataType dtype_checked(int code) {
  check_code(code);
  return {kDLInt, 64, 1};
}
DLManagedTensor *two_deep(int code) {
  DLManagedTensor *mt = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  mt->dl_tensor.dtype = dtype_checked(code);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: note: still owned if this call throws, and nothing frees it then
  mt->deleter = delete_tensor;
  return mt;
}

// A throwing call inside a return the tensor leaks at anyway: one exit.
DLManagedTensor *fail(int code) {
  check_code(code);
  return nullptr;
}
DLManagedTensor *returned_call(int code) {
  DLManagedTensor *mt = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (code < 0)
    return fail(code);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  mt->deleter = delete_tensor;
  return mt;
}

// CPython's capsule setters fail only on an invalid capsule: once the
// capsule's pointer was read as non-NULL, renaming it or clearing its
// destructor succeeds, so the throws that test their results are dead.
DLManagedTensor *claim_tested(PyObject *capsule) {
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!managed)
    throw std::runtime_error("not an unconsumed capsule");
  if (PyCapsule_SetName(capsule, "used_dltensor") != 0)
    throw std::runtime_error("cannot rename the capsule");
  if (PyCapsule_SetDestructor(capsule, nullptr))
    throw std::runtime_error("cannot clear the destructor");
  return managed;
}

// Without the read's test, the pointer may be NULL and the capsule invalid:
// a failed rename leaves nothing owned either.
DLManagedTensor *claim_tested_unread(PyObject *capsule) {
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (PyCapsule_SetName(capsule, "used_dltensor") == 0)
    return managed;
  return nullptr;
}

// A throw after the rename still leaks the claimed tensor.
DLManagedTensor *claim_tested_then_throw(PyObject *capsule) {
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (!managed)
    throw std::runtime_error("not an unconsumed capsule");
  if (PyCapsule_SetName(capsule, "used_dltensor") != 0)
    throw std::runtime_error("cannot rename the capsule");
  if (managed->dl_tensor.ndim < 0)
    throw std::runtime_error("negative ndim");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the exception is thrown here
  return managed;
}
