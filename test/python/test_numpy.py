"""Exchange with Debian's NumPy (1.24), in both directions, zero-copy.

NumPy 1.x speaks only the legacy protocol; NumPy 2 negotiates the versioned
one. The assertions that differ say which version they describe, so that the
suite also runs where NumPy 2 is installed.
"""

import numpy as np
import pytest

NUMPY2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"

from dlpack_ctypes import (IS_COPIED, READ_ONLY, capsule_name, data_pointer,
                           managed, tensor_shape, tensor_strides)

DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32,
          np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.complex64,
          np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_consumes_shim_array_zero_copy(shim, dtype):
    source = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    x = shim.device_put(source)
    assert x.dtype == np.dtype(dtype)
    out = np.from_dlpack(x)
    assert data_pointer(out) == x.unsafe_buffer_pointer()
    assert out.dtype == np.dtype(dtype) and out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out, source)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_shim_consumes_numpy_zero_copy(shim, dtype):
    source = (np.arange(24) % 5).astype(dtype).reshape(4, 6)
    x = shim.from_dlpack(source)
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    assert x.shape == (4, 6) and x.dtype == np.dtype(dtype)
    assert x.devices() == {shim.local_devices("cpu")[0]}
    np.testing.assert_array_equal(np.asarray(x), source)


def test_zero_copy_import_shares_memory_and_keeps_producer_alive(shim):
    import sys
    source = np.arange(8.0)
    refs = sys.getrefcount(source)
    x = shim.from_dlpack(source)
    # NumPy's export holds a reference to the array until its deleter runs.
    assert sys.getrefcount(source) == refs + 1
    source[3] = 42.0  # the import is a view, as DLPack promises
    assert np.asarray(x)[3] == 42.0
    del x
    assert sys.getrefcount(source) == refs


def test_numpy_view_outlives_shim_array(shim):
    x = shim.device_put(np.arange(1000, dtype=np.int32))
    view = np.from_dlpack(x)
    del x
    np.testing.assert_array_equal(view, np.arange(1000, dtype=np.int32))


def test_negative_strides_are_copied_into_row_major(shim):
    base = np.arange(12.0).reshape(3, 4)
    source = base[::-1, ::2]
    x = shim.from_dlpack(source)
    assert x.unsafe_buffer_pointer() != data_pointer(source)
    np.testing.assert_array_equal(np.asarray(x), source)
    # And the shim's own export of it is compact row-major.
    cap = x.__dlpack__(max_version=(1, 1))
    assert tensor_strides(managed(cap)) == (2, 1)


def test_negative_strides_with_copy_false_name_the_strides(shim):
    source = np.arange(12.0).reshape(3, 4)[::-1, ::2]
    with pytest.raises(BufferError, match=r"strides \(-4, 2\)"):
        shim.from_dlpack(source, copy=False)


def test_transposed_and_broadcast_sources(shim):
    base = np.arange(6, dtype=np.int16).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(shim.from_dlpack(base.T)),
                                  base.T)
    broadcast = np.broadcast_to(np.arange(3.0), (4, 3))  # stride 0, read-only
    np.testing.assert_array_equal(np.asarray(shim.from_dlpack(broadcast)),
                                  broadcast)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 5)])
def test_zero_size_arrays_both_ways(shim, shape):
    source = np.zeros(shape, dtype=np.float32)
    x = shim.from_dlpack(source)
    assert x.shape == shape and x.size == 0
    back = np.from_dlpack(x)
    assert back.shape == shape and back.dtype == np.float32
    placed = shim.device_put(source)
    assert np.from_dlpack(placed).shape == shape


def test_zero_d_arrays_both_ways(shim):
    source = np.array(3.5)
    x = shim.from_dlpack(source)
    assert x.shape == () and x.ndim == 0 and x.size == 1
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    back = np.from_dlpack(x)
    assert back.shape == () and back == 3.5
    assert data_pointer(back) == x.unsafe_buffer_pointer()
    cap = shim.device_put(np.int32(7)).__dlpack__(max_version=(1, 1))
    assert managed(cap).dl_tensor.ndim == 0


