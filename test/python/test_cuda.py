"""CUDA arrays through the Python protocol. Every test skips cleanly where
the process has no usable GPU (the runtime then reports no CUDA devices);
the torch and CuPy parts also skip where those lack CUDA."""

import numpy as np
import pytest

from dlpack_ctypes import capsule_name, managed


@pytest.fixture
def gpu(topology):
    shim = topology(cpu_devices=1, cuda_devices=-1)  # every GPU there is
    gpus = shim.local_devices("cuda")
    if not gpus:
        pytest.skip("no usable CUDA device in this process")
    return shim, gpus[0]


def cuda_torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    return torch


class CpuRequest:
    """Asks a producer for host memory, as NumPy 2 does for device='cpu'."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None, **kwargs):
        return self.array.__dlpack__(dl_device=(1, 0))

    def __dlpack_device__(self):
        return (1, 0)


def test_device_put_and_back(gpu):
    shim, device = gpu
    source = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = shim.device_put(source, device)
    assert x.platform == "cuda" and x.devices() == {device}
    assert x.__dlpack_device__() == (2, device.local_hardware_id)
    np.testing.assert_array_equal(np.asarray(x), source)
    # A CPU request is a device-to-host copy.
    host = np.from_dlpack(CpuRequest(x))
    assert host.__array_interface__["data"][0] != x.unsafe_buffer_pointer()
    np.testing.assert_array_equal(host, source)


def test_cuda_array_interface(gpu):
    shim, device = gpu
    x = shim.device_put(np.arange(6, dtype=np.int16).reshape(2, 3), device)
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (2, 3)
    assert cai["typestr"] == "<i2" and cai["strides"] is None
    assert cai["data"] == (x.unsafe_buffer_pointer(), False)
    assert cai["stream"] != 0


def test_stream_protocol(gpu):
    shim, device = gpu
    x = shim.device_put(np.ones(4, np.float32), device)
    for stream in (None, 1, 2, -1):
        cap = x.__dlpack__(stream=stream, max_version=(1, 1))
        assert capsule_name(cap) == "dltensor_versioned"
        assert managed(cap).dl_tensor.data == x.unsafe_buffer_pointer()
    with pytest.raises(ValueError):
        x.__dlpack__(stream=0)  # disallowed by the protocol


def test_pinned_host_reports_cuda_host(gpu):
    shim, device = gpu
    source = np.arange(5.0)
    x = shim.device_put(source, device, memory_kind="pinned_host")
    assert x.__dlpack_device__() == (3, device.local_hardware_id)
    view = np.from_dlpack(CpuRequest(x))
    assert view.__array_interface__["data"][0] == x.unsafe_buffer_pointer()
    np.testing.assert_array_equal(view, source)


def test_torch_cuda_consumes_shim_zero_copy(gpu):
    shim, device = gpu
    torch = cuda_torch()
    source = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = shim.device_put(source, device)
    t = torch.from_dlpack(x)  # torch passes its current stream
    assert t.is_cuda and t.data_ptr() == x.unsafe_buffer_pointer()
    assert torch.equal(t.cpu(), torch.from_numpy(source))


def test_shim_consumes_torch_cuda_zero_copy(gpu):
    shim, device = gpu
    torch = cuda_torch()
    t = torch.arange(10, dtype=torch.float64, device="cuda") * 3
    x = shim.from_dlpack(t)
    assert x.platform == "cuda" and x.unsafe_buffer_pointer() == t.data_ptr()
    np.testing.assert_array_equal(np.asarray(x), np.arange(10.0) * 3)
    y = shim.from_dlpack(t[::2])  # strided: copied on the device
    np.testing.assert_array_equal(np.asarray(y), np.arange(0.0, 30.0, 6.0))


def test_cupy_reads_the_cuda_array_interface(gpu):
    shim, device = gpu
    cupy = pytest.importorskip("cupy")
    x = shim.device_put(np.arange(8, dtype=np.float32), device)
    c = cupy.asarray(x)  # through __cuda_array_interface__, zero-copy
    assert c.data.ptr == x.unsafe_buffer_pointer()
    np.testing.assert_array_equal(cupy.asnumpy(c), np.arange(8.0))


# ---- the stream handshake ----------------------------------------------------
# A producer's kernel still running on a side stream when the tensor is handed
# over: without the `stream` argument (torch 1.13 and every producer that
# takes None as "no synchronisation") the import's reads race with it. Each
# round makes the race likely: the side stream is held back before it writes.

ROUNDS = 100


def test_cupy_consumes_shim_through_dlpack_on_its_stream(gpu):
    shim, device = gpu
    cupy = pytest.importorskip("cupy")
    source = np.arange(1 << 20, dtype=np.int32) % 7
    side = cupy.cuda.Stream(non_blocking=True)
    for _ in range(10):
        x = shim.device_put(source, device)  # copied on the runtime stream
        with side:  # CuPy passes its current stream to __dlpack__
            c = cupy.from_dlpack(x)
            assert c.data.ptr == x.unsafe_buffer_pointer()
            total = int(c.astype(cupy.int64).sum())
        assert total == int(source.astype(np.int64).sum())


def test_torch_side_stream_write_imported_at_once(gpu):
    shim, device = gpu
    torch = cuda_torch()
    side = torch.cuda.Stream()
    n = 1 << 20
    for i in range(ROUNDS):
        with torch.cuda.stream(side):
            t = torch.zeros(n, dtype=torch.float32, device="cuda")
            torch.cuda._sleep(10_000_000)  # a few ms of GPU time on `side`
            t.fill_(float(i + 1))
            x = shim.from_dlpack(t)  # zero-copy, ordered after the fill
        assert x.unsafe_buffer_pointer() == t.data_ptr()
        got = np.asarray(x)
        assert (got == i + 1).all(), (i, np.unique(got))


def test_torch_side_stream_write_copied_to_the_host_at_once(gpu):
    shim, device = gpu
    torch = cuda_torch()
    cpu = shim.local_devices("cpu")[0]
    side = torch.cuda.Stream()
    n = 1 << 20
    for i in range(ROUNDS // 4):
        with torch.cuda.stream(side):
            t = torch.zeros(n, dtype=torch.float32, device="cuda")
            torch.cuda._sleep(10_000_000)
            t.fill_(float(i + 1))
            x = shim.from_dlpack(t, device=cpu)  # a copy, queued after it
        got = np.asarray(x)
        assert (got == i + 1).all(), (i, np.unique(got))


def test_torch_gets_the_runtimes_stream(gpu):
    shim, device = gpu
    torch = cuda_torch()
    seen = []

    class Recording(torch.Tensor):
        def __dlpack__(self, *args, **kwargs):
            seen.append(kwargs.get("stream"))
            return super().__dlpack__(*args, **kwargs)

    t = torch.arange(4.0, device="cuda").as_subclass(Recording)
    shim.from_dlpack(t)
    cai_stream = shim.device_put(np.zeros(1, np.float32),
                                 device).__cuda_array_interface__["stream"]
    assert seen == [cai_stream] and cai_stream not in (None, 0, 1, 2, -1)


SPIN_FILL = r"""
extern "C" __global__ void spin_fill(float *out, long long n, float value,
                                     long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}
"""


def test_cuda_array_interface_consumer_follows_its_stream(gpu):
    shim, device = gpu
    cupy = pytest.importorskip("cupy")
    spin_fill = cupy.RawKernel(SPIN_FILL, "spin_fill")
    side = cupy.cuda.Stream(non_blocking=True)
    n = 1 << 20

    class OnlyInterface:  # no __dlpack__: device_put reads the CAI
        def __init__(self, array):
            self.array = array
            self.__cuda_array_interface__ = array.__cuda_array_interface__

    cpu = shim.local_devices("cpu")[0]
    for i in range(ROUNDS):
        with side:
            a = cupy.zeros(n, dtype=cupy.float32)
            spin_fill(((n + 255) // 256,), (256,),
                      (a, cupy.int64(n), cupy.float32(i + 1),
                       cupy.int64(5_000_000)))
            wrapped = OnlyInterface(a)
        assert wrapped.__cuda_array_interface__["stream"] == side.ptr
        target = device if i % 2 else cpu
        x = shim.device_put(wrapped, target)
        got = np.asarray(x)
        assert (got == i + 1).all(), (i, target, np.unique(got))
