"""The consumer side of the stream handshake, without a GPU: where a
producer's tensor will be is learnt before __dlpack__ is called (from the
producer's type where that tells, else from one __dlpack_device__ call), a
device this process cannot import from fails before anything is exported,
host memory is asked for with no `stream` argument, and an object offering
only __cuda_array_interface__ is read, validated and released exactly once.
The GPU half (the stream itself) is in test_cuda.py."""

import re
import sys

import numpy as np
import pytest

from dlpack_ctypes import ForgedTensor, Producer


def queries(shim):
    return shim._capsule_stats()["device_queries"]


# ---- types whose device is known without asking -----------------------------

def test_numpy_arrays_are_not_asked(shim):
    class Plain(np.ndarray):  # inherits ndarray's own __dlpack_device__
        pass

    before = queries(shim)
    for x in (np.arange(6.0), np.arange(6.0).view(Plain),
              np.zeros((2, 3), np.int16)[:, ::2]):
        y = shim.from_dlpack(x)
        np.testing.assert_array_equal(np.asarray(y), x)
    shim.device_put(np.arange(3.0), shim.local_devices("cpu")[1])
    assert queries(shim) == before


def torch_or_skip():
    return pytest.importorskip("torch")


def test_torch_cpu_tensors_are_not_asked(shim, monkeypatch):
    torch = torch_or_skip()
    asked = []
    original = torch.Tensor.__dlpack_device__

    def counting(self):
        asked.append(1)
        return original(self)

    # Patched on torch.Tensor itself: still torch's own method, whose answer
    # for a CPU tensor is_cuda already gives.
    monkeypatch.setattr(torch.Tensor, "__dlpack_device__", counting)
    before = queries(shim)
    t = torch.arange(8, dtype=torch.float32)
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(shim.from_dlpack(t)),
                                      np.arange(8.0))
    shim.device_put(t, shim.local_devices("cpu")[0])
    assert asked == [] and queries(shim) == before


def test_torch_cpu_tensors_get_no_stream_argument(shim):
    torch = torch_or_skip()
    calls = []

    class Recording(torch.Tensor):
        def __dlpack__(self, *args, **kwargs):
            calls.append(kwargs)
            return super().__dlpack__(*args, **kwargs)

    t = torch.arange(4, dtype=torch.float64).as_subclass(Recording)
    x = shim.from_dlpack(t)
    np.testing.assert_array_equal(np.asarray(x), np.arange(4.0))
    assert calls and all("stream" not in c for c in calls), calls


# ---- types that may hold any device: asked once -----------------------------

def test_an_unknown_producer_is_asked_exactly_once(shim):
    asked = []

    class Counting(Producer):
        def __dlpack_device__(self):
            asked.append(1)
            return super().__dlpack_device__()

    forged = ForgedTensor(np.arange(5.0))
    producer = Counting(forged)
    before = queries(shim)
    x = shim.from_dlpack(producer)
    np.testing.assert_array_equal(np.asarray(x), np.arange(5.0))
    assert asked == [1] and queries(shim) == before + 1
    # Host memory: no stream argument, only the version the shim speaks.
    assert producer.calls == [{"max_version": tuple(shim.DLPACK_VERSION)}]


def test_a_cuda_producer_without_a_gpu_fails_before_any_capsule(shim):
    forged = ForgedTensor(np.arange(3.0), device=(2, 0))  # kDLCUDA
    producer = Producer(forged)
    stats = shim._capsule_stats()
    message = (r"^DLPack device \(kDLCUDA, 0\) names no cuda device of this "
               r"process")
    with pytest.raises(RuntimeError, match=message):
        shim.from_dlpack(producer)
    with pytest.raises(RuntimeError, match=message):
        shim.device_put(producer, shim.local_devices("cpu")[0])
    # __dlpack__ was never called: no capsule, nothing to release.
    assert producer.calls == [] and forged.deleted == 0
    after = shim._capsule_stats()
    assert after["released_unconsumed"] == stats["released_unconsumed"]
    assert after["imported"] == stats["imported"]


def test_a_bad_device_answer_is_named(shim):
    class Odd(Producer):
        def __dlpack_device__(self):
            return "cuda:0"

    producer = Odd(ForgedTensor(np.arange(2.0)))
    with pytest.raises(TypeError,
                       match=re.escape("__dlpack_device__() must be a "
                                       "(device_type, device_id) tuple of "
                                       "ints, got 'cuda:0'")):
        shim.from_dlpack(producer)
    assert producer.calls == []


# ---- __cuda_array_interface__ ------------------------------------------------

class Interface:
    """An object offering only the CUDA array interface."""

    def __init__(self, **entries):
        self.__cuda_array_interface__ = dict(
            {"version": 3, "shape": (2, 3), "typestr": "<f4",
             "data": (0x1000, False), "strides": None, "stream": None},
            **entries)


@pytest.mark.parametrize("entries, error, message", [
    ({"version": 1}, ValueError,
     "__cuda_array_interface__ version 1 is not supported (versions 2 and 3 "
     "are)"),
    ({"stream": 0}, ValueError,
     "__cuda_array_interface__ stream 0 is not allowed by the protocol"),
    ({"stream": True}, TypeError,
     "__cuda_array_interface__ stream must be an int, got True"),
    ({"typestr": ">f4"}, ValueError,
     "__cuda_array_interface__ typestr '>f4' is not supported"),
    ({"strides": (12, 6)}, ValueError,
     "__cuda_array_interface__ strides (12, 6) are not multiples of the item "
     "size 4 of '<f4'"),
    ({"shape": [2, 3]}, TypeError,
     "__cuda_array_interface__ shape must be a tuple of ints, got [2, 3]"),
    ({"data": 4096}, TypeError,
     "__cuda_array_interface__ data must be a (pointer, read_only) tuple, "
     "got 4096"),
    ({"mask": object()}, ValueError,
     "__cuda_array_interface__ with a mask is not supported"),
])
def test_a_malformed_interface_is_named(shim, entries, error, message):
    x = Interface(**entries)
    refs = sys.getrefcount(x)
    with pytest.raises(error, match="^" + re.escape(message)):
        shim.device_put(x, shim.local_devices("cpu")[0])
    assert sys.getrefcount(x) == refs


def test_a_missing_entry_is_named(shim):
    x = Interface()
    del x.__cuda_array_interface__["typestr"]
    with pytest.raises(KeyError, match="has no 'typestr' entry"):
        shim.device_put(x)


def test_an_interface_without_a_gpu_says_so_and_keeps_nothing(shim):
    x = Interface(stream=1)
    refs = sys.getrefcount(x)
    with pytest.raises((RuntimeError, ValueError),
                       match=r"^(CUDA is not available|.*0x1000)"):
        shim.device_put(x)
    assert sys.getrefcount(x) == refs


def test_dlpack_is_preferred_to_the_cuda_array_interface(shim):
    class Both:
        def __init__(self):
            self.array = np.arange(3.0)
            self.__cuda_array_interface__ = {"version": 99}

        def __dlpack__(self, **kwargs):
            return self.array.__dlpack__()

        def __dlpack_device__(self):
            return (1, 0)

    y = shim.device_put(Both(), shim.local_devices("cpu")[0])
    np.testing.assert_array_equal(np.asarray(y), np.arange(3.0))
