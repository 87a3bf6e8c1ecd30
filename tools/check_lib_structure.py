#!/usr/bin/env python3
"""Fails when lib/ loses the shape docs/architecture.md promises.

usage: check_lib_structure.py [--root DIR] [--max-lines N]
       check_lib_structure.py --self-test

Two rules, over lib/**/*.{h,cpp}:

include-loop
    A unit is a header and its source with the same path less the
    extension (lib/engine/FactCache.h and .cpp). Unit A depends on unit B
    when a file of A includes B's header ("lib/.../B.h"). A loop is a set of
    two or more units that depend on each other, directly or through
    others: such units can only be understood, tested and changed together,
    and a change to any of them rebuilds all. Each loop is printed with the
    edges inside it.

long-file
    A source or header over --max-lines lines (800): the place a reader
    goes for one capability should fit in one sitting.

The exit status is 1 when there is any hit, 0 with a one-line summary when
there is none. --self-test builds a small tree with one of each and checks
that both are reported.
"""

import argparse
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"(lib/[^"]+)"')


def units(root):
    """{unit: set(files)} for lib/ under root (unit: path less extension)."""
    out = {}
    lib = os.path.join(root, "lib")
    for dirpath, _, files in os.walk(lib):
        for name in files:
            if name.endswith((".h", ".cpp")):
                path = os.path.relpath(os.path.join(dirpath, name), root)
                out.setdefault(os.path.splitext(path)[0], set()).add(path)
    return out


def edges(root, unit_files):
    """{unit: set(units it includes)}."""
    out = {u: set() for u in unit_files}
    for unit, files in unit_files.items():
        for path in files:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if m:
                        target = os.path.splitext(m.group(1))[0]
                        if target in out and target != unit:
                            out[unit].add(target)
    return out


def loops(graph):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check(root, max_lines, out=sys.stdout):
    unit_files = units(root)
    graph = edges(root, unit_files)
    hits = 0
    for component in loops(graph):
        hits += 1
        print("include-loop: " + ", ".join(component), file=out)
        for u in component:
            inside = sorted(graph[u] & set(component))
            print("  %s -> %s" % (u, ", ".join(inside)), file=out)
    for files in unit_files.values():
        for path in sorted(files):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                n = sum(1 for _ in f)
            if n > max_lines:
                hits += 1
                print("long-file: %s: %d lines (at most %d)" %
                      (path, n, max_lines), file=out)
    if not hits:
        print("lib/: %d units, no include loop, none over %d lines" %
              (len(unit_files), max_lines), file=out)
    return 1 if hits else 0


def self_test():
    import io
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        write("lib/a/A.h", "#pragma once\n")
        write("lib/a/A.cpp", '#include "lib/a/A.h"\n#include "lib/a/B.h"\n')
        write("lib/a/B.h", "#pragma once\n")
        write("lib/a/B.cpp", '#include "lib/a/B.h"\n#include "lib/a/A.h"\n')
        write("lib/a/C.cpp", '#include "lib/a/A.h"\n' + "int x;\n" * 20)
        buf = io.StringIO()
        status = check(root, 10, buf)
        text = buf.getvalue()
        ok = (status == 1 and "include-loop: lib/a/A, lib/a/B" in text and
              "long-file: lib/a/C.cpp: 21 lines" in text and
              "lib/a/C" not in text.split("long-file")[0])
        write("lib/a/B.cpp", '#include "lib/a/B.h"\n')
        write("lib/a/C.cpp", '#include "lib/a/A.h"\n')
        buf = io.StringIO()
        ok = ok and check(root, 10, buf) == 0
    print("self-test: " + ("passed" if ok else "FAILED\n" + text))
    return 0 if ok else 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--max-lines", type=int, default=800)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    return check(args.root, args.max_lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
