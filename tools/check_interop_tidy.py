#!/usr/bin/env python3
"""Runs one interop-tidy check over a lit test file and verifies its output.

The project's equivalent of LLVM's check_clang_tidy.py (which Debian does not
ship), written for this project:

  check_interop_tidy.py [options] FILE CHECKS TMP [-- TIDY_ARGS [-- CC_ARGS]]

  FILE    the test source; its CHECK-MESSAGES[-SUFFIX] and CHECK-FIXES[-SUFFIX]
          lines are the expectations.
  CHECKS  the check name(s) to enable, comma-separated (after "-*").
  TMP     a temporary path (lit's %t).

Diagnostics at one place are ordered by message (clang-tidy 22's order;
19 orders them by check name). Every warning and error must be matched:
FileCheck runs with --implicit-check-not for "warning:" and "error:". A
file with no CHECK-MESSAGES lines must produce no warning at all. If the
file has CHECK-FIXES lines, the check's fixes are applied to a copy and that
copy is checked too.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def split_args(argv):
    """Splits argv at the first and second '--'."""
    parts = [[], [], []]
    index = 0
    for arg in argv:
        if arg == "--" and index < 2:
            index += 1
            continue
        parts[index].append(arg)
    return parts


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kwargs)
    return proc.returncode, proc.stdout


DIAGNOSTIC = re.compile(r"^(.+?:\d+:\d+): (warning|error): (.*)$")


def order_by_place(out):
    """Orders the diagnostics reported at one place by message, as clang-tidy
    22 does; clang-tidy 19 orders them by check name first. Each diagnostic
    keeps the lines under it (its source excerpt and notes), so expectations
    read the same whichever LLVM the plugin is built for."""
    head, blocks = [], []
    for line in out.splitlines():
        if DIAGNOSTIC.match(line):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        else:
            head.append(line)
    ordered, i = [], 0
    while i < len(blocks):
        place = DIAGNOSTIC.match(blocks[i][0]).group(1)
        j = i
        while (j < len(blocks)
               and DIAGNOSTIC.match(blocks[j][0]).group(1) == place):
            j += 1
        ordered += sorted(blocks[i:j],
                          key=lambda b: DIAGNOSTIC.match(b[0]).group(3))
        i = j
    return "\n".join(head + [l for b in ordered for l in b])


def main():
    own, tidy_args, cc_args = split_args(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--filecheck", default="FileCheck")
    parser.add_argument("-check-suffix", "--check-suffix", dest="suffix",
                        default="", help="use CHECK-MESSAGES-SUFFIX lines")
    parser.add_argument("--allow-compile-errors", action="store_true",
                        help="the input is meant not to compile")
    parser.add_argument("file")
    parser.add_argument("checks")
    parser.add_argument("tmp")
    args = parser.parse_args(own)

    suffix = "-" + args.suffix if args.suffix else ""
    messages_prefix = "CHECK-MESSAGES" + suffix
    fixes_prefix = "CHECK-FIXES" + suffix
    with open(args.file, encoding="utf-8") as f:
        source = f.read()
    has_messages = re.search(r"\b%s:" % re.escape(messages_prefix), source)
    has_fixes = re.search(r"\b%s:" % re.escape(fixes_prefix), source)

    os.makedirs(os.path.dirname(os.path.abspath(args.tmp)), exist_ok=True)
    ext = os.path.splitext(args.file)[1] or ".cpp"
    work = args.tmp + ext
    shutil.copyfile(args.file, work)
    if not cc_args:
        cc_args = ["-std=c++17"]
    cmd = [args.clang_tidy, "--load=" + args.plugin,
           "-checks=-*," + args.checks, "--quiet"]
    if has_fixes:
        # Warnings' fix-its, and a note's where its warning has none.
        cmd += ["-fix", "-fix-notes"]
    cmd += tidy_args + [work, "--"] + cc_args
    code, out = run(cmd)
    # clang-tidy names the copy; point the diagnostics back at the test file
    # so [[@LINE]] expectations read naturally.
    out = out.replace(work, args.file)
    out = "\n".join(l for l in out.splitlines()
                    if not re.match(r"^\d+ (warning|error)s? generated\.$", l)
                    and not l.startswith("Suppressed ")
                    and not l.startswith("Use -header-filter")
                    and not l.startswith("Error while processing")
                    # The source excerpt under a diagnostic: a fix-it that
                    # spans lines shows the lines between, test comments
                    # with "warning:" in them included.
                    and not re.match(r"^\s*\d*\s*\|", l))
    out = order_by_place(out)
    sys.stdout.write("clang-tidy exited %d; output:\n%s\n" % (code, out))
    if code != 0 and not args.allow_compile_errors:
        if re.search(r"error:", out):
            print("FAIL: clang-tidy reported errors (compile errors?)")
            return 1

    out_path = args.tmp + ".msgs"
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(out + "\n")
    if has_messages:
        code, fc = run([args.filecheck, "--input-file=" + out_path, args.file,
                        "--check-prefix=" + messages_prefix,
                        "--implicit-check-not={{warning|error}}:"])
        if code != 0:
            sys.stdout.write(fc)
            return 1
    elif re.search(r"(warning|error):", out):
        print("FAIL: expected no diagnostics (no %s lines)" % messages_prefix)
        return 1
    if has_fixes:
        code, fc = run([args.filecheck, "--input-file=" + work, args.file,
                        "--check-prefix=" + fixes_prefix, "--strict-whitespace"])
        if code != 0:
            sys.stdout.write(fc)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
