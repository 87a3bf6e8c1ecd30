#!/usr/bin/env bash
# Runs everything of the interop_shim runtime that needs a GPU, in one go:
#   1. the CUDA unit tests (runtime_tests, CudaTest.* and the rest of the
#      suite): device memory, streams, the import that follows a producer's
#      pending work, the __cuda_array_interface__ consumer;
#   2. the Python GPU tests (test/python/test_cuda.py and
#      test_stream_handshake.py) against the machine's own PyTorch and CuPy:
#      a torch CUDA tensor written by a kernel on a side stream and imported
#      at once (100 rounds, data checked), the same through a CAI-only object
#      written on a CuPy stream, export to torch and CuPy consumers;
#   3. for the record, how often the same import reads stale data when the
#      producer is not given the stream (the race the handshake prevents);
#   4. the CUDA benchmarks (gather onto the GPU against one cudaMemcpy).
#
# Needs from the project's build machine only the self-contained
# runtime_tests binary (gtest, cudart and libstdc++ linked statically) and,
# optionally, runtime_bench with its libbenchmark. The Python module is built
# here against this machine's python3 (CMake, a C++17 compiler, the CUDA
# toolkit and Python headers; the DLPack headers from DLPACK_PREFIX when the
# system has none), because the module must match the interpreter that has
# the GPU builds of PyTorch and CuPy.
#
#   BUILD_DIR=build bash tools/gpu-check.sh         # binaries under $BUILD_DIR
#   RUNTIME_TESTS=... RUNTIME_BENCH=... PYTHON=python3 DLPACK_PREFIX=... \
#     bash tools/gpu-check.sh
#
# Exit status: 0 when every GPU test ran on a GPU (none skipped) and passed;
# 1 when a test failed; 2 when no GPU was usable (the GPU tests skipped) or
# something needed is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
TESTS=${RUNTIME_TESTS:-$BUILD_DIR/test/runtime/runtime_tests}
BENCH=${RUNTIME_BENCH:-$BUILD_DIR/test/bench/runtime_bench}
PYTHON=${PYTHON:-python3}
PY_BUILD=${PY_BUILD:-build-gpu-python}
start=$(date +%s)
failed=0
no_gpu=0

if [ ! -x "$TESTS" ]; then
  echo "gpu-check: $TESTS not found; build it first:" \
       "cmake --build $BUILD_DIR --target runtime_tests" >&2
  exit 2
fi
echo "== GPU"
nvidia-smi -L 2>/dev/null || echo "(nvidia-smi not available)"

echo "== 1. CUDA unit tests"
out=$(mktemp)
"$TESTS" --gtest_filter='CudaTest.*:ConsumerStreamTest.*:CudaArrayInterfaceImportTest.*' \
  --gtest_color=no 2>&1 | tee "$out"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
ran=$(grep -c '^\[       OK \] CudaTest\.' "$out" || true)
skipped=$(grep -c '^\[  SKIPPED \] CudaTest\.' "$out" || true)
rm -f "$out"
echo "gpu-check: CUDA unit tests passed on a GPU: $ran, skipped: $skipped"
if [ "$ran" -eq 0 ] || [ "$skipped" -ne 0 ]; then no_gpu=1; fi
echo "== whole runtime suite"
"$TESTS" --gtest_brief=1 --gtest_color=no || failed=1

echo "== 2. Python GPU tests ($PYTHON)"
"$PYTHON" -c 'import sys, torch, numpy; print("python", sys.version.split()[0],
  "torch", torch.__version__, "cuda", torch.cuda.is_available(),
  "numpy", numpy.__version__)' 2>&1 || true
"$PYTHON" -c 'import cupy; print("cupy", cupy.__version__)' 2>&1 || true
cmake_args=(-S . -B "$PY_BUILD" -DINTEROP_RUNTIME_ONLY=ON
            -DINTEROP_ENABLE_TESTS=OFF -DINTEROP_ENABLE_BENCHMARKS=OFF
            -DCMAKE_BUILD_TYPE=Release
            -DPython3_EXECUTABLE="$(command -v "$PYTHON")")
if [ -n "${DLPACK_PREFIX:-}" ]; then
  config=$(find "$DLPACK_PREFIX" -name dlpackConfig.cmake | head -1)
  cmake_args+=(-Ddlpack_DIR="$(dirname "$config")")
fi
if [ -z "${CUDAToolkit_ROOT:-}" ] && command -v nvcc >/dev/null; then
  cmake_args+=(-DCUDAToolkit_ROOT="$(dirname "$(dirname "$(command -v nvcc)")")")
fi
if command -v ninja >/dev/null; then cmake_args+=(-G Ninja); fi
mkdir -p "$PY_BUILD"
if cmake "${cmake_args[@]}" >"$PY_BUILD/configure.log" 2>&1 &&
   cmake --build "$PY_BUILD" --target interop_shim_python -j "$(nproc)" \
     >"$PY_BUILD/build.log" 2>&1; then
  grep -E "CUDA backend|Python module" "$PY_BUILD/configure.log"
  out=$(mktemp)
  PYTHONPATH="$PY_BUILD/python" "$PYTHON" -m pytest -v -p no:cacheprovider \
    test/python/test_cuda.py test/python/test_stream_handshake.py 2>&1 |
    tee "$out"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
  py_ran=$(grep -c 'test_cuda.py::.* PASSED' "$out" || true)
  py_skipped=$(grep -c 'test_cuda.py::.* SKIPPED' "$out" || true)
  rm -f "$out"
  echo "gpu-check: Python GPU tests passed: $py_ran, skipped: $py_skipped"
  if [ "$py_ran" -eq 0 ] || [ "$py_skipped" -ne 0 ]; then no_gpu=1; fi

  echo "== 3. without the handshake (for the record; not a test)"
  PYTHONPATH="$PY_BUILD/python" "$PYTHON" - <<'EOF' || true
import numpy as np, torch, interop_shim as shim
shim.configure(cpu_devices=1, cuda_devices=-1)
side = torch.cuda.Stream()
stale = {"handshake": 0, "no stream": 0}
for mode in stale:
    for i in range(100):
        with torch.cuda.stream(side):
            t = torch.zeros(1 << 20, dtype=torch.float32, device="cuda")
            torch.cuda._sleep(10_000_000)
            t.fill_(float(i + 1))
            x = shim.from_dlpack(t if mode == "handshake"
                                 else t.__dlpack__(stream=-1))
        stale[mode] += not (np.asarray(x) == i + 1).all()
        torch.cuda.synchronize()
print("rounds of 100 that read stale data:", stale)
EOF
else
  echo "gpu-check: the Python module did not build; logs follow" >&2
  tail -30 "$PY_BUILD/configure.log" "$PY_BUILD/build.log" >&2
  failed=1
fi

if [ -x "$BENCH" ]; then
  echo "== 4. benchmarks"
  "$BENCH" --benchmark_filter='Cuda|Gather|Memcpy' --benchmark_min_time=0.2 \
           --benchmark_repetitions=3 --benchmark_report_aggregates_only=true ||
    echo "gpu-check: runtime_bench failed (not counted)"
fi

echo "gpu-check: $(( $(date +%s) - start )) s"
if [ "$failed" -ne 0 ]; then
  echo "gpu-check: FAILED"
  exit 1
fi
if [ "$no_gpu" -ne 0 ]; then
  echo "gpu-check: no usable GPU - GPU tests skipped"
  exit 2
fi
echo "gpu-check: OK"
