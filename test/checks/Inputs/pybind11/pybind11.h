// Mock of the part of pybind11's capsule API the DLPack checks model: a
// capsule made from a pointer, a name and a destructor of the PyObject (or
// of the pointer alone, which pybind11 calls whatever the name), and
// its consumer side: get_pointer(), the conversion to a pointer (which
// reads under the current name, as get_pointer() does), name(), set_name().
#pragma once
#include <Python.h>
namespace pybind11 {
class object {
public:
  PyObject *ptr() const;
  object attr(const char *name) const;
  object operator()() const;
  template <typename T> T cast() const;
};
class capsule : public object {
public:
  capsule();
  capsule(const void *value, const char *name = nullptr,
          void (*destructor)(PyObject *) = nullptr);
  capsule(const void *value, void (*destructor)(void *));
  capsule(const void *value, const char *name, void (*destructor)(void *));
  template <typename T = void> T *get_pointer() const;
  template <typename T> operator T *() const;
  const char *name() const;
  void set_name(const char *new_name);
};
} // namespace pybind11
