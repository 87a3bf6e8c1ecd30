#!/usr/bin/env bash
# Runs the interop_shim runtime's CUDA checks on a machine with a GPU.
#
# Needs nothing from the project's build machine but the already-built,
# self-contained runtime_tests binary (gtest, cudart and libstdc++ are linked
# statically; only libc/libm/libdl remain) - a bare CUDA image with a driver
# is enough. Optionally runs runtime_bench too when it and its shared
# libbenchmark are present.
#
#   BUILD_DIR=build bash tools/gpu-check.sh        # binaries under $BUILD_DIR
#   RUNTIME_TESTS=/path/runtime_tests bash tools/gpu-check.sh
#
# Exit status: 0 when the CUDA tests ran on a GPU (none skipped) and the
# whole suite passed; 1 when a test failed; 2 when no GPU was usable (the
# CUDA tests skipped) or the binary is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
TESTS=${RUNTIME_TESTS:-$BUILD_DIR/test/runtime/runtime_tests}
BENCH=${RUNTIME_BENCH:-$BUILD_DIR/test/bench/runtime_bench}

if [ ! -x "$TESTS" ]; then
  echo "gpu-check: $TESTS not found; build it first:" \
       "cmake --build $BUILD_DIR --target runtime_tests" >&2
  exit 2
fi
echo "== GPU"
nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not available)"
echo "== shared libraries of $TESTS"
ldd "$TESTS" || true

echo "== CUDA tests"
out=$(mktemp)
"$TESTS" --gtest_filter='CudaTest.*' --gtest_color=no 2>&1 | tee "$out"
cuda_rc=${PIPESTATUS[0]}
ran=$(grep -c '^\[       OK \] CudaTest\.' "$out" || true)
skipped=$(grep -c '^\[  SKIPPED \] CudaTest\.' "$out" || true)
rm -f "$out"
echo "gpu-check: CUDA tests passed on a GPU: $ran, skipped: $skipped"

echo "== whole suite"
"$TESTS" --gtest_brief=1 --gtest_color=no
all_rc=$?

if [ -x "$BENCH" ]; then
  echo "== benchmarks"
  "$BENCH" --benchmark_min_time=0.2 --benchmark_repetitions=3 \
           --benchmark_report_aggregates_only=true ||
    echo "gpu-check: runtime_bench failed (not counted)"
fi

if [ "$cuda_rc" -ne 0 ] || [ "$all_rc" -ne 0 ]; then
  echo "gpu-check: FAILED"
  exit 1
fi
if [ "$ran" -eq 0 ] || [ "$skipped" -ne 0 ]; then
  echo "gpu-check: no usable GPU - the CUDA tests skipped"
  exit 2
fi
echo "gpu-check: OK"
