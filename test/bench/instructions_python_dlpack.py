#!/usr/bin/env python3
"""Instructions per call of DLPack exchange through interop_shim, beside
NumPy's own, counted by valgrind's callgrind (deterministic, unlike wall time
on a shared machine).

A benchmark, not a test: it prints a table and asserts nothing. Each
statement runs in a loop of --calls iterations in a fresh interpreter under
callgrind, and again with no iteration; the difference divided by the count
is the cost of one iteration, loop included (the same loop for every row, so
ratios compare like with like). NumPy's AVX-512 kernels are switched off
(valgrind cannot run them) and hashing is made deterministic.

    PYTHONPATH=<build>/python /usr/bin/python3 \\
        test/bench/instructions_python_dlpack.py
"""

import argparse
import os
import re
import subprocess
import sys

SETUP = """
import numpy as np, interop_shim as shim
x = np.ones((64, 64), np.float32)
a = shim.device_put(x)
"""

# (label, statement, reference label)
CASES = [
    ("np.from_dlpack(x)", "np.from_dlpack(x)", None),
    ("shim.from_dlpack(x)", "shim.from_dlpack(x)", "np.from_dlpack(x)"),
    ("x.__dlpack__()", "x.__dlpack__()", None),
    ("a.__dlpack__()", "a.__dlpack__()", "x.__dlpack__()"),
]

AVX512 = ("AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL "
          "AVX512VL AVX512BW AVX512DQ")


def collected(statement, calls):
    script = SETUP + f"for _ in range({calls}):\n    {statement}\n"
    env = dict(os.environ, PYTHONHASHSEED="0", NPY_DISABLE_CPU_FEATURES=AVX512)
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", script],
        env=env, capture_output=True, text=True, check=True)
    match = re.search(r"Collected : (\d+)", run.stderr)
    if not match:
        raise SystemExit("callgrind printed no total:\n" + run.stderr[-2000:])
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    per_call = {}
    for label, statement, _ in CASES:
        base = collected(statement, 0)
        total = collected(statement, args.calls)
        per_call[label] = (total - base) / args.calls
    print("| call | instructions | ratio to NumPy |")
    print("|---|---:|---:|")
    for label, _, reference in CASES:
        ratio = (f"{per_call[label] / per_call[reference]:.3f}"
                 if reference else "")
        print(f"| `{label}` | {per_call[label]:,.0f} | {ratio} |")


if __name__ == "__main__":
    main()
