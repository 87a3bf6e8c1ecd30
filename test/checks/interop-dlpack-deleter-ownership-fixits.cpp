// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A leaked tensor gets its release as a fix-it (applied by --fix) before
// every return or throw it leaks at, when that is unambiguous: the tensor is
// owned on every path to each of them, one variable holds it, and the
// function uses that variable only to reach the tensor's fields (its data
// pointer only to test it), so the release frees nothing still in use.

#include <Python.h>
#include <dlpack/dlpack.h>

namespace mylib {
DLManagedTensor *toDLPack(int id);
struct Buffer {
  static Buffer Empty();
  Buffer(void *data, long n);
};
void log(const char *msg);
} // namespace mylib

// The unbraced body of an if gets braces.
void early_return(int id, bool fail) {
  DLManagedTensor *t = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (fail)
    return;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  // CHECK-FIXES: {{^}}    { if (t->deleter) t->deleter(t); return; }{{$}}
  if (t->deleter)
    t->deleter(t);
}

// A statement of a block gets a line of its own; a test of data is no use
// of it; every exit is fixed.
mylib::Buffer empty_tensor(int id) {
  DLManagedTensor *mt = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (mt->dl_tensor.data == nullptr) {
    mylib::log("empty");
    return mylib::Buffer::Empty();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
    // CHECK-FIXES: {{^}}    if (mt->deleter) mt->deleter(mt);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    return mylib::Buffer::Empty();{{$}}
  }
  if (mt->dl_tensor.ndim != 1)
    throw 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the exception is thrown here
  // CHECK-FIXES: {{^}}    { if (mt->deleter) mt->deleter(mt); throw 1; }{{$}}
  if (mt->deleter)
    mt->deleter(mt);
  return mylib::Buffer::Empty();
}

// A capsule's tensor once the capsule is claimed.
PyObject *claimed(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (!mt)
    return nullptr;
  PyCapsule_SetName(cap, "used_dltensor");
  // CHECK-MESSAGES: :[[@LINE-4]]:33: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (mt->dl_tensor.ndim < 0)
    return nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  // CHECK-FIXES: {{^}}    { if (mt->deleter) mt->deleter(mt); return nullptr; }{{$}}
  if (mt->deleter)
    mt->deleter(mt);
  return cap;
}

// No fix: the data is in use elsewhere (a wrapper of it may outlive the
// release), the exit reads the tensor, the tensor is owned on one path only,
// or the function falls off its end.
mylib::Buffer wraps_data(int id, bool fail) {
  DLManagedTensor *t = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  mylib::Buffer b(t->dl_tensor.data, 4);
  if (fail)
    return b;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  // CHECK-FIXES: {{^}}    return b;{{$}}
  if (t->deleter)
    t->deleter(t);
  return b;
}

int exit_reads_it(int id, bool fail) {
  DLManagedTensor *t = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (fail)
    return t->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  // CHECK-FIXES: {{^}}    return t->dl_tensor.ndim;{{$}}
  if (t->deleter)
    t->deleter(t);
  return 0;
}

int owned_on_one_path(int id, bool a, bool b) {
  DLManagedTensor *t = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (a && t->deleter)
    t->deleter(t);
  if (b)
    return 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  // CHECK-FIXES: {{^}}    return 1;{{$}}
  if (!a && t->deleter)
    t->deleter(t);
  return 0;
}

void falls_off(int id) {
  DLManagedTensor *t = mylib::toDLPack(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  mylib::log(t->dl_tensor.ndim > 1 ? "matrix" : "vector");
}
// CHECK-MESSAGES: :[[@LINE-1]]:1: note: still owned when the function ends here
