"""The five JAX errors the project exists for (exporting a sharded array,
importing onto another process's device, the CUDA array interface of a
sharded array, exporting TPU device memory, importing from an unsupported
device type) and JAX's related guards, at the Python level: JAX's exception
classes and JAX's exact messages."""

import re

import numpy as np
import pytest

from dlpack_ctypes import ForgedTensor, Producer, capsule_name, data_pointer


def exact(message):
    return "^" + re.escape(message) + "$"


SHARDED_EXPORT = ("to_dlpack can only pack a dlpack tensor from an array on a "
            "singular device, but an array with a Sharding over {} devices "
            "was provided.")
NON_ADDRESSABLE_IMPORT = ("DLPack is only supported for devices addressable by the current "
            "process.")
SHARDED_CUDA_ARRAY_INTERFACE = "__cuda_array_interface__() is supported only for unsharded arrays."
TPU_DEVICE_EXPORT = "__dlpack__ device only supported for TPU pinned host memory"
UNSUPPORTED_DEVICE_TYPE = ("Array passed to from_dlpack is on unsupported device type "
            "(DLDeviceType: {}, array: {}")


# ---- exporting a sharded array ---------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, None], ids=["split0", "split1",
                                                     "replicated"])
def test_sharded_export(topology, axis):
    shim = topology(cpu_devices=4)
    x = shim.device_put(np.zeros((4, 8), np.float32), shim.local_devices(),
                        axis=axis)
    for max_version in (None, (1, 1)):
        with pytest.raises(BufferError, match=exact(SHARDED_EXPORT.format(4))):
            x.__dlpack__(max_version=max_version)


def test_sharded_export_reaches_numpy_and_the_shim_as_consumers(shim):
    x = shim.device_put(np.arange(4.0), shim.local_devices("cpu"), axis=None)
    with pytest.raises(BufferError, match=exact(SHARDED_EXPORT.format(2))):
        np.from_dlpack(x)  # NumPy calls __dlpack__ directly
    with pytest.raises(BufferError,
                       match=exact("__dlpack__ only supported for unsharded "
                                   "arrays.")):
        shim.from_dlpack(x)  # JAX's order: __dlpack_device__ first


def test_sharded_export_fix_gather_then_export(shim):
    source = np.arange(8.0).reshape(2, 4)
    x = shim.device_put(source, shim.local_devices("cpu"), axis=1)
    gathered = shim.device_put(x, shim.local_devices("cpu")[0])
    assert gathered.is_single_device
    np.testing.assert_array_equal(np.from_dlpack(gathered), source)


# ---- importing onto another process's device --------------------------------

def test_import_onto_non_addressable_device(topology):
    shim = topology(cpu_devices=1, process_count=2, process_index=1)
    remote = [d for d in shim.devices() if not d.is_addressable]
    assert [d.process_index for d in remote] == [0]
    with pytest.raises(RuntimeError, match=exact(NON_ADDRESSABLE_IMPORT)):
        shim.from_dlpack(np.arange(3.0), device=remote[0])
    local = shim.from_dlpack(np.arange(3.0), device=shim.local_devices()[0])
    assert local.devices() == {shim.local_devices()[0]}


def test_non_addressable_import_of_a_raw_capsule_keeps_it_unconsumed(topology):
    shim = topology(cpu_devices=1, process_count=2)
    remote = [d for d in shim.devices() if not d.is_addressable][0]
    cap = np.arange(3.0).__dlpack__()
    with pytest.raises(RuntimeError, match=exact(NON_ADDRESSABLE_IMPORT)):
        shim.from_dlpack(cap, device=remote)
    assert capsule_name(cap) == "dltensor"


# ---- the CUDA array interface of a sharded array ---------------------------

def test_cuda_array_interface_of_sharded_array(shim):
    x = shim.device_put(np.zeros((2, 2)), shim.local_devices("cpu"), axis=0)
    with pytest.raises(ValueError, match=exact(SHARDED_CUDA_ARRAY_INTERFACE)):
        x.__cuda_array_interface__
    with pytest.raises(ValueError,
                       match=exact("unsafe_buffer_pointer() is supported "
                                   "only for unsharded arrays.")):
        x.unsafe_buffer_pointer()


