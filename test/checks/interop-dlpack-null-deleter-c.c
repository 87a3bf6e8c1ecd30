// RUN: %check_interop %s interop-dlpack-null-deleter %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v06

// C: the deleter's NULL test is a bare truth test (`if (mt->deleter)`,
// `mt->deleter && ...`, `!mt->deleter`), read as its C++ spelling is.

#include <Python.h>
#include <dlpack/dlpack.h>

int consume(DLManagedTensor *mt);

static int import_tested(PyObject *capsule) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  if (mt == NULL)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (consume(mt) != 0) {
    if (mt->deleter)
      mt->deleter(mt);
    return -1;
  }
  return 0;
}

static int import_early_return(PyObject *capsule) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  if (!mt)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (consume(mt) == 0)
    return 0;
  if (!mt->deleter)
    return -1;
  mt->deleter(mt);
  return -1;
}

static int import_untested(PyObject *capsule) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  if (!mt)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (consume(mt) != 0) {
    mt->deleter(mt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
    return -1;
  }
  return 0;
}

// The deleter called through its dereference, `(*p)(...)`: the test of the
// pointer is the test of the call.
void call_deleter(DLManagedTensor *mt) {
  if (mt && mt->deleter)
    (*(mt->deleter))(mt);
}

void call_deleter_untested(DLManagedTensor *mt) {
  if (mt)
    (*mt->deleter)(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
}