def test_read_only_source_is_imported_zero_copy_and_stays_read_only(shim):
    source = np.arange(6.0).reshape(2, 3)
    source.flags.writeable = False
    # NumPy 1.24 itself refuses: the legacy struct cannot say "read-only".
    with pytest.raises(BufferError):
        source.__dlpack__()
    x = shim.from_dlpack(source)
    assert x.read_only
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    np.testing.assert_array_equal(np.asarray(x), source)

    versioned = x.__dlpack__(max_version=(1, 0))
    assert capsule_name(versioned) == "dltensor_versioned"
    struct = managed(versioned)
    assert struct.flags & READ_ONLY
    assert struct.dl_tensor.data == data_pointer(source)

    # A legacy consumer cannot be told, so it gets a copy, or an error when
    # it forbids copies.
    with pytest.raises(BufferError, match="read-only"):
        x.__dlpack__(copy=False)
    out = np.from_dlpack(x)
    np.testing.assert_array_equal(out, source)
    if NUMPY2:  # asks for the versioned struct: a read-only view
        assert data_pointer(out) == data_pointer(source)
        assert not out.flags.writeable
    else:  # legacy only: a copy
        assert data_pointer(out) != data_pointer(source)


def test_read_only_flag_survives_a_shim_to_shim_hop(shim):
    source = np.arange(4, dtype=np.int64)
    source.flags.writeable = False
    x = shim.from_dlpack(source)
    y = shim.from_dlpack(x)  # negotiated as versioned, so READ_ONLY travels
    assert y.read_only
    assert y.unsafe_buffer_pointer() == data_pointer(source)


def test_writable_source_export_has_no_flags_and_copy_sets_is_copied(shim):
    x = shim.device_put(np.arange(5.0))
    plain = managed(x.__dlpack__(max_version=(1, 1)))
    assert plain.flags == 0
    assert plain.dl_tensor.data == x.unsafe_buffer_pointer()
    copied = managed(x.__dlpack__(max_version=(1, 1), copy=True))
    assert copied.flags & IS_COPIED
    assert copied.dl_tensor.data != x.unsafe_buffer_pointer()


def test_bool_arrays_from_numpy_through_the_buffer_protocol(shim):
    source = np.array([True, False, True, True])
    if not NUMPY2:
        with pytest.raises(BufferError):  # NumPy 1.x: no bool over DLPack
            source.__dlpack__()
    x = shim.from_dlpack(source)
    assert x.dtype == np.bool_
    assert x.unsafe_buffer_pointer() == data_pointer(source)
    np.testing.assert_array_equal(np.asarray(x), source)
    versioned = managed(x.__dlpack__(max_version=(1, 1)))
    assert (versioned.dl_tensor.dtype.code, versioned.dl_tensor.dtype.bits) \
        == (6, 8)


def test_array_protocol_gives_numpy_a_copy(shim):
    x = shim.device_put(np.arange(6, dtype=np.int32).reshape(2, 3))
    out = np.asarray(x)
    assert out.dtype == np.int32 and out.shape == (2, 3)
    assert data_pointer(out) != x.unsafe_buffer_pointer()
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64),
                                  np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match="copy"):
        x.__array__(copy=False)


def test_tpu_pinned_host_hands_numpy_a_cpu_view_when_asked(shim):
    tpu = shim.local_devices("tpu")[1]
    source = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = shim.device_put(source, tpu, memory_kind="pinned_host")
    assert x.memory_kind == "pinned_host" and x.platform == "tpu"
    assert x.__dlpack_device__() == (20, tpu.local_hardware_id)

    # NumPy does not know kDLTPUHost...
    with pytest.raises((RuntimeError, BufferError), match="nsupported device"):
        np.from_dlpack(x)
    if NUMPY2:  # ...and NumPy 2 asks for dl_device=(kDLCPU, 0) on request
        view = np.from_dlpack(x, device="cpu")
        assert data_pointer(view) == x.unsafe_buffer_pointer()
        np.testing.assert_array_equal(view, source)

    # NumPy 1.x never asks for a device: make the request NumPy 2 makes.
    class CpuRequest:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None):
            return self.array.__dlpack__(stream=stream, dl_device=(1, 0))

        def __dlpack_device__(self):
            return (1, 0)

    view = np.from_dlpack(CpuRequest(x))
    assert data_pointer(view) == x.unsafe_buffer_pointer()  # zero-copy
    np.testing.assert_array_equal(view, source)

    versioned = managed(x.__dlpack__(max_version=(1, 1), dl_device=(1, 0)))
    assert versioned.dl_tensor.device.device_type == 1
    assert versioned.dl_tensor.data == x.unsafe_buffer_pointer()
    native = managed(x.__dlpack__(max_version=(1, 1)))
    assert (native.dl_tensor.device.device_type,
            native.dl_tensor.device.device_id) == (20, tpu.local_hardware_id)


