// RUN: %check_interop %s interop-dlpack-deleter-ownership,interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A pointer assigned in both arms of an if is, after the if, whichever
// tensor the path assigned: handing it on hands on that tensor, on those
// paths. (The dataflow framework gives such a pointer a new value at the
// join; the value remembers what it came from.)

#include <Python.h>
#include <dlpack/dlpack.h>

static void dtor_legacy(PyObject *c);
static void dtor_versioned(PyObject *c);
DLManagedTensor *make_legacy();
DLManagedTensorVersioned *make_versioned();

PyObject *export_either(bool versioned) {
  void *payload;
  const char *name;
  PyCapsule_Destructor dtor;
  if (versioned) {
    payload = make_versioned();
    name = "dltensor_versioned";
    dtor = dtor_versioned;
  } else {
    payload = make_legacy();
    name = "dltensor";
    dtor = dtor_legacy;
  }
  return PyCapsule_New(payload, name, dtor);
}

PyObject *export_either_cleanup(bool versioned) {
  DLManagedTensorVersioned *v = nullptr;
  DLManagedTensor *l = nullptr;
  void *payload;
  if (versioned) {
    v = new DLManagedTensorVersioned{};
    payload = v;
  } else {
    l = new DLManagedTensor{};
    payload = l;
  }
  PyObject *cap = PyCapsule_New(
      payload, versioned ? "dltensor_versioned" : "dltensor", dtor_legacy);
  if (!cap) {
    if (v)
      v->deleter(v);
    if (l)
      l->deleter(l);
    return nullptr;
  }
  return cap;
}

// Still a leak: on the early return neither tensor was handed on.
extern bool ready();
PyObject *export_either_early_return(bool versioned) {
  void *payload;
  if (versioned)
    payload = new DLManagedTensorVersioned{};
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+7]]:5: note: still owned when the function returns here
  else
    payload = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+3]]:5: note: still owned when the function returns here
  // (The hand-off below covers every path that reaches it.)
  if (!ready())
    return nullptr;
  return PyCapsule_New(payload, versioned ? "dltensor_versioned" : "dltensor",
                       dtor_legacy);
}

// The importer's side: the pointer a capsule gave in either arm is cast to
// its own type and released once after the if (the deleter tested for
// NULL, as DLPack allows), or captured by the callback that releases it.
#include <functional>
void import_either(PyObject *capsule, bool versioned) {
  void *managed;
  if (versioned)
    managed = PyCapsule_GetPointer(capsule, "dltensor_versioned");
  else
    managed = PyCapsule_GetPointer(capsule, "dltensor");
  if (!managed)
    return;
  if (versioned) {
    auto *p = static_cast<DLManagedTensorVersioned *>(managed);
    if (p->deleter)
      p->deleter(p);
  } else {
    auto *p = static_cast<DLManagedTensor *>(managed);
    if (p->deleter)
      p->deleter(p);
  }
  PyCapsule_SetName(capsule,
                    versioned ? "used_dltensor_versioned" : "used_dltensor");
}

std::function<void()> import_either_later(PyObject *capsule, bool versioned) {
  void *managed;
  if (versioned)
    managed = PyCapsule_GetPointer(capsule, "dltensor_versioned");
  else
    managed = PyCapsule_GetPointer(capsule, "dltensor");
  if (!managed)
    return {};
  std::function<void()> release;
  if (versioned)
    release = [managed] {
      auto *p = static_cast<DLManagedTensorVersioned *>(managed);
      p->deleter(p);
    };
  else
    release = [managed] {
      auto *p = static_cast<DLManagedTensor *>(managed);
      p->deleter(p);
    };
  PyCapsule_SetName(capsule,
                    versioned ? "used_dltensor_versioned" : "used_dltensor");
  return release;
}

// Still a leak: the release covers only the paths that took the legacy
// tensor.
void import_either_one_release(PyObject *capsule, bool versioned) {
  void *managed;
  if (versioned)
    managed = PyCapsule_GetPointer(capsule, "dltensor_versioned");
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+10]]:1: note: still owned when the function ends here
  else
    managed = PyCapsule_GetPointer(capsule, "dltensor");
  if (!managed)
    return;
  if (!versioned) {
    auto *p = static_cast<DLManagedTensor *>(managed);
    p->deleter(p);
  }
  PyCapsule_SetName(capsule, versioned ? "used_dltensor_versioned" : "used_dltensor");
}

// Stored into the handle that owns it from now on (nanobind's import:
// each generation into its own field), then the capsule's destructor is
// cleared.
struct Handle {
  DLManagedTensorVersioned *versioned = nullptr;
  DLManagedTensor *legacy = nullptr;
};
Handle *import_into_handle(PyObject *capsule, bool versioned) {
  void *managed;
  if (versioned)
    managed = PyCapsule_GetPointer(capsule, "dltensor_versioned");
  else
    managed = PyCapsule_GetPointer(capsule, "dltensor");
  if (!managed)
    return nullptr;
  Handle *h = new Handle{};
  if (versioned)
    h->versioned = static_cast<DLManagedTensorVersioned *>(managed);
  else
    h->legacy = static_cast<DLManagedTensor *>(managed);
  PyCapsule_SetDestructor(capsule, nullptr);
  return h;
}
