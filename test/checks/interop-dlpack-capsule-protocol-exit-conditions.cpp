// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A call that returns only on a condition is a check of that condition, for
// every check: `throw_if(p == nullptr, ...)` (a function without a body in
// this file, named as one that throws when its argument is true), or a
// same-file helper whose body begins with `if (!cond) throw ...;` or
// `if (cond) throw ...;`. A function the file cannot see and whose name
// says nothing of the sort proves nothing.

#include <Python.h>
#include <dlpack/dlpack.h>

// Defined in another file of the project: throws when cond is true.
void throw_if(bool cond, int code, const char *msg);
// Defined elsewhere too; its name does not say what it does.
void report(bool cond, const char *msg);

struct bad_capsule {
  const char *what;
};
void fail_when(bool cond, const char *msg) {
  if (cond)
    throw bad_capsule{msg};
}
void expect(bool ok, const char *msg) {
  if (!ok)
    throw bad_capsule{msg};
}
void consume(const DLTensor &t);

void through_throw_if(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  throw_if(t == nullptr, 3, "not a DLPack capsule");
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void through_a_body(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  fail_when(!t, "not a DLPack capsule");
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void through_an_unknown_function(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  report(t == nullptr, "not a DLPack capsule");
  consume(t->dl_tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: pointer taken here
  PyCapsule_SetName(capsule, "used_dltensor");
}

// The same contract for another family: the version checked by a helper
// that returns only when it holds.
void versioned(DLManagedTensorVersioned *t) {
  expect(t->version.major == DLPACK_MAJOR_VERSION, "unsupported version");
  consume(t->dl_tensor);
}

// A logger that ends the path as it is destroyed: LOG(FATAL) << ... and
// CHECK(cond) << ... of logging libraries. Its destructor is declared
// noreturn (glog), or its visible body always throws (dmlc-core), or it is
// out of sight and the logger is made with the fatal severity (a logger of
// glog's shape without the attribute).
enum Severity { INFO, WARNING, FATAL };
struct Stream {
  Stream &operator<<(const char *);
};
class NoReturnLogger {
public:
  NoReturnLogger(const char *file, int line);
  [[noreturn]] ~NoReturnLogger();
  Stream &stream();
};
class ThrowingLogger {
public:
  ThrowingLogger(const char *file, int line);
  ~ThrowingLogger() noexcept(false) { throw bad_capsule{"fatal"}; }
  Stream &stream();
};
class SeverityLogger {
public:
  SeverityLogger(const char *file, int line, int severity);
  ~SeverityLogger(); // aborts for FATAL, in the library
  Stream &stream();
};
#define CHECK_NORETURN(c)                                                      \
  (c) ? (void)0 : (void)(NoReturnLogger(__FILE__, __LINE__).stream() << #c)
#define CHECK_THROWS(c)                                                        \
  if (!(c))                                                                    \
  ThrowingLogger(__FILE__, __LINE__).stream() << "Check failed: " #c
#define FATAL_IF(c)                                                            \
  (c) ? SeverityLogger(__FILE__, __LINE__, INFO).stream()                      \
      : SeverityLogger(__FILE__, __LINE__, FATAL).stream()
#define LOG(sev) SeverityLogger(__FILE__, __LINE__, sev).stream()

void checked_by_noreturn_logger(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  CHECK_NORETURN(t);
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void checked_by_throwing_logger(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  CHECK_THROWS(t) << "invalid capsule";
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void checked_by_severity(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  FATAL_IF(t) << "invalid capsule";
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void fatal_log_on_null(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!t)
    LOG(FATAL) << "invalid capsule";
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

// A warning goes on: the pointer is still NULL after it.
void warning_log_on_null(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!t)
    LOG(WARNING) << "invalid capsule";
  consume(t->dl_tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: pointer taken here
  PyCapsule_SetName(capsule, "used_dltensor");
}
