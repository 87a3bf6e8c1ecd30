"""The PyCapsule protocol: names, negotiation, ownership and deleters.

Forged producers (dlpack_ctypes.ForgedTensor) count their deleter calls, so
each ownership path is checked for "exactly once, and only then".
"""

import gc
import os
import sys
import threading

import numpy as np
import pytest

from dlpack_ctypes import (ForgedTensor, Producer, READ_ONLY, call_deleter,
                           capsule_name, data_pointer, managed,
                           take_ownership, tensor_shape, tensor_strides)


# ---- negotiation ----------------------------------------------------------

@pytest.mark.parametrize("max_version, name", [
    (None, "dltensor"),
    ((0, 8), "dltensor"),
    ((1, 0), "dltensor_versioned"),
    ((1, 1), "dltensor_versioned"),
    ((1, 7), "dltensor_versioned"),
    ((2, 0), "dltensor_versioned"),
])
def test_export_capsule_kind_follows_max_version(shim, max_version, name):
    x = shim.device_put(np.arange(6.0).reshape(2, 3))
    cap = x.__dlpack__(max_version=max_version)
    assert capsule_name(cap) == name
    struct = managed(cap)
    if name == "dltensor_versioned":
        # Never newer than what the consumer said it reads, and the consumer
        # can check: the version is this runtime's own.
        assert (struct.version.major, struct.version.minor) == \
            tuple(shim.DLPACK_VERSION)
    assert tensor_shape(struct) == (2, 3)
    assert tensor_strides(struct) == (3, 1)
    assert struct.dl_tensor.byte_offset == 0
    assert struct.dl_tensor.data == x.unsafe_buffer_pointer()


def test_no_argument_export_is_legacy_like_numpys(shim):
    x = shim.device_put(np.ones(3))
    assert capsule_name(x.__dlpack__()) == "dltensor"


@pytest.mark.parametrize("kwargs, error", [
    ({"max_version": 1}, TypeError),
    ({"max_version": (1,)}, TypeError),
    ({"max_version": (-1, 0)}, ValueError),
    ({"dl_device": 1}, TypeError),
    ({"copy": 1}, TypeError),
    ({"stream": "default"}, TypeError),
    ({"unknown": None}, TypeError),
])
def test_export_argument_errors(shim, kwargs, error):
    x = shim.device_put(np.ones(3))
    with pytest.raises(error):
        x.__dlpack__(**kwargs)
    with pytest.raises(TypeError, match="positional"):
        x.__dlpack__(None)


def test_cpu_export_refuses_a_stream(shim):
    x = shim.device_put(np.ones(3))
    with pytest.raises(BufferError, match="stream"):
        x.__dlpack__(stream=1)
    x.__dlpack__(stream=None)


def test_unsupported_dl_device_request_is_a_buffer_error(shim):
    x = shim.device_put(np.ones(3))
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(7, 0))
    cap = x.__dlpack__(max_version=(1, 1), dl_device=(1, 0))
    assert managed(cap).dl_tensor.data == x.unsafe_buffer_pointer()


def test_consumer_asks_for_versioned_and_falls_back_once_per_type(shim):
    attempts = []

    class OldProducer:  # like NumPy 1.24 and torch 1.13
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None, **kwargs):
            attempts.append(dict(kwargs))
            if kwargs:
                raise TypeError(
                    "__dlpack__() got an unexpected keyword argument "
                    "'max_version'")
            return self.array.__dlpack__()

        def __dlpack_device__(self):
            return (1, 0)

    source = np.arange(3.0)
    x = shim.from_dlpack(OldProducer(source))
    assert attempts == [{"max_version": tuple(shim.DLPACK_VERSION)}, {}]
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    attempts.clear()
    shim.from_dlpack(OldProducer(source))
    assert attempts == [{}]  # the TypeError is paid once per type


def test_consumer_gets_versioned_from_a_versioned_producer(shim):
    source = np.arange(4.0)
    forged = ForgedTensor(source, versioned=True, flags=READ_ONLY)
    producer = Producer(forged)
    x = shim.from_dlpack(producer)
    assert producer.calls == [{"max_version": tuple(shim.DLPACK_VERSION)}]
    assert x.read_only  # the flag was read from the versioned struct
    np.testing.assert_array_equal(np.asarray(x), source)


def test_shim_to_shim_exchange_is_versioned(shim):
    seen = []

    class Spy:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, **kwargs):
            cap = self.array.__dlpack__(**kwargs)
            seen.append(capsule_name(cap))
            return cap

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

    x = shim.device_put(np.arange(5, dtype=np.int16))
    y = shim.from_dlpack(Spy(x))
    assert seen == ["dltensor_versioned"]
    assert y.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()


# ---- consumer ownership ---------------------------------------------------

def test_zero_copy_import_renames_and_defers_the_deleter(shim):
    source = np.arange(6.0)
    forged = ForgedTensor(source)
    cap = forged.capsule()
    x = shim.from_dlpack(cap)
    assert capsule_name(cap) == "used_dltensor_versioned"
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    del cap
    assert forged.deleted == 0  # the array still uses the memory
    np.testing.assert_array_equal(np.asarray(x), source)
    del x
    assert forged.deleted == 1


