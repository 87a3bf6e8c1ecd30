"""The module's JAX-shaped API: topology, devices, device_put, Array."""

import numpy as np
import pytest

import interop_shim
from dlpack_ctypes import data_pointer


# ---- topology and devices -------------------------------------------------

def test_devices_of_a_multi_process_topology(topology):
    shim = topology(cpu_devices=2, tpu_devices=1, process_count=3,
                    process_index=1)
    everything = shim.devices()
    assert [(d.platform, d.id, d.process_index) for d in everything] == [
        ("cpu", 0, 0), ("cpu", 1, 0), ("cpu", 2, 1), ("cpu", 3, 1),
        ("cpu", 4, 2), ("cpu", 5, 2),
        ("tpu", 0, 0), ("tpu", 1, 1), ("tpu", 2, 2)]
    local = shim.local_devices()
    assert [(d.platform, d.id) for d in local] == [("cpu", 2), ("cpu", 3),
                                                   ("tpu", 1)]
    assert all(d.is_addressable for d in local)
    assert [d.is_addressable for d in everything].count(True) == 3
    assert [d.local_hardware_id for d in local] == [0, 1, 0]
    assert shim.devices("tpu") == [everything[-3], everything[-2],
                                   everything[-1]]
    assert shim.local_devices(platform="cpu") == local[:2]


def test_device_values(shim):
    a, b = shim.local_devices("cpu")
    assert a == shim.devices()[0] and a != b
    assert len({a, shim.devices()[0], b}) == 2
    assert repr(a) == "CpuDevice(id=0)"
    assert "TpuDevice(id=1" in repr(shim.local_devices("tpu")[1])
    with pytest.raises(TypeError):
        interop_shim.Device()
    with pytest.raises(AttributeError):
        a.id = 3


def test_configure_validates_and_only_before_first_use(topology):
    shim = topology(cpu_devices=1)
    shim.devices()
    with pytest.raises(RuntimeError, match="before the runtime is first used"):
        shim.configure(cpu_devices=2)
    shim._reset_for_testing()
    with pytest.raises(ValueError, match="process_index"):
        shim.configure(process_count=2, process_index=2)
    shim._reset_for_testing()
    with pytest.raises(TypeError, match="cpu_devices"):
        shim.configure(cpu_devices="2")
    with pytest.raises(TypeError, match="positional"):
        shim.configure(2)
    with pytest.raises(TypeError, match="unexpected keyword"):
        shim.configure(gpus=1)
    with pytest.raises(ValueError, match="platform"):
        shim.devices("gpu")


# ---- device_put -------------------------------------------------------------

def test_device_put_defaults_to_the_first_local_device(shim):
    x = shim.device_put(np.arange(3))
    assert x.devices() == {shim.local_devices()[0]}
    assert x.memory_kind == "device" and x.platform == "cpu"
    assert x.is_single_device and x.is_fully_addressable


def test_device_put_accepts_python_values_through_numpy(shim):
    np.testing.assert_array_equal(np.asarray(shim.device_put([[1, 2], [3, 4]])),
                                  [[1, 2], [3, 4]])
    assert shim.device_put(2.5).shape == ()


def test_device_put_memory_kinds(shim):
    cpu = shim.local_devices("cpu")[1]
    for kind in ("device", "pinned_host", "unpinned_host"):
        x = shim.device_put(np.ones(4), cpu, memory_kind=kind)
        assert x.memory_kind == kind
        np.testing.assert_array_equal(np.from_dlpack(x), np.ones(4))
    with pytest.raises(ValueError, match="'host'"):
        shim.device_put(np.ones(4), cpu, memory_kind="host")


def test_device_put_of_an_array_gathers_or_reshards(shim):
    cpus = shim.local_devices("cpu")
    source = np.arange(24.0).reshape(4, 6)
    split = shim.device_put(source, cpus, axis=0)
    assert split.sharding_devices() == cpus and not split.is_single_device
    gathered = shim.device_put(split, cpus[1])
    assert gathered.devices() == {cpus[1]}
    np.testing.assert_array_equal(np.from_dlpack(gathered), source)
    resplit = shim.device_put(split, cpus, axis=1)
    np.testing.assert_array_equal(np.asarray(resplit.addressable_data(1)),
                                  source[:, 3:])
    # Already there: the same memory, as jax.device_put does.
    again = shim.device_put(gathered, cpus[1])
    assert again.unsafe_buffer_pointer() == gathered.unsafe_buffer_pointer()
    tpu = shim.device_put(gathered, shim.local_devices("tpu")[0],
                          memory_kind="pinned_host")
    np.testing.assert_array_equal(np.asarray(tpu), source)