def test_cuda_array_interface_is_absent_on_cpu(shim):
    x = shim.device_put(np.zeros(2))
    assert not hasattr(x, "__cuda_array_interface__")  # AttributeError


# ---- exporting TPU device memory -------------------------------------------

def test_tpu_device_memory_export(shim):
    tpu = shim.local_devices("tpu")[0]
    x = shim.device_put(np.arange(4.0), tpu)
    assert x.memory_kind == "device"
    with pytest.raises(BufferError, match=exact(TPU_DEVICE_EXPORT)):
        x.__dlpack_device__()
    with pytest.raises(BufferError, match=exact(TPU_DEVICE_EXPORT)):
        x.__dlpack__()
    with pytest.raises(BufferError, match=exact(TPU_DEVICE_EXPORT)):
        np.from_dlpack(x)
    # The fix JAX's error recommends: pinned host memory on the same device.
    pinned = shim.device_put(x, tpu, memory_kind="pinned_host")
    assert pinned.__dlpack_device__() == (20, tpu.local_hardware_id)


# ---- importing from an unsupported device type ------------------------------

@pytest.mark.parametrize("versioned", [True, False])
def test_unsupported_device_type_from_a_producer(shim, versioned):
    forged = ForgedTensor(np.arange(3.0), device=(7, 0),  # kDLVulkan
                          versioned=versioned)
    producer = Producer(forged)
    with pytest.raises(TypeError,
                       match=exact(UNSUPPORTED_DEVICE_TYPE.format(
                           7, str(producer)))):
        shim.from_dlpack(producer)
    # JAX's order: an unknown producer is asked __dlpack_device__ first, so
    # nothing is exported (no tensor to release) for a device type with no
    # platform here.
    assert producer.calls == []
    assert forged.deleted == 0


@pytest.mark.parametrize("versioned", [True, False])
def test_unsupported_device_type_exported_by_a_producer_saying_cpu(
        shim, versioned):
    # The exported tensor's own device still decides: a producer whose
    # __dlpack_device__ says CPU but whose tensor is elsewhere is refused at
    # the import, and the refused tensor is released exactly once.
    forged = ForgedTensor(np.arange(3.0), device=(7, 0), versioned=versioned)
    producer = Producer(forged, dlpack_device=(1, 0))
    with pytest.raises(TypeError,
                       match=exact(UNSUPPORTED_DEVICE_TYPE.format(
                           7, str(producer)))):
        shim.from_dlpack(producer)
    assert producer.calls == [{"max_version": tuple(shim.DLPACK_VERSION)}]
    assert forged.deleted == 1


def test_unsupported_device_type_from_a_producer_that_rejects_keywords(shim):
    forged = ForgedTensor(np.arange(3.0), device=(4, 0), versioned=False)
    calls = []

    class OldProducer:  # like torch 1.13: no max_version
        def __dlpack__(self, stream=None):
            calls.append(stream)
            return forged.capsule()

        def __dlpack_device__(self):
            return (1, 0)  # wrong: the tensor's own device decides

        def __str__(self):
            return "OldProducer()"

    for _ in range(2):
        with pytest.raises(TypeError,
                           match=exact(UNSUPPORTED_DEVICE_TYPE.format(
                               4, "OldProducer()"))):
            shim.from_dlpack(OldProducer())
    assert calls == [None, None] and forged.deleted == 2


def test_unsupported_device_type_onto_a_given_device(shim):
    forged = ForgedTensor(np.arange(3.0), device=(7, 0))
    producer = Producer(forged)
    with pytest.raises(TypeError,
                       match=exact(UNSUPPORTED_DEVICE_TYPE.format(
                           7, str(producer)))):
        shim.from_dlpack(producer, device=shim.local_devices("cpu")[0],
                         copy=True)
    assert producer.calls == [] and forged.deleted == 0


