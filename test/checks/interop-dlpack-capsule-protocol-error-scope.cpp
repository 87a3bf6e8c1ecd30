// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// An RAII object whose constructor saves the exception in flight and whose
// destructor restores it (nanobind's error_scope) makes a later PyErr_Clear
// harmless: it only drops the error PyCapsule_GetPointer raised.

#include <Python.h>
#include <dlpack/dlpack.h>

struct SavedError {
  SavedError() { PyErr_Fetch(&type, &value, &tb); }
  ~SavedError() { PyErr_Restore(type, value, tb); }
  PyObject *type, *value, *tb;
};

class RaisedGuard {
public:
  RaisedGuard() : exc(PyErr_GetRaisedException()) {}
  ~RaisedGuard() { PyErr_SetRaisedException(exc); }

private:
  PyObject *exc;
};

static void fetch_guarded(PyObject *capsule) {
  SavedError guard;
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt)
    mt->deleter(mt);
  else
    PyErr_Clear();
}

static void raised_guarded(PyObject *capsule) {
  RaisedGuard keep;
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt) {
    PyErr_Clear();
    return;
  }
  if (mt->deleter)
    mt->deleter(mt);
}

// A scope object that saves nothing, or saves and never restores, is no
// guard.
struct Unrelated {
  Unrelated();
  ~Unrelated();
};
struct SavesOnly {
  SavesOnly() : exc(PyErr_GetRaisedException()) {}
  PyObject *exc;
};

static void unguarded(PyObject *capsule) {
  Unrelated u;
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt) {
    PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
    return;
  }
  if (mt->deleter)
    mt->deleter(mt);
}

static void never_restored(PyObject *capsule) {
  SavesOnly s;
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt)
    mt->deleter(mt);
  else
    PyErr_Clear();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
}

// The guard saves only from where it is made.
static void guarded_too_late(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt) {
    PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
    return;
  }
  SavedError guard;
  if (mt->deleter)
    mt->deleter(mt);
}

PyObject *a(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", fetch_guarded); }
PyObject *b(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", raised_guarded); }
PyObject *c(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", unguarded); }
PyObject *d(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", never_restored); }
PyObject *e(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", guarded_too_late); }
