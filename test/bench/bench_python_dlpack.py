#!/usr/bin/env python3
"""Per-call cost of DLPack exchange through interop_shim, beside NumPy's own.

A benchmark, not a test: it prints a table and asserts nothing. Every case
is timed with timeit in the same process, and the repetitions of all cases
are interleaved (round-robin) so that frequency scaling or a noisy neighbour
affects them alike. Each call's capsule or array is dropped inside the timed
statement, so an export is measured together with its release.

    PYTHONPATH=<build>/python /usr/bin/python3 test/bench/bench_python_dlpack.py
"""

import argparse
import statistics
import sys
import time
import timeit

import numpy as np

import interop_shim as shim

# (label, statement); `x` is a NumPy array, `a` a shim Array of equal
# contents on the CPU device.
CASES = [
    ("numpy: x.__dlpack__()", "x.__dlpack__()"),
    ("shim:  a.__dlpack__()", "a.__dlpack__()"),
    ("shim:  a.__dlpack__(max_version=(1, 1))",
     "a.__dlpack__(max_version=v)"),
    ("numpy: np.from_dlpack(x)", "from_numpy(x)"),
    ("shim:  from_dlpack(x)  (x: NumPy array)", "from_shim(x)"),
    ("shim:  from_dlpack(a)  (a: shim Array)", "from_shim(a)"),
    ("numpy: np.from_dlpack(a)  (a: shim Array)", "from_numpy(a)"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000,
                        help="calls per timing (default 20000)")
    parser.add_argument("--repeat", type=int, default=40,
                        help="timings per case (default 40)")
    parser.add_argument("--shape", type=int, nargs="+", default=[64, 64],
                        help="array shape (default 64 64)")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall: time.perf_counter (default); cpu: "
                        "time.process_time, which leaves out the time other "
                        "processes take the CPU on a loaded machine")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time

    x = np.ones(args.shape, dtype=np.float32)
    a = shim.device_put(x)
    env = {"x": x, "a": a, "v": tuple(shim.DLPACK_VERSION),
           "from_numpy": np.from_dlpack, "from_shim": shim.from_dlpack}
    timers = [timeit.Timer(stmt, timer=clock, globals=env)
              for _, stmt in CASES]
    for timer in timers:  # warm up caches and the legacy-producer memo
        timer.timeit(number=1000)
    samples = [[] for _ in CASES]
    for _ in range(args.repeat):
        for timer, out in zip(timers, samples):
            out.append(timer.timeit(number=args.number) / args.number * 1e9)

    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}, "
          f"shape {tuple(args.shape)} float32, {args.repeat} x "
          f"{args.number} calls per case, {args.clock} clock")
    print()
    print("| call | min ns | median ns |")
    print("|---|---:|---:|")
    for (label, _), values in zip(CASES, samples):
        print(f"| `{label}` | {min(values):.0f} | "
              f"{statistics.median(values):.0f} |")


if __name__ == "__main__":
    main()
