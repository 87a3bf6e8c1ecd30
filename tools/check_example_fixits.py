#!/usr/bin/env python3
"""Applies every fix-it the interop-* checks offer on examples/ and checks
the result: at least one fix-it applied, each fixed finding gone, every file
still compiles.

  check_example_fixits.py BUILD_DIR WORK_DIR

The examples are copied into WORK_DIR and compiled there with the flags the
compile database gives them; `interop-tidy --fix-notes` applies fix-its of
warnings and of notes alike (a note's fix-it changes behaviour and is only
applied when asked: that is what this test asks).
"""

import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from compare_findings import example_commands  # noqa: E402

WARNING = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: warning: .* \[(?P<check>interop-[a-z0-9-]+)\]$")


def fail(message):
    print(f"example-fixits: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def compiler_of(build):
    """The C++ compiler the build was configured with."""
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        if line.startswith("CMAKE_CXX_COMPILER:"):
            return line.split("=", 1)[1]
    fail("no CMAKE_CXX_COMPILER in the build's cache")


def findings(tidy, files, flags, extra=()):
    run = subprocess.run([str(tidy), "--checks=-*,interop-*", *extra, *map(str, files), "--", *flags],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        print(run.stdout, run.stderr)
        fail(f"interop-tidy exited {run.returncode}")
    found = set()
    for line in run.stdout.splitlines():
        m = WARNING.match(line)
        if m:
            found.add((pathlib.Path(m["file"]).name, int(m["line"]), m["check"]))
    return found, run.stdout


def main():
    build, work = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    root = pathlib.Path(__file__).resolve().parent.parent
    tidy = build / "bin" / "interop-tidy"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sources = sorted((root / "examples").glob("*.cpp"))
    # The examples share their flags (one CMake target); the compile
    # database's reader is compare_findings.py's.
    commands = example_commands(str(build))
    if not commands:
        fail("examples/ is not in the compile database")
    flags = commands[0][1]
    compiler = compiler_of(build)
    copies = []
    for source in sources:
        copy = work / source.name
        shutil.copy(source, copy)
        copies.append(copy)
    before, _ = findings(tidy, copies, flags)
    # The findings with a fix-it, from --export-fixes.
    fixes = work / "fixes.yaml"
    findings(tidy, copies, flags, [f"--export-fixes={fixes}"])
    text = fixes.read_text() if fixes.exists() else ""
    if "ReplacementText" not in text:
        fail("no fix-it offered on examples/")
    findings(tidy, copies, flags, ["--fix-notes"])
    changed = [c.name for c, s in zip(copies, sources) if c.read_text() != s.read_text()]
    if not changed:
        fail("--fix-notes changed no file")
    after, output = findings(tidy, copies, flags)
    if not after < before:
        print(output)
        fail(f"no finding went away: before {sorted(before)}, after {sorted(after)}")
    new = after - before
    if new:
        fail(f"the fixes brought findings: {sorted(new)}")
    for copy in copies:
        run = subprocess.run([compiler, *flags, "-fsyntax-only", str(copy)], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr)
            fail(f"{copy.name} does not compile after the fixes")
    gone = sorted(before - after)
    print(f"example-fixits: PASS: fixed {', '.join(changed)}; gone: "
          + "; ".join(f"{f}:{l} {c}" for f, l, c in gone))


if __name__ == "__main__":
    main()
