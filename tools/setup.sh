#!/usr/bin/env bash
# Installs what interop-tidy needs on Debian bookworm and configures ./build
# (or $BUILD_DIR). Used by both README commands and by the CI recipes.
# Idempotent.
#
#   tools/setup.sh [--lint-only] [--print-packages] [CMAKE_ARG...]
#
# --lint-only       only what building and running the checks needs (the
#                   plugin, the interop-tidy wrapper and the interop-tidy-ci
#                   gate driver), and a build of just those
#                   (-DINTEROP_LINT_ONLY=ON) that compiles through ccache
# --print-packages  print the Debian packages it would install, one a line,
#                   and exit (installs and configures nothing)
set -euo pipefail
cd "$(dirname "$0")/.."

lint_only=0
print_packages=0
while [ $# -gt 0 ]; do
  case "$1" in
    --lint-only) lint_only=1; shift ;;
    --print-packages) print_packages=1; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done

# A lint job: clang-22 compiles the plugin (it brings libstdc++'s headers and
# binutils; the plugin must not be built by GCC), libclang-22-dev and
# llvm-22-dev (which pulls llvm-22-tools) are the headers and CMake packages
# it is built against, clang-tidy-22 runs it (with python3-yaml, which
# interop-tidy-ci reads its fixes with), clang-22's clang-scan-deps-22 lets
# `--diff` follow headers, libdlpack-dev has the DLPack header the checks'
# users include, git serves `--diff`, and ccache keeps the compiled plugin
# between CI runs.
LINT_PACKAGES=(
  cmake ninja-build git ccache
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  libdlpack-dev python3 python3-yaml
)
# Everything else: the runtime's and analysis library's tests (GoogleTest,
# sanitizers, libFuzzer), benchmarks, the Python module and its tests, the
# version guard's second clang-tidy, the editor recipes' editors, the
# packaging tests' tools, and Bazel for the Bazel aspect's test.
PACKAGES=(
  cmake ninja-build g++ git
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  libclang-rt-22-dev
  libdlpack-dev googletest libgtest-dev libbenchmark-dev
  python3 python3-dev python3-numpy python3-torch python3-pytest
  clang-tidy-19 python3-yaml python3-jsonschema
  vim-nox vim-ale neovim emacs-nox elpa-flycheck
  dpkg-dev file pkgconf lintian
  bazel-bootstrap
)
if [ "$lint_only" = 1 ]; then
  PACKAGES=("${LINT_PACKAGES[@]}")
fi
# -DINTEROP_LLVM_MAJOR=N builds the plugin against LLVM N instead of 22: its
# headers, clang-tidy, FileCheck and lit. clang-22 still compiles everything.
llvm_major=22
for arg in "$@"; do
  case $arg in
  -DINTEROP_LLVM_MAJOR=* | -DINTEROP_LLVM_MAJOR:*=*) llvm_major=${arg#*=} ;;
  esac
done
if [ "$llvm_major" != 22 ]; then
  # clang-N: the compiler the plugin ABI probe proposes should clang-22's fail.
  PACKAGES+=(clang-"$llvm_major" clang-tidy-"$llvm_major"
    libclang-"$llvm_major"-dev llvm-"$llvm_major"-dev llvm-"$llvm_major"-tools)
fi
if [ "$print_packages" = 1 ]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

extra=()
if [ "$lint_only" = 1 ]; then
  # ccache may reuse objects built with the precompiled header only when it
  # ignores the header's timestamp and the compiler's __DATE__/__TIME__.
  launcher="env;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache"
  extra=(-DINTEROP_LINT_ONLY=ON
         "-DCMAKE_C_COMPILER_LAUNCHER=$launcher"
         "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
fi

# clang-22 builds everything: its sanitizers and libFuzzer come from
# libclang-rt-22-dev. /usr/bin/python3 is Debian's, the one with NumPy.
cmake -S . -B "${BUILD_DIR:-build}" -G Ninja \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DPython3_EXECUTABLE=/usr/bin/python3 "${extra[@]}" "$@"
