#!/usr/bin/env python3
"""expect_exit.py STATUS COMMAND...: runs COMMAND (stdout and stderr passed
through) and fails unless it exits with exactly STATUS. lit's `not` accepts
any non-zero status; the gate's exit codes are documented, so tests pin them.
"""
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit("usage: expect_exit.py STATUS COMMAND...")
want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect_exit: %s exited %d, expected %d\n"
                     % (sys.argv[2], got, want))
    sys.exit(1)