def test_copying_import_releases_the_producer_at_once(shim):
    source = np.arange(12.0).reshape(3, 4)
    forged = ForgedTensor(source, shape=(3, 2), strides=(4, 2))  # gapped
    cap = forged.capsule()
    x = shim.from_dlpack(cap)
    assert forged.deleted == 1
    assert capsule_name(cap) == "used_dltensor_versioned"
    del cap
    assert forged.deleted == 1
    np.testing.assert_array_equal(np.asarray(x), source[:, ::2])


@pytest.mark.parametrize("versioned", [True, False])
def test_failed_import_leaves_the_capsule_owning_its_tensor(shim, versioned):
    source = np.arange(4, dtype=np.float32)
    forged = ForgedTensor(source, versioned=versioned, dtype=(2, 32, 4))
    cap = forged.capsule()
    with pytest.raises(ValueError, match="lanes"):
        shim.from_dlpack(cap)
    # Not renamed, not released: the capsule still owns the tensor...
    assert not capsule_name(cap).startswith("used_")
    assert forged.deleted == 0
    # ...and its own destructor releases it, once.
    del cap
    assert forged.deleted == 1


def test_capsule_refused_by_a_device_check_can_still_be_imported(topology):
    shim = topology(cpu_devices=1, process_count=2, process_index=0)
    remote = [d for d in shim.devices() if not d.is_addressable][0]
    source = np.arange(3.0)
    forged = ForgedTensor(source)
    cap = forged.capsule()
    with pytest.raises(RuntimeError):
        shim.from_dlpack(cap, device=remote)
    assert capsule_name(cap) == "dltensor_versioned" and forged.deleted == 0
    x = shim.from_dlpack(cap, device=shim.local_devices()[0])
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    del x, cap
    assert forged.deleted == 1


def test_other_major_version_is_refused_without_reading_the_tensor(shim):
    source = np.arange(3.0)
    # Every field past the frozen header is garbage: reading any of them
    # would crash or misreport.
    forged = ForgedTensor(source, version=(2, 0), ndim=-7, data=0x10,
                          shape=(1 << 62,), dtype=(99, 3, 9))
    forged.struct.dl_tensor.shape = None
    cap = forged.capsule()
    with pytest.raises(BufferError, match="version"):
        shim.from_dlpack(cap)
    assert forged.deleted == 0 and capsule_name(cap) == "dltensor_versioned"
    del cap
    assert forged.deleted == 1


def test_byte_offset_and_null_strides_are_honoured(shim):
    source = np.arange(10.0)
    forged = ForgedTensor(source, shape=(2, 3), strides=None, byte_offset=16)
    x = shim.from_dlpack(forged.capsule())
    np.testing.assert_array_equal(np.asarray(x),
                                  np.arange(2.0, 8.0).reshape(2, 3))
    assert x.unsafe_buffer_pointer() == data_pointer(source) + 16


def test_null_deleter_is_tolerated_by_the_consumer(shim):
    source = np.arange(3.0)
    forged = ForgedTensor(source, null_deleter=True)
    x = shim.from_dlpack(forged.capsule())
    np.testing.assert_array_equal(np.asarray(x), source)
    del x
    gc.collect()


def test_capsule_consumed_twice(shim):
    x = shim.device_put(np.arange(3.0))
    for max_version in (None, (1, 1)):
        cap = x.__dlpack__(max_version=max_version)
        shim.from_dlpack(cap)
        used = "used_" + ("dltensor" if max_version is None
                          else "dltensor_versioned")
        assert capsule_name(cap) == used
        with pytest.raises(ValueError, match="already consumed"):
            shim.from_dlpack(cap)


def test_foreign_capsule_names_are_refused(shim):
    import ctypes
    cap = ctypes.pythonapi.PyCapsule_New
    cap.restype = ctypes.py_object
    cap.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    name = ctypes.create_string_buffer(b"not_a_tensor")
    foreign = cap(ctypes.addressof(name), name, None)
    with pytest.raises(ValueError, match='"not_a_tensor"'):
        shim.from_dlpack(foreign)


# ---- producer ownership ---------------------------------------------------

def _chained(shim, source, **forged_kwargs):
    """A shim array that zero-copy views a forged producer, so that the
    forged deleter runs exactly when the shim releases the last export."""
    forged = ForgedTensor(source, **forged_kwargs)
    return forged, shim.from_dlpack(forged.capsule())


@pytest.mark.parametrize("max_version", [None, (1, 1)])
def test_unconsumed_export_is_released_by_the_capsule(shim, max_version):
    forged, x = _chained(shim, np.arange(4.0))
    cap = x.__dlpack__(max_version=max_version)
    del x
    assert forged.deleted == 0  # the export keeps the memory alive
    del cap
    assert forged.deleted == 1


