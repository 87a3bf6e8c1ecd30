// interop_shim.Device: an immutable value wrapping interop::Device, with
// JAX's attribute names (platform, id, process_index, local_hardware_id) and
// is_addressable.
#include "shim_python.h"

#include <new>

namespace interop {
namespace python {

namespace {

struct DeviceObject {
  PyObject_HEAD Device device;
};

const Device &device_of(PyObject *self) {
  return reinterpret_cast<DeviceObject *>(self)->device;
}

void device_dealloc(PyObject *self) {
  reinterpret_cast<DeviceObject *>(self)->device.~Device();
  Py_TYPE(self)->tp_free(self);
}

PyObject *device_repr(PyObject *self) {
  return PyUnicode_FromString(device_of(self).to_string().c_str());
}

Py_hash_t device_hash(PyObject *self) {
  Py_hash_t h = static_cast<Py_hash_t>(std::hash<Device>()(device_of(self)));
  return h == -1 ? -2 : h; // -1 means "error" to CPython
}

PyObject *device_richcompare(PyObject *a, PyObject *b, int op) {
  if (!is_device(a) || !is_device(b) || (op != Py_EQ && op != Py_NE))
    Py_RETURN_NOTIMPLEMENTED;
  bool equal = device_of(a) == device_of(b);
  return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

PyObject *get_platform(PyObject *self, void *) {
  return PyUnicode_FromString(platform_name(device_of(self).platform()));
}
PyObject *get_id(PyObject *self, void *) {
  return PyLong_FromLong(device_of(self).id());
}
PyObject *get_process_index(PyObject *self, void *) {
  return PyLong_FromLong(device_of(self).process_index());
}
PyObject *get_local_hardware_id(PyObject *self, void *) {
  return PyLong_FromLong(device_of(self).local_hardware_id());
}
PyObject *get_is_addressable(PyObject *self, void *) {
  return PyBool_FromLong(device_of(self).is_addressable());
}

PyGetSetDef device_getset[] = {
    {"platform", get_platform, nullptr, "'cpu', 'cuda' or 'tpu'.", nullptr},
    {"id", get_id, nullptr, "Global id, unique per platform.", nullptr},
    {"process_index", get_process_index, nullptr,
     "The process that owns the device.", nullptr},
    {"local_hardware_id", get_local_hardware_id, nullptr,
     "Index within its process; DLPack's device_id.", nullptr},
    {"is_addressable", get_is_addressable, nullptr,
     "True when this process owns the device.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

} // namespace

PyTypeObject DeviceType = []() noexcept {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "interop_shim.Device";
  t.tp_basicsize = sizeof(DeviceObject);
  t.tp_dealloc = device_dealloc;
  t.tp_repr = device_repr;
  t.tp_hash = device_hash;
  t.tp_richcompare = device_richcompare;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "A device of the configured topology (see configure()). "
             "Obtained from devices() and local_devices(); not constructible.";
  t.tp_getset = device_getset;
  return t;
}();

PyObject *wrap_device(const Device &device) {
  auto *self = PyObject_New(DeviceObject, &DeviceType);
  if (!self)
    return nullptr;
  new (&self->device) Device(device);
  return reinterpret_cast<PyObject *>(self);
}

const Device &unwrap_device(PyObject *obj) { return device_of(obj); }

PyObject *device_list(const std::vector<Device> &devices) {
  PyObject *list = PyList_New(static_cast<Py_ssize_t>(devices.size()));
  if (!list)
    return nullptr;
  for (size_t i = 0; i < devices.size(); ++i) {
    PyObject *d = wrap_device(devices[i]);
    if (!d) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), d);
  }
  return list;
}

} // namespace python
} // namespace interop
