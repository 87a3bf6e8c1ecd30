#!/usr/bin/env bash
# The Debian packages test (ctest install-deb): `cpack -G DEB` from the build
# tree, then each package's control fields, contents and lintian.
#
#   deb_test.sh BUILD_DIR WORK_DIR
#
# Checks: one package per component, of the project's version:
#   libinterop-shim<SOVERSION>  the shared library (SONAME link, shlibs, the
#                               ldconfig trigger and no maintainer scripts)
#   libinterop-shim-dev         headers with the DLPack backfill, the static
#                               library, the .so link, the CMake package,
#                               interop.pc (no -L of this machine); it
#                               depends on the library package of the same
#                               version and on the dlpack headers' package
#   python3-interop             the module in /usr/lib/python3/dist-packages,
#                               pinned to python3's minor version
#   interop-tidy-llvm-N         the plugin for LLVM major N (its per-major
#                               folder); the only package that depends on
#                               clang-tidy (clang-tidy-N, its major.minor)
#   interop-tidy                the wrapper, interop-tidy-ci, the man pages,
#                               the check pages, the editor modules and the
#                               pre-commit hook under /usr/share/interop-tidy;
#                               depends on the plugin of this build's major
#                               or of another supported one
# libraries under /usr/lib/<multiarch>; every package has its copyright and
# changelog.Debian.gz, stripped ELF files, no file that names the build tree,
# and lintian reports no error on it (its warnings are printed).
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2

die() {
  echo "deb-test: FAIL: $*" >&2
  exit 1
}
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
version=$(cache CMAKE_PROJECT_VERSION)
libdir=$(cache CMAKE_INSTALL_LIBDIR)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ "$libdir" = "lib/$multiarch" ] || die "CMAKE_INSTALL_LIBDIR is $libdir, not lib/$multiarch"
soversion=$(echo "$version" | cut -d. -f1-2)   # 0.x: major.minor
lib_pkg=libinterop-shim$soversion
plugin=0
grep -q '^INTEROP_RUNTIME_ONLY:BOOL=OFF' "$build/CMakeCache.txt" && plugin=1
major=$(sed -n 's/^INTEROP_LLVM_MAJOR:STRING=//p' "$build/CMakeCache.txt")
python=0
grep -q '^INTEROP_ENABLE_PYTHON:BOOL=ON' "$build/CMakeCache.txt" &&
  [ -f "$(find "$build" -name 'interop_shim.cpython-*.so' -print -quit)" ] && python=1

(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; die "cpack -G DEB failed"; }
expected=("$lib_pkg" libinterop-shim-dev)
[ $python = 1 ] && expected+=(python3-interop)
[ $plugin = 1 ] && expected+=(interop-tidy "interop-tidy-llvm-$major")
built=$(cd "$work" && ls ./*.deb | sed 's|^\./||; s|_.*||' | sort | tr '\n' ' ')
want=$(printf '%s\n' "${expected[@]}" | sort | tr '\n' ' ')
[ "$built" = "$want" ] || die "cpack built [$built], expected [$want]"

deb_of() { echo "$work/$1_${version}-1_$(dpkg --print-architecture).deb"; }
field() { dpkg-deb --field "$(deb_of "$1")" "$2"; }
depends_on() {  # PACKAGE DEP: PACKAGE's Depends names DEP
  field "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qxF "$2" ||
    die "$1: Depends lacks $2: $(field "$1" Depends)"
}
for pkg in "${expected[@]}"; do
  deb=$(deb_of "$pkg")
  [ -f "$deb" ] || die "no $deb"
  echo "== ${deb##*/} ($(du -h "$deb" | cut -f1))"
  dpkg-deb --info "$deb" | tee "$work/$pkg.info"
  [ "$(field "$pkg" Version)" = "$version-1" ] || die "$pkg: Version is not $version-1"
  dpkg-deb --contents "$deb" | tee "$work/$pkg.contents"
  awk '{print $6}' "$work/$pkg.contents" | sed 's|^\./|/|' >"$work/$pkg.paths"
  mkdir -p "$work/root/$pkg"
  dpkg-deb --extract "$deb" "$work/root/$pkg"
  for f in copyright changelog.Debian.gz; do
    grep -qxF "/usr/share/doc/$pkg/$f" "$work/$pkg.paths" || die "$pkg lacks /usr/share/doc/$pkg/$f"
  done
  if grep -rlF "$build" "$work/root/$pkg"; then
    die "$pkg: packaged files name the build tree $build (above)"
  fi
  while IFS= read -r -d '' f; do
    if file "$f" | grep -q 'ELF.*not stripped'; then die "$pkg: ${f#"$work/root/$pkg"} is not stripped"; fi
  done < <(find "$work/root/$pkg" -type f -print0)
  if grep -E '^/usr/lib/[^/]+\.(so|a)' "$work/$pkg.paths" | grep -v "^/usr/lib/$multiarch/"; then
    die "$pkg: libraries outside /usr/lib/$multiarch (above)"
  fi
  if [ "$pkg" != "interop-tidy-llvm-$major" ] && field "$pkg" Depends | grep -q 'clang-tidy[-0-9]* '; then
    die "$pkg depends on clang-tidy: $(field "$pkg" Depends)"
  fi
done
has() {  # PACKAGE REGEX
  grep -qxE "$2" "$work/$1.paths" || die "$1 lacks $2"
}
L=/usr/lib/$multiarch

# The shared library.
has "$lib_pkg" "$L/libinterop_shim\.so\.[0-9]+\.[0-9]+\.[0-9]+"
has "$lib_pkg" "$L/libinterop_shim\.so\.$soversion"
if grep -E '\.(h|a)$|\.so$|cmake|pkgconfig' "$work/$lib_pkg.paths"; then
  die "$lib_pkg holds development files (above)"
