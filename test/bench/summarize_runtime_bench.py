#!/usr/bin/env python3
"""Min and median of each runtime_bench benchmark over its repetitions.

Google Benchmark's aggregates give the median but not the minimum, which on
a shared, loaded machine is the steadier figure. Reads the JSON written by

    runtime_bench --benchmark_repetitions=5 --benchmark_format=json \\
        --benchmark_out=runtime_bench.json

and prints a Markdown table: real and CPU time per call (min / median),
throughput at those times where the benchmark counts bytes, and the
allocation counters. With two files (before, after) it prints both.
"""

import collections
import json
import statistics
import sys


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} us"
    return f"{ns:.0f} ns"


def summarize(path):
    with open(path) as f:
        data = json.load(f)
    runs = collections.OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        runs.setdefault(b["run_name"], []).append(b)
    ctx = data["context"]
    load = ", ".join(f"{x:.2f}" for x in ctx.get("load_avg", []))
    print(f"{path}: {ctx.get('num_cpus')} CPUs, load average {load}")
    print()
    print("| benchmark | real min | real median | CPU min | CPU median "
          "| GB/s (at real min / median) | counters |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, reps in runs.items():
        unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[reps[0]["time_unit"]]
        real = [r["real_time"] * unit for r in reps]
        cpu = [r["cpu_time"] * unit for r in reps]
        rate = ""
        if "bytes_per_second" in reps[0]:
            # bytes per iteration, recovered from any repetition
            r0 = reps[0]
            per_iter = r0["bytes_per_second"] * r0["real_time"] * unit / 1e9
            rate = (f"{per_iter / min(real):.2f} / "
                    f"{per_iter / statistics.median(real):.2f}")
        counters = ", ".join(
            f"{k}={reps[0][k]:g}" for k in ("allocs_per_export",
                                            "allocs_per_import",
                                            "rss_start_kib", "rss_end_kib",
                                            "rss_growth_kib")
            if k in reps[0])
        print(f"| `{name}` | {fmt_time(min(real))} | "
              f"{fmt_time(statistics.median(real))} | {fmt_time(min(cpu))} | "
              f"{fmt_time(statistics.median(cpu))} | {rate} | {counters} |")
    print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        summarize(path)


if __name__ == "__main__":
    main()
