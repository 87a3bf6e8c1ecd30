#!/usr/bin/env bash
# The second LLVM major gives the same findings: runs each build's plugin
# with its own clang-tidy over examples/*.cpp (with BUILD22's compile
# database, which both majors read) and fails when the findings differ.
#
# usage: tools/compare_majors.sh BUILD22 BUILDN N
set -euo pipefail
cd "$(dirname "$0")/.."
b22=${1:?usage: compare_majors.sh BUILD22 BUILDN N}
bn=${2:?usage: compare_majors.sh BUILD22 BUILDN N}
major=${3:?usage: compare_majors.sh BUILD22 BUILDN N}
mapfile -t sources < <(ls examples/*.cpp)
findings() { # clang-tidy plugin: the findings, one per line, sorted
  "$1" --load="$2" --checks='-*,interop-*' -p "$b22" --quiet "${sources[@]}" \
    2>/dev/null | grep -E '(warning|error|note): ' | sort
}
t22=$(mktemp) tn=$(mktemp)
trap 'rm -f "$t22" "$tn"' EXIT
findings clang-tidy-22 "$b22/checks/InteropTidy.so" >"$t22"
findings "clang-tidy-$major" "$bn/checks/InteropTidy.so" >"$tn"
if ! grep -q 'warning: ' "$t22"; then
  echo "compare-majors: clang-tidy-22 reported nothing on examples/" >&2
  exit 1
fi
if ! diff -u "$t22" "$tn"; then
  echo "compare-majors: clang-tidy-$major and clang-tidy-22 differ (above)" >&2
  exit 1
fi
echo "compare-majors: $(grep -c 'warning: ' "$t22") findings, the same on" \
  "clang-tidy-22 and clang-tidy-$major"
