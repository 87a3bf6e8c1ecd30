"""The DLPack ABI in ctypes, for tests that must see or forge raw structs.

Two uses: reading what a capsule holds (version, flags, device, strides) and
forging producers whose deleter counts its calls, so that tests can prove a
deleter runs exactly once and only when it should.
"""

import ctypes
from ctypes import (CFUNCTYPE, POINTER, PYFUNCTYPE, Structure, c_char_p,
                    c_int, c_int32, c_int64, c_uint8, c_uint16, c_uint32,
                    c_uint64, c_void_p)

READ_ONLY = 1 << 0
IS_COPIED = 1 << 1

kDLCPU = 1
kDLCUDA = 2
kDLVulkan = 7
kDLTPUHost = 20


class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32),
                ("dtype", DLDataType), ("shape", POINTER(c_int64)),
                ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class DLManagedTensor(Structure):
    # The deleter is kept as a raw pointer so that tests can read, clear and
    # restore it.
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p),
                ("deleter", c_void_p)]


class DLPackVersion(Structure):
    _fields_ = [("major", c_uint32), ("minor", c_uint32)]


class DLManagedTensorVersioned(Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", c_void_p),
                ("deleter", c_void_p), ("flags", c_uint64),
                ("dl_tensor", DLTensor)]


assert ctypes.sizeof(DLTensor) == 48
assert ctypes.sizeof(DLManagedTensor) == 64
assert ctypes.sizeof(DLManagedTensorVersioned) == 80

# A deleter called through this type runs with the GIL released, the way a
# C or C++ consumer calls it.
DELETER = CFUNCTYPE(None, c_void_p)
_DESTRUCTOR = CFUNCTYPE(None, c_void_p)

# Capsule API on raw PyObject* (id() of a capsule is its address in CPython).
_api = ctypes.pythonapi
_get_name = PYFUNCTYPE(c_char_p, c_void_p)(("PyCapsule_GetName", _api))
_get_pointer = PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(
    ("PyCapsule_GetPointer", _api))
_set_name = PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_SetName", _api))
_capsule_new = PYFUNCTYPE(ctypes.py_object, c_void_p, c_char_p, c_void_p)(
    ("PyCapsule_New", _api))
_is_valid = PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))

# Capsule names must outlive their capsules.
_NAMES = {name: ctypes.create_string_buffer(name.encode())
          for name in ("dltensor", "dltensor_versioned", "used_dltensor",
                       "used_dltensor_versioned")}


def data_pointer(x):
    """The address of the first element of a NumPy array or torch tensor."""
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    return x.__array_interface__["data"][0]


def capsule_name(capsule):
    return _get_name(id(capsule)).decode()


def managed(capsule):
    """The DLManagedTensor(Versioned) a capsule holds, viewed in place."""
    name = capsule_name(capsule)
    pointer = _get_pointer(id(capsule), name.encode())
    versioned = name.endswith("dltensor_versioned")
    kind = DLManagedTensorVersioned if versioned else DLManagedTensor
    return kind.from_address(pointer)


def take_ownership(capsule):
    """Renames a capsule to its used_ name, as a consumer does, and returns
    its struct: the caller must now call the deleter."""
    name = capsule_name(capsule)
    assert not name.startswith("used_")
    struct = managed(capsule)
    assert _set_name(id(capsule), _NAMES["used_" + name]) == 0
    return struct


def call_deleter(struct):
    """Calls a struct's deleter like a C consumer (GIL released)."""
    DELETER(struct.deleter)(ctypes.addressof(struct))


def tensor_shape(struct):
    t = struct.dl_tensor
    return tuple(t.shape[i] for i in range(t.ndim))


def tensor_strides(struct):
    t = struct.dl_tensor
    if not t.strides:
        return None
    return tuple(t.strides[i] for i in range(t.ndim))


@_DESTRUCTOR
def _producer_destructor(capsule_address):
    # What every producer's capsule destructor does: release the tensor only
    # while no consumer has taken it.
    name = _get_name(capsule_address)
    if name not in (b"dltensor", b"dltensor_versioned"):
        return
    pointer = _get_pointer(capsule_address, name)
    kind = DLManagedTensorVersioned if name == b"dltensor_versioned" \
        else DLManagedTensor
    struct = kind.from_address(pointer)
    if struct.deleter:
        DELETER(struct.deleter)(pointer)


_keep_alive = []  # forged producers live as long as the test process


class ForgedTensor:
    """A producer built from ctypes over a NumPy array's memory.

    Every field can be set to anything, including values a real producer
    would never send. `deleted` counts deleter calls.
    """

    def __init__(self, array, *, versioned=True, version=(1, 1), device=None,
                 dtype=None, shape=None, strides="auto", byte_offset=0,
                 flags=0, ndim=None, null_deleter=False, data=None,
                 on_delete=None):
        self.array = array
        self.deleted = 0
        self.on_delete = on_delete
        itemsize = array.itemsize
        if shape is None:
            shape = array.shape
        if strides == "auto":
            strides = tuple(s // itemsize for s in array.strides)
        if dtype is None:
            dtype = {"f": 2, "i": 0, "u": 1, "c": 5, "b": 6}[array.dtype.kind], \
                array.itemsize * 8, 1
        self._shape = (c_int64 * max(len(shape), 1))(*shape)
        self._strides = None if strides is None else \
            (c_int64 * max(len(strides), 1))(*strides)
        self.struct = (DLManagedTensorVersioned if versioned
                       else DLManagedTensor)()
        t = self.struct.dl_tensor
        t.data = array.__array_interface__["data"][0] if data is None else data
        t.device.device_type, t.device.device_id = device or (kDLCPU, 0)
        t.ndim = len(shape) if ndim is None else ndim
        t.dtype.code, t.dtype.bits, t.dtype.lanes = dtype
        t.shape = self._shape
        t.strides = self._strides
        t.byte_offset = byte_offset
        if versioned:
            self.struct.version.major, self.struct.version.minor = version
            self.struct.flags = flags
        self._deleter = DELETER(self._on_delete)
        if not null_deleter:
            self.struct.deleter = ctypes.cast(self._deleter, c_void_p).value
        _keep_alive.append(self)

    def _on_delete(self, address):
        assert address == ctypes.addressof(self.struct)
        self.deleted += 1
        if self.on_delete:
            self.on_delete()

    def capsule(self):
        name = "dltensor_versioned" if isinstance(
            self.struct, DLManagedTensorVersioned) else "dltensor"
        return _capsule_new(ctypes.addressof(self.struct), _NAMES[name],
                            ctypes.cast(_producer_destructor, c_void_p).value)


class Producer:
    """An object speaking the Python protocol with a forged capsule."""

    def __init__(self, forged, dlpack_device=None):
        self.forged = forged
        self.dlpack_device = dlpack_device or (
            forged.struct.dl_tensor.device.device_type,
            forged.struct.dl_tensor.device.device_id)
        self.calls = []

    def __dlpack__(self, **kwargs):
        self.calls.append(kwargs)
        return self.forged.capsule()

    def __dlpack_device__(self):
        return self.dlpack_device

    def __str__(self):
        return "Producer(forged)"
