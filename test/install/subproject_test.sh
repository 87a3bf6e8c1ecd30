#!/usr/bin/env bash
# The subproject test (ctest install-subproject): a parent project
# (test/install/parent) add_subdirectory's the source with its defaults.
#
#   subproject_test.sh SOURCE_DIR WORK_DIR CMAKE_ARGS...
#
# The parent is configured without a build type, and with GoogleTest,
# Google Benchmark, LLVM and Clang made unfindable: the embedded project must
# neither force the parent's build type (it stays empty) nor need any of
# them. Its build must contain no test, benchmark, fuzzer, plugin or Python
# target and register no ctest test; both interop::shim and
# interop::shim_static link and run the consumer's round trip.
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
shift 2

die() {
  echo "subproject-test: FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
cmake -S "$src/test/install/parent" -B "$work" -G Ninja \
  -DINTEROP_SOURCE_DIR="$src" \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Clang=ON \
  "$@" >"$work.configure.log" 2>&1 ||
  { cat "$work.configure.log"; die "the parent does not configure"; }

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$work/CMakeCache.txt")
echo "parent's CMAKE_BUILD_TYPE after configuring: '$build_type'"
[ -z "$build_type" ] || die "the embedded project set the parent's build type to '$build_type'"

ninja -C "$work" -t targets all | sed 's/:.*//' >"$work.targets"
for t in runtime_tests lib_tests dlpack_import_fuzzer runtime_bench InteropTidy \
  interop_shim_python interop_analysis lint-example; do
  if grep -qE "(^|/)(lib)?$t(\.so|\.a|\.cpython[^/]*)?$" "$work.targets"; then
    die "the parent's build has the project's $t target"
  fi
done
tests=$(cd "$work" && ctest -N | sed -n 's/^Total Tests: //p')
[ "${tests:-0}" -eq 0 ] || die "the parent's ctest has $tests tests of the project"

cmake --build "$work" >"$work.build.log" 2>&1 ||
  { cat "$work.build.log"; die "the parent does not build"; }
echo "compiled files: $(grep -c "Building CXX" "$work.build.log" || true)"
for exe in parent_shared parent_static; do
  out=$("$work/$exe") || die "$exe failed: $out"
  echo "$exe: $out"
  case $out in *"round trip ok"*) ;; *) die "$exe printed no round trip line" ;; esac
done
echo "subproject-test: PASS"
