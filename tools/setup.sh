#!/usr/bin/env bash
# Installs what interop-tidy needs on Debian bookworm and configures ./build.
# Used by both README commands and by .ci/run. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake ninja-build g++ git
  clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
  libclang-rt-22-dev
  libdlpack-dev googletest libgtest-dev libbenchmark-dev
  python3-dev python3-numpy python3-torch python3-pytest
  clang-tidy-19 python3-yaml python3-jsonschema
  vim-nox vim-ale neovim emacs-nox elpa-flycheck
  dpkg-dev file pkgconf
)
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

# clang-22 builds everything: its sanitizers and libFuzzer come from
# libclang-rt-22-dev. /usr/bin/python3 is Debian's, the one with NumPy.
cmake -S . -B "${BUILD_DIR:-build}" -G Ninja \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DPython3_EXECUTABLE=/usr/bin/python3 "$@"
