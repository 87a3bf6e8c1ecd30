// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// pybind11's consumer side: `cap.get_pointer()` reads
// the capsule under its current name, like PyCapsule_GetPointer(c,
// PyCapsule_GetName(c)): no check unless the code compares `name()` first;
// `cap.set_name("used_dltensor")` claims the capsule like PyCapsule_SetName.
// A pointer read as a struct that is not a DLPack one is no DLPack capsule.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

namespace py = pybind11;
struct Owned {
  explicit Owned(DLManagedTensor &&t);
  DLManagedTensor copy;
};

// fn11: the name is never checked.
bool import_obj(py::object obj, Owned *&out) {
  py::capsule cap = obj.attr("__dlpack__")().cast<py::capsule>();
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  if (!mt)
    return false;
  out = new Owned{std::move(*mt)};
  cap.set_name("used_dltensor");
  return true;
}

// fn11: the destructor never deletes.
py::capsule export_leaky(DLManagedTensor *mt) {
  return py::capsule(mt, "dltensor", [](PyObject *) {});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: destructor defined here
}

void import_tensor(DLManagedTensor *t);

// The name compared before the read (XLA's consumer): checked.
bool import_checked(py::capsule cap) {
  if (std::strcmp(cap.name(), "dltensor") != 0)
    return false;
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  import_tensor(mt);
  cap.set_name("used_dltensor");
  return true;
}

// The template spelling reads a managed tensor too; it is not claimed.
void import_template(py::capsule cap) {
  DLManagedTensor *mt = cap.get_pointer<DLManagedTensor>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
}

// Claimed by set_name after the import: no consumption finding.
void import_claimed(py::capsule cap) {
  if (std::strcmp(cap.name(), "dltensor"))
    return;
  DLManagedTensor *mt = cap.get_pointer<DLManagedTensor>();
  import_tensor(mt);
  cap.set_name("used_dltensor");
}

// A capsule of the library's own, read as its own struct or as void *: no
// DLPack capsule (jaxlib's FFI handler capsules).
struct Handler {
  void (*run)(void *);
};
void run_handler(py::capsule cap) {
  auto *h = static_cast<Handler *>(cap.get_pointer());
  h->run(cap.get_pointer());
}

// The capsule's own PyObject pointer, kept in a local that never changes,
// is the same capsule: its name checked through the C API checks the
// capsule that get_pointer() reads (scikit-learn-intelex's
// get_dlpack_tensor).
DLTensor alias_checked(const py::capsule &caps, DLManagedTensor *&mt) {
  PyObject *capsule = caps.ptr();
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    throw std::runtime_error("unable to extract dltensor");
  mt = caps.get_pointer<DLManagedTensor>();
  return mt->dl_tensor;
}

// A local that changes is no alias: the check was of another capsule.
DLTensor alias_reassigned(const py::capsule &caps, PyObject *other,
                          DLManagedTensor *&mt) {
  PyObject *capsule = caps.ptr();
  capsule = other;
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    throw std::runtime_error("unable to extract dltensor");
  mt = caps.get_pointer<DLManagedTensor>();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  return mt->dl_tensor;
}

// The same alias claims the capsule that get_pointer() consumed: renamed
// and its destructor cleared through the C API (LichtFeld's from_dlpack).
struct Kept {
  std::shared_ptr<DLManagedTensor> keep;
};
Kept alias_claimed(const py::capsule &caps) {
  if (std::strcmp(caps.name(), "dltensor") != 0)
    throw std::runtime_error("invalid capsule");
  auto *mt = caps.get_pointer<DLManagedTensor>();
  PyObject *capsule = caps.ptr();
  PyCapsule_SetName(capsule, "used_dltensor");
  PyCapsule_SetDestructor(capsule, nullptr);
  return Kept{std::shared_ptr<DLManagedTensor>(
      mt, [](DLManagedTensor *m) { m->deleter(m); })};
}

// The conversion operator (`DLManagedTensor *t = cap;`, or `*capsule` for a
// `py::capsule *` argument) reads under the current name too.
void import_converted(py::capsule *capsule) {
  DLManagedTensor *mt = *capsule;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
}

bool import_converted_checked(py::capsule cap) {
  if (std::strcmp(cap.name(), "dltensor") != 0)
    return false;
  DLManagedTensor *mt = cap;
  import_tensor(mt);
  cap.set_name("used_dltensor");
  return true;
}

// Through a `py::capsule *`: `capsule->name()` and `*capsule` are the same
// capsule.
bool import_converted_through_pointer(py::capsule *capsule) {
  if (std::strcmp("dltensor", capsule->name()) != 0)
    return false;
  PyCapsule_SetName(capsule->ptr(), "used_dltensor");
  DLManagedTensor *mt = *capsule;
  import_tensor(mt);
  return true;
}

// Handed on together with its capsule (`return {ptr, std::move(capsule)}`),
// the pointer is a borrow for as long as the receiver keeps the capsule,
// which still owns the tensor: nothing is consumed here.
std::pair<DLManagedTensor *, py::object> borrow_with_capsule(py::object cap) {
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor"))
    throw std::runtime_error("not a DLPack capsule");
  return {static_cast<DLManagedTensor *>(
              PyCapsule_GetPointer(cap.ptr(), "dltensor")),
          std::move(cap)};
}

// Without it, the receiver holds a tensor the capsule will delete.
std::pair<DLManagedTensor *, int> pointer_alone(py::object cap) {
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor"))
    throw std::runtime_error("not a DLPack capsule");
  return {static_cast<DLManagedTensor *>(
              PyCapsule_GetPointer(cap.ptr(), "dltensor")),
          0};
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
}