fi
depends_on "$lib_pkg" libc6
depends_on "$lib_pkg" libstdc++6
control=$(mktemp -d "$work/control.XXXX")
dpkg-deb --control "$(deb_of "$lib_pkg")" "$control"
[ ! -e "$control/postinst" ] && [ ! -e "$control/postrm" ] ||
  die "$lib_pkg has ldconfig maintainer scripts"
grep -qx 'activate-noawait ldconfig' "$control/triggers" || die "$lib_pkg has no ldconfig trigger"
grep -qE "^libinterop_shim $soversion $lib_pkg \(>= $version-1\)$" "$control/shlibs" ||
  die "$lib_pkg's shlibs: $(cat "$control/shlibs")"

# Its development files.
has libinterop-shim-dev "$L/libinterop_shim\.so"
has libinterop-shim-dev "$L/libinterop_shim\.a"
has libinterop-shim-dev /usr/include/interop/interop.h
has libinterop-shim-dev /usr/include/interop/dlpack.h
has libinterop-shim-dev "$L/cmake/interop/interopConfig\.cmake"
has libinterop-shim-dev "$L/cmake/interop/interopConfigVersion\.cmake"
has libinterop-shim-dev "$L/cmake/interop/interopShimTargets\.cmake"
has libinterop-shim-dev "$L/pkgconfig/interop\.pc"
field libinterop-shim-dev Depends | grep -qF "$lib_pkg (= $version-1)" ||
  die "libinterop-shim-dev does not depend on $lib_pkg (= $version-1)"
depends_on libinterop-shim-dev libdlpack-dev
pc=$work/root/libinterop-shim-dev$L/pkgconfig/interop.pc
if grep -nE -- '-[IL]/(usr/local|opt|home|tmp|work)' "$pc"; then
  die "interop.pc names a folder of this machine (above)"
fi

if [ $python = 1 ]; then
  has python3-interop '/usr/lib/python3/dist-packages/interop_shim\.cpython-[0-9]+-[^/]*\.so'
  field python3-interop Depends | grep -qE 'python3 \(>= 3\.[0-9]+~\), python3 \(<< 3\.[0-9]+\)' ||
    die "python3-interop does not pin python3's minor version: $(field python3-interop Depends)"
fi

if [ $plugin = 1 ]; then
  has interop-tidy /usr/bin/interop-tidy
  has interop-tidy /usr/bin/interop-tidy-ci
  # One folder per LLVM major, in that major's package; the default
  # major's loader also at the top.
  has "interop-tidy-llvm-$major" "$L/interop-tidy/llvm-$major/InteropTidy\.so"
  has "interop-tidy-llvm-$major" "$L/interop-tidy/llvm-$major/InteropTidyChecks\.so"
  if grep -E '\.so$' "$work/interop-tidy.paths"; then
    die "interop-tidy holds a plugin module (above); they belong to interop-tidy-llvm-N"
  fi
  has interop-tidy /usr/share/doc/interop-tidy/checks/interop-sharded-dlpack-export.md
  has interop-tidy /usr/share/man/man1/interop-tidy.1.gz
  has interop-tidy /usr/share/man/man1/interop-tidy-ci.1.gz
  has interop-tidy /usr/share/interop-tidy/editors/flycheck-interop-tidy.el
  has interop-tidy /usr/share/interop-tidy/editors/interop-tidy.lua
  has interop-tidy /usr/share/interop-tidy/pre-commit
  [ -x "$work/root/interop-tidy/usr/share/interop-tidy/pre-commit" ] ||
    die "the pre-commit hook is not executable"
  field "interop-tidy-llvm-$major" Depends |
    grep -qE "clang-tidy-$major \\(>= [0-9:.]+\\), clang-tidy-$major \\(<< [0-9:.]+~\\)" ||
    die "interop-tidy-llvm-$major does not pin clang-tidy's major.minor: $(field "interop-tidy-llvm-$major" Depends)"
  # The tools take the plugin of any supported major, this build's first.
  field interop-tidy Depends | grep -qE "^interop-tidy-llvm-$major \\(= $version-1\\)( \\| interop-tidy-llvm-[0-9]+ \\(= $version-1\\))+," ||
    die "interop-tidy does not depend on a plugin of this version: $(field interop-tidy Depends)"
  depends_on interop-tidy python3-yaml
  # The installed wrapper finds the installed plugin.
  grep -qF "../lib/$multiarch/interop-tidy" \
    "$work/root/interop-tidy/usr/bin/interop-tidy" || die "the wrapper does not name the installed plugin"
fi

# lintian: no error on any package.
command -v lintian >/dev/null || die "lintian is not installed (tools/setup.sh installs it)"
errors=0
for pkg in "${expected[@]}"; do
  rc=0  # 0: nothing at error severity, 1: errors, else lintian itself failed
  lintian --tag-display-limit 0 "$(deb_of "$pkg")" >"$work/$pkg.lintian" 2>&1 || rc=$?
  [ $rc -le 1 ] || { cat "$work/$pkg.lintian"; die "lintian failed on $pkg (status $rc)"; }
  [ $rc = 0 ] || errors=1
  echo "== lintian $pkg: $(grep -c '^E: ' "$work/$pkg.lintian" || true) errors," \
    "$(grep -c '^W: ' "$work/$pkg.lintian" || true) warnings"
  cat "$work/$pkg.lintian"
  if grep -q '^E: ' "$work/$pkg.lintian"; then errors=1; fi
done
[ $errors = 0 ] || die "lintian reports errors (above)"
echo "deb-test: PASS (${expected[*]})"
