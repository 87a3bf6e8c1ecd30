"""Exchange with Debian's PyTorch (1.13), in both directions, zero-copy.

torch 1.13 speaks the legacy protocol only: torch.from_dlpack calls
__dlpack_device__() and then __dlpack__() without max_version (with a stream
only for CUDA/ROCm devices), and Tensor.__dlpack__ takes no max_version.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
tud = pytest.importorskip("torch.utils.dlpack")
# torch >= 2.4 negotiates the versioned struct; the tests that describe
# torch 1.13's calls say so.
TORCH_LEGACY = tuple(int(p) for p in torch.__version__.split(".")[:2]) < (2, 4)

from dlpack_ctypes import capsule_name, data_pointer  # noqa: E402

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16,
          torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
          torch.complex64, torch.complex128]


def torch_source(dtype):
    return (torch.arange(24) % 7).to(dtype).reshape(2, 3, 4)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_torch_consumes_shim_array_zero_copy(shim, dtype):
    source = torch_source(dtype)
    x = shim.device_put(source)  # memory the shim allocated
    assert x.unsafe_buffer_pointer() != source.data_ptr()
    for consume in (torch.from_dlpack, tud.from_dlpack):
        out = consume(x)
        assert out.data_ptr() == x.unsafe_buffer_pointer()
        assert out.dtype == dtype and tuple(out.shape) == (2, 3, 4)
        assert torch.equal(out, source)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_shim_consumes_torch_zero_copy(shim, dtype):
    source = torch_source(dtype)
    x = shim.from_dlpack(source)
    assert x.unsafe_buffer_pointer() == source.data_ptr()
    assert x.shape == (2, 3, 4)
    source.view(-1)[0] = 5  # a view, not a copy
    assert torch.equal(torch.from_dlpack(x), source)


def test_device_put_of_a_torch_tensor_copies(shim):
    source = torch.arange(6, dtype=torch.float32)
    x = shim.device_put(source)
    assert x.unsafe_buffer_pointer() != source.data_ptr()
    np.testing.assert_array_equal(np.asarray(x), source.numpy())


def test_torch_capsule_is_consumed_and_renamed(shim):
    source = torch.arange(5, dtype=torch.int32)
    cap = tud.to_dlpack(source)
    x = shim.from_dlpack(cap)
    assert capsule_name(cap) == "used_dltensor"
    assert x.unsafe_buffer_pointer() == source.data_ptr()
    with pytest.raises(ValueError, match="already consumed"):
        shim.from_dlpack(cap)


def test_shim_capsule_consumed_twice_by_torch(shim):
    x = shim.device_put(np.arange(4.0))
    cap = x.__dlpack__()
    t = tud.from_dlpack(cap)
    assert t.data_ptr() == x.unsafe_buffer_pointer()
    with pytest.raises(RuntimeError, match="consumed only once"):
        tud.from_dlpack(cap)
    with pytest.raises(ValueError, match="used_dltensor"):
        shim.from_dlpack(cap)


def test_lifetimes_are_independent(shim):
    t = torch.arange(100, dtype=torch.int64)
    x = shim.from_dlpack(t)
    del t
    np.testing.assert_array_equal(np.asarray(x), np.arange(100))
    back = torch.from_dlpack(x)
    del x
    assert torch.equal(back, torch.arange(100))


def test_non_contiguous_torch_tensors_are_copied(shim):
    base = torch.arange(12.0).reshape(3, 4)
    for view in (base.t(), base[:, ::2], base.expand(2, 3, 4)):
        x = shim.from_dlpack(view)
        assert torch.equal(torch.from_dlpack(x), view.contiguous())


def test_zero_size_and_zero_d(shim):
    empty = shim.from_dlpack(torch.zeros(0, 3))
    assert empty.shape == (0, 3)
    assert tuple(torch.from_dlpack(empty).shape) == (0, 3)
    scalar = shim.from_dlpack(torch.tensor(2.5))
    assert scalar.shape == ()
    out = torch.from_dlpack(scalar)
    assert out.dim() == 0 and out.item() == 2.5
    assert out.data_ptr() == scalar.unsafe_buffer_pointer()


def test_torch_producer_errors_propagate(shim):
    # torch 1.13 raises RuntimeError, torch 2 BufferError.
    with pytest.raises((RuntimeError, BufferError), match="gradient"):
        shim.from_dlpack(torch.ones(2, requires_grad=True))


def test_sharded_export_to_torch_is_refused(shim):
    x = shim.device_put(np.zeros((2, 2)), shim.local_devices("cpu"), axis=0)
    # torch asks __dlpack_device__ first, which refuses a sharded array.
    with pytest.raises(BufferError, match="only supported for unsharded"):
        torch.from_dlpack(x)
    with pytest.raises(BufferError, match="Sharding over 2 devices"):
        x.__dlpack__()


def test_bfloat16_exchange_without_numpy_support(shim):
    source = torch.tensor([1.5, -2.25, 3.0], dtype=torch.bfloat16)
    x = shim.from_dlpack(source)
    try:  # NumPy knows bfloat16 only once ml_dtypes has registered it
        np.dtype("bfloat16")
    except TypeError:
        assert x.dtype == "bfloat16"
        with pytest.raises(TypeError, match="bfloat16"):
            np.asarray(x)
    else:
        assert x.dtype == np.dtype("bfloat16")
        np.testing.assert_array_equal(np.asarray(x).astype(np.float32),
                                      [1.5, -2.25, 3.0])
    assert torch.equal(torch.from_dlpack(x), source)


@pytest.mark.skipif(not TORCH_LEGACY, reason="describes torch < 2.4")
def test_read_only_numpy_to_torch_goes_through_a_copy(shim):
    source = np.arange(4.0)
    source.flags.writeable = False
    x = shim.from_dlpack(source)
    t = torch.from_dlpack(x)  # legacy consumer: cannot be told read-only
    assert t.data_ptr() != data_pointer(source)
    assert torch.equal(t, torch.arange(4.0, dtype=torch.float64))


@pytest.mark.skipif(not TORCH_LEGACY, reason="describes torch < 2.4")
def test_what_torch_113_passes_to_a_producer(shim):
    # torch 1.13 asks __dlpack_device__ first and, for a CPU device, calls
    # __dlpack__() with no arguments (a stream only for CUDA and ROCm).
    calls = []
    x = shim.device_put(np.arange(3.0))

    class Spy:
        def __dlpack__(self, *args, **kwargs):
            calls.append(("__dlpack__", args, kwargs))
            return x.__dlpack__(*args, **kwargs)

        def __dlpack_device__(self):
            calls.append(("__dlpack_device__",))
            return x.__dlpack_device__()

    for consume in (torch.from_dlpack, tud.from_dlpack):
        calls.clear()
        out = consume(Spy())
        assert calls == [("__dlpack_device__",), ("__dlpack__", (), {})]
        assert out.data_ptr() == x.unsafe_buffer_pointer()


def test_tpu_pinned_host_to_torch_through_a_cpu_request(shim):
    tpu = shim.local_devices("tpu")[0]
    source = torch.arange(6, dtype=torch.float32)
    x = shim.device_put(source, tpu, memory_kind="pinned_host")
    with pytest.raises((RuntimeError, BufferError)):  # no kDLTPUHost
        torch.from_dlpack(x)

    class CpuRequest:
        def __dlpack__(self, stream=None):
            return x.__dlpack__(stream=stream, dl_device=(1, 0))

        def __dlpack_device__(self):
            return (1, 0)

    out = torch.from_dlpack(CpuRequest())
    assert out.data_ptr() == x.unsafe_buffer_pointer()
    assert torch.equal(out, source)
