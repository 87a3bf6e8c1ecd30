// Self-written minimal stand-in for <boost/python.hpp> (interop-tidy realworld stubs):
// only the declarations template-tensors' DLPack capsule helpers use (handle<> and
// object around a PyObject *). Not Boost's code.
#pragma once
#include <Python.h>

namespace boost {
namespace python {

template <class T = PyObject>
class handle {
public:
  explicit handle(T *p);  // Boost throws error_already_set when p is NULL
  T *get() const;
};

class object {
public:
  object();
  explicit object(handle<> const &h);
  PyObject *ptr() const;
};

} // namespace python
} // namespace boost
