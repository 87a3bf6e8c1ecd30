// Mock of the part of pybind11's capsule API the DLPack checks model: a
// capsule made from a pointer, a name and a destructor of the PyObject (or
// of the pointer alone, which pybind11 calls whatever the name), and
// its consumer side: get_pointer(), the conversion to a pointer (which
// reads under the current name, as get_pointer() does), name(), set_name();
// and attribute calls (`obj.attr("__dlpack__")(args...)`).
#pragma once
#include <Python.h>
namespace pybind11 {
class object {
public:
  object();
  object(const object &);
  ~object();
  object &operator=(const object &);
  PyObject *ptr() const;
  object attr(const char *name) const;
  template <typename... Args> object operator()(Args &&...args) const;
  template <typename T> T cast() const;
  bool is_none() const;
  explicit operator bool() const;
};
object getattr(const object &obj, const char *name);
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
