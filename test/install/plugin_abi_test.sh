#!/usr/bin/env bash
# The plugin ABI test (ctest install-plugin-abi): a plugin compiled by a
# compiler whose C++ ABI differs from clang-tidy's (GCC 12 against
# clang-tidy-22) must be refused, never built into a plugin that fails later.
#
#   plugin_abi_test.sh SOURCE_DIR WORK_DIR GXX GCC CLANG_TIDY PLUGIN LLVM_MAJOR
#
# 1. Configuring the project with GXX fails at configure time, and the
#    message names the undefined symbol and the compiler to use.
# 2. The build's smoke step (cmake/InteropPluginSmoke.cmake, run after every
#    link of the plugin) rejects the GXX-built probe plugin that step 1 left
#    behind, and removes it; it accepts a copy of the real PLUGIN.
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
gxx=$3
gcc=$4
clang_tidy=$5
plugin=$6
llvm_major=$7

die() {
  echo "plugin-abi-test: FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
if cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_CXX_COMPILER="$gxx" \
  -DCMAKE_C_COMPILER="$gcc" -DINTEROP_ENABLE_TESTS=OFF \
  -DINTEROP_ENABLE_BENCHMARKS=OFF -DINTEROP_ENABLE_PYTHON=OFF \
  >"$work/configure.log" 2>&1; then
  die "configuring the plugin with $gxx succeeded"
fi
sed -n '/^CMake Error at .*InteropPluginProbe/,/^Call Stack/p' "$work/configure.log" |
  tee "$work/refusal.txt"
# CMake wraps the message: match it as one line.
refusal=$(tr -s ' \n' '  ' <"$work/refusal.txt")
case $refusal in *"does not load into"*) ;; *) cat "$work/configure.log"; die "no refusal message" ;; esac
case $refusal in *"undefined symbol"*) ;; *) die "the refusal does not name the undefined symbol" ;; esac
case $refusal in *"-DCMAKE_CXX_COMPILER="*clang++*) ;; *) die "the refusal does not name the compiler to use" ;; esac

probe=$work/build/CMakeFiles/interop-plugin-probe/probe.so
[ -f "$probe" ] || die "no probe plugin at $probe"
cp "$probe" "$work/broken.so"
if cmake -DCLANG_TIDY="$clang_tidy" -DPLUGIN="$work/broken.so" -DLLVM_MAJOR="$llvm_major" \
  -P "$src/cmake/InteropPluginSmoke.cmake" >"$work/smoke-broken.log" 2>&1; then
  die "the smoke step accepted a $gxx-built plugin"
fi
case $(tr -s ' \n' '  ' <"$work/smoke-broken.log") in
*"undefined symbol"*"-DCMAKE_CXX_COMPILER=clang++-$llvm_major"*) ;;
*) cat "$work/smoke-broken.log"; die "the smoke step does not say why and what to use" ;;
esac
[ ! -e "$work/broken.so" ] || die "the smoke step left the broken plugin in place"
echo "smoke step: rejected and removed the $gxx-built plugin"

# The loader loads the checks from its own directory: copy both.
cp "$plugin" "$work/good.so"
cp "${plugin%/*}/InteropTidyChecks.so" "$work/"
cmake -DCLANG_TIDY="$clang_tidy" -DPLUGIN="$work/good.so" -DLLVM_MAJOR="$llvm_major" \
  -P "$src/cmake/InteropPluginSmoke.cmake" ||
  die "the smoke step rejected the real plugin"
echo "smoke step: accepted ${plugin##*/}"
echo "plugin-abi-test: PASS"