def test_tpu_pinned_host_round_trips_through_the_shim(shim):
    tpu = shim.local_devices("tpu")[0]
    x = shim.device_put(np.arange(4.0), tpu, memory_kind="pinned_host")
    y = shim.from_dlpack(x)
    assert y.devices() == {tpu} and y.memory_kind == "pinned_host"
    assert y.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()


def test_device_put_copies_numpy_and_split_shards_hold_blocks(shim):
    source = np.arange(16, dtype=np.int32).reshape(4, 4)
    x = shim.device_put(source)
    assert x.unsafe_buffer_pointer() != data_pointer(source)
    source_copy = source.copy()
    source[0, 0] = -1  # the placed array does not alias its source
    np.testing.assert_array_equal(np.asarray(x), source_copy)

    cpus = shim.local_devices("cpu")
    rows = shim.device_put(source_copy, cpus, axis=0)
    cols = shim.device_put(source_copy, cpus, axis=-1)
    np.testing.assert_array_equal(np.asarray(rows.addressable_data(1)),
                                  source_copy[2:])
    np.testing.assert_array_equal(np.asarray(cols.addressable_data(0)),
                                  source_copy[:, :2])
    np.testing.assert_array_equal(np.asarray(cols), source_copy)
    replicated = shim.device_put(source_copy, cpus, axis=None)
    assert replicated.is_fully_replicated and not replicated.is_single_device
    for i in range(2):
        np.testing.assert_array_equal(
            np.asarray(replicated.addressable_data(i)), source_copy)


@pytest.mark.skipif(NUMPY2, reason="describes NumPy 1.x")
def test_what_numpy_124_passes_to_a_producer(shim):
    # NumPy 1.24's np.from_dlpack calls __dlpack__() with no arguments (so
    # the legacy struct) and never asks __dlpack_device__: it reads the
    # device from the struct. The shim's defaults must serve exactly this.
    calls = []
    x = shim.device_put(np.arange(3.0))

    class Spy:
        def __dlpack__(self, *args, **kwargs):
            calls.append(("__dlpack__", args, kwargs))
            return x.__dlpack__(*args, **kwargs)

        def __dlpack_device__(self):
            calls.append(("__dlpack_device__",))
            return x.__dlpack_device__()

    out = np.from_dlpack(Spy())
    assert calls == [("__dlpack__", (), {})]
    assert data_pointer(out) == x.unsafe_buffer_pointer()


@pytest.mark.skipif(not NUMPY2, reason="describes NumPy 2")
def test_numpy2_negotiates_the_versioned_struct(shim):
    seen = []
    x = shim.device_put(np.arange(3.0))

    class Spy:
        def __dlpack__(self, **kwargs):
            cap = x.__dlpack__(**kwargs)
            seen.append((kwargs.get("max_version"), capsule_name(cap)))
            return cap

        def __dlpack_device__(self):
            return x.__dlpack_device__()

    out = np.from_dlpack(Spy())
    assert seen and seen[0][1] == "dltensor_versioned"
    assert data_pointer(out) == x.unsafe_buffer_pointer()


def test_device_put_of_read_only_and_bool_sources_copies(shim):
    source = np.arange(4.0)
    source.flags.writeable = False
    x = shim.device_put(source)
    assert not x.read_only  # a copy the shim owns
    assert x.unsafe_buffer_pointer() != data_pointer(source)
    np.testing.assert_array_equal(np.asarray(x), source)
    flags = shim.device_put(np.array([True, False, True]),
                            shim.local_devices("cpu"), axis=None)
    np.testing.assert_array_equal(np.asarray(flags.addressable_data(1)),
                                  [True, False, True])
