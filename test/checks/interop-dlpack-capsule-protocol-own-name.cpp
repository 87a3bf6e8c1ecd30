// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// The capsule's own name read back (PyCapsule_GetName), held in a local, in
// a string object made from it, or as that object's c_str(): compared with
// a DLPack name, it tells whether the capsule is unconsumed, whether the
// comparison is strcmp's or a string's `==`; used as the name of
// PyCapsule_GetPointer, it always matches, so the pointer is never NULL for
// a capsule (but nothing checked the name unless it was compared).

#include <Python.h>
#include <dlpack/dlpack.h>

int strcmp(const char *a, const char *b);
struct bad_capsule {};

namespace text {
// A string class of the usual shape: made from the characters, compared
// with a C string.
class string {
public:
  string(const char *s);
  string(const string &other);
  ~string();
  const char *c_str() const;
  bool operator==(const char *s) const;
};
bool operator!=(const string &a, const char *s);
} // namespace text

void consume(const DLTensor &t);

// The name proven "dltensor" by strcmp, then used to take the pointer.
void import_by_own_name(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (!name || strcmp(name, "dltensor") != 0)
    throw bad_capsule{};
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, name));
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

// A capsule destructor that tests the name through a string object.
static void destroy_by_string(PyObject *capsule) {
  text::string name = PyCapsule_GetName(capsule);
  if (name == "used_dltensor")
    return;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, name.c_str()));
  if (t->deleter)
    t->deleter(t);
}

static void destroy_by_string_not_equal(PyObject *capsule) {
  text::string name(PyCapsule_GetName(capsule));
  if (name != "dltensor")
    return;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (t && t->deleter)
    t->deleter(t);
}

PyObject *export_tensor(DLManagedTensor *t, bool which) {
  return PyCapsule_New(t, "dltensor",
                       which ? destroy_by_string : destroy_by_string_not_equal);
}

// --- Findings ---------------------------------------------------------------

// The string compared with another name says nothing of consumption.
static void destroy_other_compare(PyObject *capsule) {
  text::string name = PyCapsule_GetName(capsule);
  if (name == "tensor")
    return;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, name.c_str()));
  if (t->deleter)
    t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
}

PyObject *export_other(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", destroy_other_compare);
}

// Under its own name the pointer is there, but nothing asked whether the
// capsule is a live DLPack one.
void import_unchecked_name(PyObject *capsule) {
  text::string name = PyCapsule_GetName(capsule);
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, name.c_str()));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}
