// Self-written minimal stand-in for <glog/logging.h> (not glog's code): the
// LOG/VLOG stream macros the xLLM sources use, for tools/realworld/run.py only.
// LOG(FATAL) ends the program, as in glog.
#pragma once
#include <cstdlib>

namespace realworld_glog_stub {
struct Stream {
  template <class T>
  Stream &operator<<(const T &) { return *this; }
};
struct FatalStream {
  template <class T>
  FatalStream &operator<<(const T &) { return *this; }
  [[noreturn]] ~FatalStream() { std::abort(); }
};
}  // namespace realworld_glog_stub

#define REALWORLD_GLOG_INFO ::realworld_glog_stub::Stream()
#define REALWORLD_GLOG_WARNING ::realworld_glog_stub::Stream()
#define REALWORLD_GLOG_ERROR ::realworld_glog_stub::Stream()
#define REALWORLD_GLOG_FATAL ::realworld_glog_stub::FatalStream()
#define LOG(severity) REALWORLD_GLOG_##severity
#define VLOG(level) ::realworld_glog_stub::Stream()
