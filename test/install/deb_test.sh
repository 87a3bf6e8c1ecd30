#!/usr/bin/env bash
# The Debian package test (ctest install-deb): `cpack -G DEB` from the build
# tree, then its control fields and contents, listed and checked.
#
#   deb_test.sh BUILD_DIR WORK_DIR
#
# Checks: the package is interop-tidy of the project's version; its Depends
# name the Debian packages the payload needs (shlibdeps' libc6 and
# libstdc++6, clang-tidy-NN for the plugin, the dlpack headers' package,
# python3 of the module's minor version); it contains the shared library with
# its SONAME link, the static library, the headers with the DLPack backfill,
# the CMake package, interop.pc, the plugin, the wrapper, the check docs and
# the Python module in Debian's /usr/lib/python3/dist-packages; and no file
# names the build tree. Installing it on a fresh bookworm is shown in the
# issue's note (apt install ./interop-tidy_*.deb).
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2

die() {
  echo "deb-test: FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")

(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; die "cpack -G DEB failed"; }
debs=("$work"/interop-tidy_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || die "no single interop-tidy_*.deb in $work"
deb=${debs[0]}
echo "== ${deb##*/} ($(du -h "$deb" | cut -f1))"

dpkg-deb --info "$deb" | tee "$work/info.txt"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = interop-tidy ] || die "Package is not interop-tidy"
case $(field Version) in "$version"-*) ;; *) die "Version $(field Version) is not $version-N" ;; esac
depends=$(field Depends)
has_dep() {
  echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qxF "$1" ||
    die "Depends lacks $1: $depends"
}
has_dep libc6
has_dep libstdc++6
has_dep libdlpack-dev

dpkg-deb --contents "$deb" | tee "$work/contents.txt"
awk '{print $6}' "$work/contents.txt" | sed 's|^\./|/|' >"$work/paths.txt"
has() { grep -qxE "$1" "$work/paths.txt" || die "the package lacks $1"; }
has '/usr/lib/libinterop_shim\.so\.[0-9]+\.[0-9]+\.[0-9]+'
has '/usr/lib/libinterop_shim\.so\.[0-9.]+'
has /usr/lib/libinterop_shim.so
has /usr/lib/libinterop_shim.a
has /usr/include/interop/interop.h
has /usr/include/interop/dlpack.h
has /usr/lib/cmake/interop/interopConfig.cmake
has /usr/lib/cmake/interop/interopConfigVersion.cmake
has /usr/lib/cmake/interop/interopShimTargets.cmake
has /usr/lib/pkgconfig/interop.pc
has /usr/share/doc/interop-tidy/README.md
if grep -q '^INTEROP_RUNTIME_ONLY:BOOL=OFF' "$build/CMakeCache.txt"; then
  has /usr/bin/interop-tidy
  major=$(sed -n 's/^INTEROP_LLVM_MAJOR:STRING=//p' "$build/CMakeCache.txt")
  has "/usr/lib/interop-tidy/llvm-$major/InteropTidy.so"
  has "/usr/lib/interop-tidy/llvm-$major/InteropTidyChecks.so"
  has /usr/bin/interop-tidy-ci
  has /usr/share/doc/interop-tidy/checks/interop-sharded-dlpack-export.md
  echo "$depends" | grep -qE 'clang-tidy-[0-9]+ \(>= [0-9:.]+\), clang-tidy-[0-9]+ \(<< [0-9:.]+~\)' ||
    die "Depends does not pin clang-tidy's major.minor: $depends"
  echo "$depends" | grep -qE '(^|, )python3-yaml(,|$)' ||
    die "Depends lacks python3-yaml, which interop-tidy-ci needs: $depends"
fi
if grep -q '^INTEROP_ENABLE_PYTHON:BOOL=ON' "$build/CMakeCache.txt" &&
  [ -f "$(find "$build" -name 'interop_shim.cpython-*.so' -print -quit)" ]; then
  has '/usr/lib/python3/dist-packages/interop_shim\.cpython-[0-9]+-[^/]*\.so'
  echo "$depends" | grep -qE 'python3 \(>= 3\.[0-9]+~\), python3 \(<< 3\.[0-9]+\)' ||
    die "Depends does not pin python3's minor version: $depends"
fi

mkdir "$work/root"
dpkg-deb --extract "$deb" "$work/root"
if grep -rlF "$build" "$work/root"; then
  die "packaged files name the build tree $build (above)"
fi
echo "deb-test: PASS ($(wc -l <"$work/paths.txt") entries)"
