#!/usr/bin/env python3
"""Per-call cost of DLPack exchange through interop_shim, beside NumPy's own.

A benchmark, not a test: it prints a table and asserts nothing. Every case
is timed with timeit in the same process, and the repetitions of all cases
are interleaved (round-robin) so that frequency scaling or a noisy neighbour
affects them alike. Each call's capsule or array is dropped inside the timed
statement, so an export is measured together with its release.

Three producers hand the same (64, 64) float32 contents to both consumers,
`np.from_dlpack` and `interop_shim.from_dlpack`: a NumPy array, a PyTorch
tensor (skipped without torch) and a shim Array. Each import is reported
with its ratio to `np.from_dlpack` of the same object, each export with its
ratio to NumPy's `__dlpack__`.

    PYTHONPATH=<build>/python /usr/bin/python3 test/bench/bench_python_dlpack.py
"""

import argparse
import statistics
import sys
import time
import timeit

import numpy as np

import interop_shim as shim

try:
    import torch
except ImportError:  # pragma: no cover - Debian's python3-torch is optional
    torch = None

# (producer, label, statement, reference label): `x` is a NumPy array, `t`
# a torch tensor, `a` a shim Array, all of equal contents on the CPU.
CASES = [
    ("numpy", "np.from_dlpack(x)", "np_from(x)", None),
    ("numpy", "shim.from_dlpack(x)", "shim_from(x)", "np.from_dlpack(x)"),
    ("torch", "np.from_dlpack(t)", "np_from(t)", None),
    ("torch", "shim.from_dlpack(t)", "shim_from(t)", "np.from_dlpack(t)"),
    ("shim", "np.from_dlpack(a)", "np_from(a)", None),
    ("shim", "shim.from_dlpack(a)", "shim_from(a)", "np.from_dlpack(a)"),
    ("numpy", "x.__dlpack__()", "x.__dlpack__()", None),
    ("shim", "a.__dlpack__()", "a.__dlpack__()", "x.__dlpack__()"),
    ("shim", "a.__dlpack__(max_version=(1, 1))", "a.__dlpack__(max_version=v)",
     "x.__dlpack__()"),
    ("torch", "t.__dlpack__()", "t.__dlpack__()", "x.__dlpack__()"),
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
           "np_from": np.from_dlpack, "shim_from": shim.from_dlpack}
    cases = CASES
    if torch is not None:
        env["t"] = torch.ones(args.shape, dtype=torch.float32)
    else:
        cases = [c for c in CASES if c[0] != "torch"]
    timers = [timeit.Timer(stmt, timer=clock, globals=env)
              for _, _, stmt, _ in cases]
    for timer in timers:  # warm up caches and the legacy-producer memo
        timer.timeit(number=1000)
    samples = [[] for _ in cases]
    for _ in range(args.repeat):
        for timer, out in zip(timers, samples):
            out.append(timer.timeit(number=args.number) / args.number * 1e9)

    torch_text = f", PyTorch {torch.__version__}" if torch is not None else ""
    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}"
          f"{torch_text}, shape {tuple(args.shape)} float32, {args.repeat} x "
          f"{args.number} calls per case, {args.clock} clock")
    print()
    print("| producer | call | min ns | median ns | ratio to NumPy "
          "(min / median) |")
    print("|---|---|---:|---:|---:|")
    figures = {label: (min(values), statistics.median(values))
               for (_, label, _, _), values in zip(cases, samples)}
    for producer, label, _, reference in cases:
        low, mid = figures[label]
        ratio = ""
        if reference:
            ref_low, ref_mid = figures[reference]
            ratio = f"{low / ref_low:.2f} / {mid / ref_mid:.2f}"
        print(f"| {producer} | `{label}` | {low:.0f} | {mid:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
