#!/bin/sh
# Runs interop-tidy on one source file for the Bazel aspect in
# interop_tidy.bzl and writes clang-tidy's stdout (the findings) to REPORT.
#
#   run_interop_tidy.sh REPORT SOURCE [COMPILE_FLAG...]
#
# What to run comes from the environment, which users set with
# --action_env (the action uses Bazel's default shell environment):
#   INTEROP_TIDY          the interop-tidy wrapper, or a clang-tidy 22
#                         (default: interop-tidy on PATH)
#   INTEROP_TIDY_PLUGIN   InteropTidy.so, loaded with --load; only for a
#                         plain clang-tidy (the wrapper loads its own)
#   INTEROP_TIDY_CHECKS   the checks (default: -*,interop-*)
#   INTEROP_TIDY_WARNINGS_AS_ERRORS
#                         checks whose findings fail the build (default:
#                         none, so findings are only reported)
# Findings alone exit 0. Any other failure of clang-tidy (the plugin is
# missing or refuses this clang-tidy, a crash, a file that does not compile,
# findings of a check named in INTEROP_TIDY_WARNINGS_AS_ERRORS) fails the
# action with clang-tidy's status and output, so a build with the aspect is
# never green without having analysed every file.
report=$1
source=$2
shift 2

tidy=${INTEROP_TIDY:-interop-tidy}
checks=${INTEROP_TIDY_CHECKS:--*,interop-*}
set -- "--checks=$checks" "$source" -- "$@"
if [ -n "${INTEROP_TIDY_WARNINGS_AS_ERRORS:-}" ]; then
  set -- "--warnings-as-errors=$INTEROP_TIDY_WARNINGS_AS_ERRORS" "$@"
fi
if [ -n "${INTEROP_TIDY_PLUGIN:-}" ]; then
  set -- "--load=$INTEROP_TIDY_PLUGIN" "$@"
fi

errors=$(mktemp "${TMPDIR:-/tmp}/interop-tidy.XXXXXX") || exit 1
trap 'rm -f "$errors" "$errors.report"' EXIT
"$tidy" "$@" >"$report" 2>"$errors"
status=$?

# clang-tidy names files by absolute path, which here is the action's
# sandbox: make them relative to the execution root, so that a report says
# the same on every machine and can come from a remote cache.
root=$(pwd -P)
root_pattern=$(printf '%s/' "$root" | sed 's/[][\.*^$|]/\\&/g')
sed "s|^$root_pattern||" "$report" >"$errors.report" &&
  mv "$errors.report" "$report"

if [ "$status" -ne 0 ]; then
  echo "interop-tidy: $tidy exited with status $status on $source" >&2
  cat "$errors" "$report" >&2
  exit "$status"
fi
# Findings are shown like compiler warnings; the report keeps them.
if [ -s "$report" ]; then
  cat "$report" >&2
fi
exit 0
