// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs

// The callee contracts of every family (ThrowIfFunctions, RequireFunctions,
// same-file bodies, loggers that never return) serve the array/device checks
// as well: after `throw_if(!a.is_single_device(), ...)` the array is on one
// device.

#include "interop/interop.h"

using namespace interop;

// Defined in another file of the project: throws when cond is true.
void throw_if(bool cond, const char *msg);
// Its name says nothing of what it does.
void log_if(bool cond, const char *msg);
void consume(const Result<ManagedTensor> &);

void guarded(const Array &a) {
  throw_if(!a.is_single_device(), "sharded");
  consume(to_dlpack(a));
}

void not_guarded(const Array &a) {
  log_if(!a.is_single_device(), "sharded");
  consume(to_dlpack(a));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

// A logger whose destructor never returns (LOG(FATAL) of glog-style
// libraries) ends the path, as for every family; the count test needs the
// flow analysis. A logger that returns proves nothing.
struct FatalLogger {
  FatalLogger(const char *file, int line);
  ~FatalLogger();
};
struct InfoLogger {
  InfoLogger(const char *file, int line);
  ~InfoLogger();
};
[[noreturn]] void abort_now();
inline FatalLogger::~FatalLogger() { abort_now(); }
inline InfoLogger::~InfoLogger() {}

void fatal_log(const Array &a) {
  int n = a.num_devices();
  if (n != 1)
    FatalLogger(__FILE__, __LINE__);
  consume(to_dlpack(a));
}

void info_log(const Array &a) {
  int n = a.num_devices();
  if (n != 1)
    InfoLogger(__FILE__, __LINE__);
  consume(to_dlpack(a));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-6]]:28: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}