def test_unsupported_device_type_prints_an_int_enum_like_jax(shim):
    import enum

    class DLDeviceType(enum.IntEnum):  # what torch returns
        kDLOpenCL = 4

    forged = ForgedTensor(np.arange(3.0), device=(4, 0))
    producer = Producer(forged, dlpack_device=(DLDeviceType.kDLOpenCL, 0))
    with pytest.raises(TypeError,
                       match=exact(UNSUPPORTED_DEVICE_TYPE.format(
                           f"{DLDeviceType.kDLOpenCL}", str(producer)))):
        shim.from_dlpack(producer)


def test_a_producer_type_that_may_hold_any_device_is_asked(shim):
    # A NumPy subclass that overrides __dlpack_device__ is not known to hold
    # CPU memory: it is asked, once per import, and its answer is checked
    # before anything is exported.
    asked = []

    class SaysVulkan(np.ndarray):
        def __dlpack_device__(self):
            asked.append(1)
            return (7, 0)

    before = shim._capsule_stats()
    with pytest.raises(TypeError,
                       match=r"^Array passed to from_dlpack is on unsupported "
                       r"device type \(DLDeviceType: 7, array: "):
        shim.from_dlpack(np.arange(3.0).view(SaysVulkan))
    after = shim._capsule_stats()
    assert asked == [1]
    assert after["device_queries"] == before["device_queries"] + 1
    assert after["exported"] == before["exported"]


def test_unsupported_device_type_of_a_raw_capsule_describes_the_tensor(shim):
    forged = ForgedTensor(np.arange(3.0), device=(7, 0))
    cap = forged.capsule()
    # No __dlpack_device__ and no Python array to print: the runtime names
    # the type and describes the DLTensor.
    with pytest.raises(TypeError,
                       match=r"^Array passed to from_dlpack is on unsupported "
                       r"device type \(DLDeviceType: kDLVulkan, array: "
                       r"DLTensor\(shape=\(3,\)"):
        shim.from_dlpack(cap)
    assert capsule_name(cap) == "dltensor_versioned" and forged.deleted == 0
    del cap
    assert forged.deleted == 1


# ---- JAX's related guards --------------------------------------------------

def test_dlpack_device_of_sharded_array(shim):
    x = shim.device_put(np.zeros(4), shim.local_devices("cpu"), axis=0)
    with pytest.raises(BufferError,
                       match=exact("__dlpack__ only supported for unsharded "
                                   "arrays.")):
        x.__dlpack_device__()


def test_from_dlpack_of_sharded_shim_array(shim):
    # from_dlpack reads a shim Array's device without the Python call; the
    # refusal is the one __dlpack_device__ raises, and nothing is exported.
    x = shim.device_put(np.zeros(4), shim.local_devices("cpu"), axis=0)
    before = shim._capsule_stats()["exported"]
    with pytest.raises(BufferError,
                       match=exact("__dlpack__ only supported for unsharded "
                                   "arrays.")):
        shim.from_dlpack(x)
    assert shim._capsule_stats()["exported"] == before


def test_export_of_another_process_array(topology):
    shim = topology(cpu_devices=1, process_count=2)
    remote = [d for d in shim.devices() if not d.is_addressable][0]
    x = shim.device_put(np.zeros(3), remote)
    assert not x.is_fully_addressable
    with pytest.raises(BufferError,
                       match=exact("Couldn't get local_hardware_id for "
                                   "__dlpack__")):
        x.__dlpack__()


def test_from_dlpack_onto_several_devices(shim):
    with pytest.raises(ValueError,
                       match=exact("from_dlpack can only unpack a dlpack "
                                   "tensor onto a singular device, but a "
                                   "Sharding with 2 devices was provided.")):
        shim.from_dlpack(np.zeros(2), device=shim.local_devices("cpu"))


def test_from_dlpack_needs_both_protocol_methods(shim):
    class OnlyDlpack:
        def __dlpack__(self, **kwargs):
            raise AssertionError("must not be called")

    with pytest.raises(TypeError,
                       match=exact("The array passed to from_dlpack must "
                                   "have __dlpack__ and __dlpack_device__ "
                                   "methods.")):
        shim.from_dlpack(OnlyDlpack())
    with pytest.raises(TypeError):
        shim.from_dlpack([1.0, 2.0])
