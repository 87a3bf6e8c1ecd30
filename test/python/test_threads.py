"""Python threads exporting, importing and releasing arrays at once, and the
GIL released around large copies and gathers (docs/python.md, "Threads")."""

import contextlib
import sys
import threading
import time

import numpy as np
import pytest

from dlpack_ctypes import ForgedTensor

THREADS = 8


def run_threads(target, count=THREADS):
    """Runs target(i) on `count` threads started together; re-raises the
    first failure."""
    barrier = threading.Barrier(count)
    errors = []

    def body(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    if errors:
        raise errors[0]


def test_threads_export_import_and_release_the_same_array(shim):
    source = np.arange(4096, dtype=np.float32)
    refs = sys.getrefcount(source)
    shared = shim.from_dlpack(source)  # a zero-copy view of `source`
    handoff = []  # arrays made on one thread, released on another
    lock = threading.Lock()
    before = shim._capsule_stats()

    def work(i):
        for n in range(1500):
            cap = shared.__dlpack__(max_version=(1, 1) if n % 2 else None)
            view = shim.from_dlpack(cap)
            assert view.unsafe_buffer_pointer() == \
                shared.unsafe_buffer_pointer()
            back = np.from_dlpack(shim.from_dlpack(shared))
            if n % 100 == i:
                np.testing.assert_array_equal(back, source)
            with lock:
                handoff.append(view)
                if len(handoff) > 16:
                    del handoff[: len(handoff) // 2]
            del cap, view, back

    run_threads(work)
    handoff.clear()
    after = shim._capsule_stats()
    # Per iteration: one capsule the shim consumes, one NumPy consumes (the
    # shim imports a shim Array without a capsule).
    exported = after["exported"] - before["exported"]
    assert exported == 2 * THREADS * 1500
    assert after["imported"] - before["imported"] == THREADS * 1500
    assert after["released_consumed"] - before["released_consumed"] == \
        exported
    assert after["released_unconsumed"] == before["released_unconsumed"]
    del shared
    assert sys.getrefcount(source) == refs  # every deleter ran once


def test_threads_exchange_different_arrays(shim):
    cpus = shim.local_devices("cpu")

    def work(i):
        source = np.arange(1000, dtype=np.int64) * (i + 1)
        refs = sys.getrefcount(source)
        for n in range(300):
            view = shim.from_dlpack(source)
            placed = shim.device_put(source, cpus[n % len(cpus)])
            split = shim.device_put(source, cpus, axis=0)
            gathered = shim.device_put(split, cpus[0])
            np.testing.assert_array_equal(np.asarray(gathered), source)
            np.testing.assert_array_equal(np.from_dlpack(view), source)
            assert placed.unsafe_buffer_pointer() != \
                view.unsafe_buffer_pointer()
            del view, placed, split, gathered
        assert sys.getrefcount(source) == refs

    run_threads(work)


def test_threads_reading_the_topology_while_others_exchange(shim):
    devices = shim.devices()

    def work(i):
        for _ in range(500):
            if i % 2:
                assert shim.devices() == devices
                assert all(d.is_addressable for d in shim.local_devices())
            else:
                x = shim.from_dlpack(np.ones(16))
                assert x.devices() <= set(devices)

    run_threads(work)


def test_one_capsule_imported_by_many_threads_is_taken_once(shim):
    # The copy of 16 MiB runs without the GIL: the other threads get to try
    # the same capsule meanwhile, and must find it taken.
    source = np.arange(4 << 20, dtype=np.float32)
    forged = ForgedTensor(source)
    cap = forged.capsule()
    results = []
    refused = []

    def work(i):
        try:
            results.append(shim.from_dlpack(cap, copy=True))
        except ValueError as e:
            refused.append(str(e))

    run_threads(work)
    assert len(results) == 1 and len(refused) == THREADS - 1
    assert all("already consumed" in message for message in refused)
    assert forged.deleted == 1  # the copy released the producer once
    np.testing.assert_array_equal(np.asarray(results[0]), source)


@contextlib.contextmanager
def progress_counter():
    """A thread that counts while it holds the GIL, sleeping between counts.

    With a switch interval far longer than any call below, the thread can
    only take the GIL when the main thread lets it go: a count that moves
    during a call proves the call released the GIL, and one that stays put
    that it did not."""
    state = {"count": 0, "stop": False}

    def count():
        while not state["stop"]:
            state["count"] += 1
            time.sleep(0.0002)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    thread = threading.Thread(target=count)
    thread.start()
    try:
        yield state
    finally:
        state["stop"] = True
        sys.setswitchinterval(interval)
        thread.join(timeout=30)


def calls_letting_others_run(call, attempts, stop_at_first=False):
    """How many of `attempts` calls of call() let another thread run."""
    moved = 0
    with progress_counter() as state:
        for _ in range(attempts):
            before = state["count"]
            call()
            moved += state["count"] != before
            if moved and stop_at_first:
                break
    return moved


def big_and_small(shim):
    cpus = shim.local_devices("cpu")
    big = np.ones((4096, 4096), np.float32)  # 64 MiB
    small = np.ones((64, 64), np.float32)  # 16 KiB
    return cpus, big, small


@pytest.mark.parametrize("case", ["gather", "device_put", "import_copy",
                                  "export_copy", "__array__"])
def test_large_copies_release_the_gil_and_small_ones_keep_it(shim, case):
    cpus, big, small = big_and_small(shim)
    arrays = {n: (shim.device_put(x, cpus, axis=0),
                  shim.device_put(x, cpus[0]), x)
              for n, x in (("big", big), ("small", small))}

    def call(size):
        split, single, host = arrays[size]
        if case == "gather":
            return lambda: shim.device_put(split, cpus[1])
        if case == "device_put":
            return lambda: shim.device_put(host, cpus, axis=0)
        if case == "import_copy":
            return lambda: shim.from_dlpack(host, copy=True)
        if case == "export_copy":
            return lambda: single.__dlpack__(max_version=(1, 1), copy=True)
        return lambda: np.asarray(single)

    assert calls_letting_others_run(call("big"), 20, stop_at_first=True)
    assert calls_letting_others_run(call("small"), 5) == 0