def test_consumed_export_is_not_released_by_the_capsule(shim):
    forged, x = _chained(shim, np.arange(4.0))
    cap = x.__dlpack__(max_version=(1, 1))
    struct = take_ownership(cap)  # a C consumer takes it
    del x, cap
    assert forged.deleted == 0
    call_deleter(struct)
    assert forged.deleted == 1


def test_export_destructor_tolerates_a_null_deleter(shim):
    x = shim.device_put(np.arange(4.0))
    cap = x.__dlpack__(max_version=(1, 1))
    struct = managed(cap)
    saved = struct.deleter
    struct.deleter = None
    del cap  # must not call through NULL
    struct.deleter = saved
    call_deleter(struct)  # and the export is still releasable exactly once


class HandOff:
    """A producer that gives its only reference to the array away with the
    capsule, so that the capsule's death releases everything."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        array, self.array = self.array, None
        return array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return (1, 0)


def test_export_destructor_preserves_an_exception_in_flight(shim):
    handled = []

    def python_work_in_the_deleter():
        # Raising and handling an exception here clears the error indicator:
        # without PyErr_Fetch/Restore around the deleter, the error that is
        # propagating when the capsule dies would be lost.
        try:
            raise ValueError("inside the deleter")
        except ValueError:
            handled.append(True)

    forged = ForgedTensor(np.arange(4.0),
                          on_delete=python_work_in_the_deleter)
    arrays = [shim.from_dlpack(forged.capsule())]

    def key(i):
        if i == 0:  # the only reference to the export: sort's key array
            return arrays.pop().__dlpack__(max_version=(1, 1))
        raise KeyError("propagating")

    # sorted() releases the keys it computed while the key function's error
    # is set: the shim's capsule destructor runs the deleter chain down to
    # the forged producer with the KeyError in flight.
    with pytest.raises(KeyError, match="propagating"):
        sorted([0, 1], key=key)
    assert forged.deleted == 1 and handled == [True]


def test_failed_import_releases_the_producer_before_raising(topology):
    shim = topology(cpu_devices=1, process_count=2)
    remote = [d for d in shim.devices() if not d.is_addressable][0]
    forged = ForgedTensor(np.arange(4.0))
    producer = HandOff(shim.from_dlpack(forged.capsule()))
    # The import fails (another process's device); the unconsumed capsule
    # the producer returned is released, and with it the forged tensor.
    with pytest.raises(RuntimeError, match=r"^DLPack is only supported for "
                       r"devices addressable by the current process\.$"):
        shim.from_dlpack(producer, device=remote)
    assert forged.deleted == 1


def test_deleter_called_without_the_gil_on_another_thread(shim):
    # The read-only NumPy array is imported through the buffer protocol, so
    # the last release of the export drops a Py_buffer: a Python operation
    # that the deleter must do under the GIL even when its caller is a C
    # thread that does not hold it.
    source = np.arange(1000.0)
    source.flags.writeable = False
    refs = sys.getrefcount(source)
    x = shim.from_dlpack(source)
    assert sys.getrefcount(source) > refs
    cap = x.__dlpack__(max_version=(1, 1))
    struct = take_ownership(cap)
    del x, cap
    errors = []

    def consumer_thread():
        try:
            call_deleter(struct)  # ctypes releases the GIL for the call
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    thread = threading.Thread(target=consumer_thread)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive() and not errors
    assert sys.getrefcount(source) == refs


# ---- leaks ----------------------------------------------------------------

# ASan keeps freed memory in quarantine, so RSS is no measure of leaks
# there; the counters and reference counts still are.
SANITIZED = bool(os.environ.get("INTEROP_SHIM_SANITIZED"))


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_20000_unconsumed_capsules_are_released(shim):
    block = np.zeros(2048, dtype=np.float32)  # 8 KiB per array
    for _ in range(2000):  # warm the allocators
        shim.device_put(block).__dlpack__()
    stats = shim._capsule_stats()
    rss = _rss_bytes()
    for i in range(20000):
        # A fresh array each time: a leaked capsule would keep its 8 KiB
        # alive, 160 MiB in all.
        x = shim.device_put(block)
        cap = x.__dlpack__(max_version=(1, 1) if i % 2 else None)
        del x, cap
    growth = _rss_bytes() - rss
    after = shim._capsule_stats()
    assert after["exported"] - stats["exported"] == 20000
    assert after["released_unconsumed"] - stats["released_unconsumed"] == \
        20000
    assert SANITIZED or growth < 16 << 20, f"RSS grew by {growth} bytes"


def test_20000_imports_release_the_producer_every_time(shim):
    source = np.arange(256.0)
    refs = sys.getrefcount(source)
    rss = _rss_bytes()
    for _ in range(20000):
        x = shim.from_dlpack(source)
        del x
    # NumPy's deleter drops its reference to the array: any missed deleter
    # call would show here.
    assert sys.getrefcount(source) == refs
    assert SANITIZED or _rss_bytes() - rss < 16 << 20