def test_device_put_split_errors_name_the_values(shim):
    cpus = shim.local_devices("cpu")
    with pytest.raises(ValueError, match=r"axis 2 .*shape \(3, 4\)"):
        shim.device_put(np.zeros((3, 4)), cpus, axis=2)
    with pytest.raises(ValueError, match="3"):
        shim.device_put(np.zeros((3, 4)), cpus, axis=0)  # 3 rows, 2 devices
    with pytest.raises(TypeError, match="item 1"):
        shim.device_put(np.zeros(2), [cpus[0], "cpu:1"])
    with pytest.raises(ValueError, match="empty"):
        shim.device_put(np.zeros(2), [])
    with pytest.raises(TypeError, match="axis"):
        shim.device_put(np.zeros(2), cpus, axis="0")


def test_device_put_onto_another_process_keeps_only_local_shards(topology):
    shim = topology(cpu_devices=1, process_count=2)
    source = np.arange(8.0)
    x = shim.device_put(source, shim.devices("cpu"), axis=0)
    assert not x.is_fully_addressable
    np.testing.assert_array_equal(np.asarray(x.addressable_data(0)),
                                  source[:4])
    with pytest.raises(RuntimeError, match="non-addressable"):
        np.asarray(x)


# ---- Array --------------------------------------------------------------------

def test_array_attributes(shim):
    x = shim.device_put(np.zeros((2, 3, 4), np.float16))
    assert x.shape == (2, 3, 4) and x.ndim == 3 and x.size == 24
    assert x.nbytes == 48 and x.dtype == np.float16
    assert not x.read_only
    assert "shape=(2, 3, 4)" in repr(x) and "float16" in repr(x)
    with pytest.raises(TypeError):
        interop_shim.Array()


def test_from_dlpack_copy_argument(shim):
    source = np.arange(4.0)
    view = shim.from_dlpack(source, copy=False)
    assert view.unsafe_buffer_pointer() == data_pointer(source)
    copied = shim.from_dlpack(source, copy=True)
    assert copied.unsafe_buffer_pointer() != data_pointer(source)
    with pytest.raises(TypeError, match="copy"):
        shim.from_dlpack(source, copy="yes")


def test_from_dlpack_onto_another_local_device_copies(shim):
    source = np.arange(4.0)
    cpu1 = shim.local_devices("cpu")[1]
    x = shim.from_dlpack(source, device=cpu1)
    assert x.devices() == {cpu1}
    np.testing.assert_array_equal(np.asarray(x), source)
    tpu = shim.local_devices("tpu")[0]
    y = shim.from_dlpack(source, device=[tpu])
    assert y.devices() == {tpu}


def test_cuda_arrays_when_a_gpu_is_present(topology):
    shim = topology(cpu_devices=1, cuda_devices=-1)
    gpus = shim.local_devices("cuda")
    if not gpus:
        pytest.skip("no CUDA device in this process")
    source = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = shim.device_put(source, gpus[0])
    assert x.__dlpack_device__() == (2, gpus[0].local_hardware_id)
    cai = x.__cuda_array_interface__
    assert cai["shape"] == (2, 3) and cai["typestr"] == "<f4"
    assert cai["data"][0] == x.unsafe_buffer_pointer()
    assert cai["version"] == 3 and cai["stream"] != 0
    np.testing.assert_array_equal(np.asarray(x), source)
    host = np.from_dlpack(_CpuRequest(x))
    np.testing.assert_array_equal(host, source)
    assert shim.device_put(source, gpus[0], memory_kind="pinned_host") \
        .__dlpack_device__()[0] == 3  # kDLCUDAHost


class _CpuRequest:
    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(dl_device=(1, 0))

    def __dlpack_device__(self):
        return (1, 0)
