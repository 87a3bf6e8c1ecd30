#!/usr/bin/env python3
"""Compares the interop-* findings of two plugin builds, line by line.

  compare_findings.py --before OLD.so [--after NEW.so] [--build BUILD]
  compare_findings.py --save DIR [--after NEW.so]     (record a baseline)
  compare_findings.py --baseline DIR [--after NEW.so] (compare with one)

A restructuring of lib/ or checks/ must not change what the checks report.
This runs clang-tidy with every interop-* check over the translation units
tools/bench_checks.py generates (interop.cpp, counts.cpp, plain.cpp,
dlpack.cpp) and over the bundled examples/, once per plugin, and prints the
differences. The output compared is clang-tidy's, with the path of the
scratch directory removed. Exit status: 0 identical, 1 different, 2 a run
failed.
"""
import argparse
import difflib
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import sysconfig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_bench():
    spec = importlib.util.spec_from_file_location(
        "bench_checks", os.path.join(ROOT, "tools", "bench_checks.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def generate(out, functions):
    """The benchmark's translation units, written under `out`."""
    bench = load_bench()
    os.makedirs(out, exist_ok=True)
    files = {}
    for kind in ("interop", "counts", "plain", "dlpack"):
        if kind == "dlpack":
            text = bench.render_dlpack(functions)
        else:
            text = bench.render("interop" if kind == "counts" else kind,
                                functions)
            if kind == "counts":
                for v in ("a", "b"):
                    text = text.replace(v + ".is_single_device()",
                                        "(" + v + ".num_devices() == 1)")
        path = os.path.join(out, kind + ".cpp")
        with open(path, "w") as f:
            f.write(text)
        files[kind] = path
    return files


def example_commands(build):
    """(source, compiler arguments) of each examples/*.cpp, from the build's
    compile database."""
    db = os.path.join(build, "compile_commands.json")
    with open(db) as f:
        entries = json.load(f)
    found = []
    for e in entries:
        src = os.path.realpath(e["file"])
        if os.path.dirname(src) != os.path.join(ROOT, "examples"):
            continue
        args = e.get("arguments") or shlex.split(e["command"])
        # Drop the compiler, the output and the source; keep the flags.
        flags, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
                continue
            if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
                skip = a != "-c"
                continue
            if os.path.realpath(os.path.join(e["directory"], a)) == src:
                continue
            flags.append(a)
        found.append((src, flags, e["directory"]))
    return sorted(found)


def run(clang_tidy, plugin, src, flags, cwd, scratch):
    cmd = [clang_tidy, "--load=" + plugin, "--quiet", "-checks=-*,interop-*",
           src, "--"] + flags
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    text = proc.stdout.replace(scratch + os.sep, "").replace(ROOT + os.sep, "")
    lines = [l for l in text.splitlines()
             if "warnings generated" not in l and "warning generated" not in l]
    if proc.returncode not in (0, 1):
        sys.stderr.write(text[-3000:])
        raise SystemExit("compare_findings: clang-tidy failed on " + src)
    return lines


def collect(args, plugin, files):
    include = os.path.join(ROOT, "runtime", "include")
    python_include = sysconfig.get_paths()["include"]
    base_flags = ["-std=c++17", "-I" + include, "-isystem", python_include]
    outputs = {}
    for kind, path in sorted(files.items()):
        outputs[kind] = run(args.clang_tidy, plugin, path, base_flags, ROOT,
                            args.out)
    for src, flags, cwd in example_commands(args.build):
        name = "examples/" + os.path.basename(src)
        outputs[name] = run(args.clang_tidy, plugin, src, flags, cwd, args.out)
    return outputs


def findings(lines):
    return sum(1 for l in lines if ": warning: " in l)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the plugin to compare against")
    ap.add_argument("--after", help="the plugin under test "
                    "(default: BUILD/checks/InteropTidy.so)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--functions", type=int, default=300)
    ap.add_argument("--out", default=None, help="scratch directory")
    ap.add_argument("--save", help="write the outputs of --after to DIR")
    ap.add_argument("--baseline", help="compare --after with outputs saved "
                    "by --save in DIR")
    args = ap.parse_args()
    if sum(bool(x) for x in (args.before, args.save, args.baseline)) != 1:
        ap.error("give exactly one of --before, --save, --baseline")
    args.build = os.path.abspath(args.build)
    args.out = os.path.abspath(args.out or os.path.join(args.build,
                                                        "compare-findings"))
    after = os.path.abspath(args.after or os.path.join(
        args.build, "checks", "InteropTidy.so"))
    files = generate(args.out, args.functions)
    new = collect(args, after, files)
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        with open(os.path.join(args.save, "findings.json"), "w") as f:
            json.dump(new, f, indent=0)
        for name, lines in sorted(new.items()):
            print(f"saved {name}: {findings(lines)} findings")
        return 0
    if args.baseline:
        with open(os.path.join(args.baseline, "findings.json")) as f:
            old = json.load(f)
    else:
        old = collect(args, os.path.abspath(args.before), files)
    status = 0
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name, []), new.get(name, [])
        if a == b:
            print(f"identical {name}: {findings(b)} findings")
            continue
        status = 1
        print(f"DIFFERENT {name}: {findings(a)} -> {findings(b)} findings")
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
            a, b, "before/" + name, "after/" + name, lineterm="", n=1))
    return status


if __name__ == "__main__":
    sys.exit(main())
