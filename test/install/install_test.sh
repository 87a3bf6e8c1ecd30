#!/usr/bin/env bash
# The install test (ctest install-prefix): installs the built tree into a
# temporary prefix and uses it from outside the build tree, as a user would.
#
#   install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR PYTHON
#
# 1. `cmake --install --component runtime` and `--component dev` alone
#    (the runtime and its development files), then everything; the full
#    prefix is moved after installing (it must be relocatable) and must name
#    no path of the build tree.
# 2. libinterop_shim.so: a versioned SONAME, and only interop:: symbols in its
#    dynamic symbol table.
# 3. A consumer (test/install/consumer) against the runtime-only prefix, four
#    ways: find_package with interop::shim and with interop::shim_static,
#    pkg-config shared and pkg-config --static. Each runs its DLPack round
#    trip, and the shared ones must really load the installed library.
# 4. The installed interop-tidy wrapper (when the plugin is built): its
#    --version, and the same findings on examples/ as build/bin/interop-tidy.
# 5. `PYTHON -c "import interop_shim"` with only the prefix's site-packages
#    added to the path: __version__, and a round trip through NumPy.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$3
python=$4

step() { echo "== install-test: $*"; }
die() {
  echo "install-test: FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
# lib, or lib/<multiarch> on Debian (cmake/InteropInstallDirs.cmake)
L=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$L" ] || die "no CMAKE_INSTALL_LIBDIR in $build/CMakeCache.txt"

# ---- 1. install --------------------------------------------------------------
step "cmake --install --component runtime, --component dev"
cmake --install "$build" --prefix "$work/runtime" --component runtime >"$work/install-runtime.log"
(cd "$work/runtime" && find . -type f -o -type l | sort) >"$work/runtime-only.files"
# (and, as for its Debian package, its copyright and changelog)
if grep -vE "^\./$L/libinterop_shim\.so\.[0-9.]+$|^\./share/doc/libinterop-shim[0-9.]+/(copyright|changelog\.Debian\.gz)$" \
  "$work/runtime-only.files"; then
  die "the runtime component installs more than the shared library (above)"
fi
cmake --install "$build" --prefix "$work/runtime" --component dev >>"$work/install-runtime.log"
(cd "$work/runtime" && find . -type f -o -type l | sort) >"$work/runtime.files"
cat "$work/runtime.files"
for f in include/interop/interop.h include/interop/dlpack.h include/interop/export.h \
  $L/libinterop_shim.a $L/cmake/interop/interopConfig.cmake \
  $L/cmake/interop/interopConfigVersion.cmake $L/pkgconfig/interop.pc; do
  [ -e "$work/runtime/$f" ] || die "the runtime and dev components lack $f"
done
if grep -E "^\./$L/interop-tidy/|^\./share/interop-tidy/|^\./bin/|python|-packages/|/checks/|/man/" "$work/runtime.files"; then
  die "the runtime and dev components install plugin or Python files (above)"
fi
if grep -E 'include/.*(internal|import_internal)\.h' "$work/runtime.files"; then
  die "internal headers installed (above)"
fi

step "cmake --install (every component), then move the prefix"
cmake --install "$build" --prefix "$work/staged" >"$work/install-all.log"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
(cd "$prefix" && find . -type f -o -type l | sort) >"$work/prefix.files"
if grep -rlF "$build" "$prefix"; then
  die "installed files name the build tree $build (above)"
fi

# ---- 2. the shared library's ABI -----------------------------------------------
step "libinterop_shim.so: SONAME and exported symbols"
lib=$(find "$work/runtime/$L" -maxdepth 1 -name 'libinterop_shim.so.*.*.*' | head -n1)
[ -n "$lib" ] || die "no versioned libinterop_shim.so.X.Y.Z in $work/runtime/$L"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
echo "SONAME $soname"
case $soname in libinterop_shim.so.[0-9]*) ;; *) die "SONAME '$soname' is not versioned" ;; esac
[ -L "$work/runtime/$L/$soname" ] && [ -L "$work/runtime/$L/libinterop_shim.so" ] ||
  die "the $soname and libinterop_shim.so links are missing"
nm -D --defined-only "$lib" | awk '{print $3}' >"$work/exported.raw"
c++filt <"$work/exported.raw" >"$work/exported.txt"
count=$(wc -l <"$work/exported.txt")
# Only the public API: interop:: functions, and no typeinfo, vtable, template
# instantiation of std:: or symbol of the static CUDA runtime.
if grep -v '^interop::' "$work/exported.txt"; then
  die "libinterop_shim.so exports symbols outside the public API (above)"
fi
for fn in 'interop::to_dlpack(' 'interop::from_dlpack(' 'interop::Array::from_host(' \
  'interop::detail::die_on_bad_result_access('; do
  grep -qF "$fn" "$work/exported.txt" || die "libinterop_shim.so does not export $fn"
done
if grep -qE '^interop::detail::(import_keep_on_failure|find_local_device|allocate)' "$work/exported.txt"; then
  die "libinterop_shim.so exports runtime internals"
fi
echo "$count symbols exported, all interop::"

# ---- 3. consumers ----------------------------------------------------------------
consumer_src=$src/test/install/consumer
run_consumer() { # name binary
  local out
  out=$("$2") || die "$1: the consumer failed: $out"
  echo "$1: $out"
  case $out in *"round trip ok"*) ;; *) die "$1: no round trip line" ;; esac
}
needs_shim() { # binary yes|no
  if readelf -d "$1" | grep -q "NEEDED.*\[$soname\]"; then
    [ "$2" = yes ] || die "$1 links $soname but should link the static library"
  else
    [ "$2" = no ] || die "$1 does not link $soname"
  fi
}

for link in shim shim_static; do
  step "consumer: find_package(interop) + interop::$link"
  cmake -S "$consumer_src" -B "$work/consumer-$link" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/runtime" -DINTEROP_CONSUMER_LINK=$link \
    >"$work/consumer-$link.configure.log" 2>&1 ||
    { cat "$work/consumer-$link.configure.log"; die "consumer ($link) does not configure"; }
  grep "consumer: interop" "$work/consumer-$link.configure.log"
  cmake --build "$work/consumer-$link" >"$work/consumer-$link.build.log" 2>&1 ||
    { cat "$work/consumer-$link.build.log"; die "consumer ($link) does not build"; }
  run_consumer "find_package $link" "$work/consumer-$link/consumer"
done
needs_shim "$work/consumer-shim/consumer" yes
needs_shim "$work/consumer-shim_static/consumer" no
ldd "$work/consumer-shim/consumer" | grep -F "$work/runtime/$L/$soname" ||
  die "the shared consumer does not load the installed $soname"

cuda=0
if grep -q 'set(interop_WITH_CUDA ON)' "$work/runtime/$L/cmake/interop/interopConfig.cmake"; then
  cuda=1
  step "consumer: find_package(interop) where no CUDA toolkit is found"
  # interop::shim needs none; asking for shim_static fails with a message.
  cmake -S "$consumer_src" -B "$work/consumer-nocuda" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/runtime" -DINTEROP_CONSUMER_LINK=shim \
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON >"$work/consumer-nocuda.log" 2>&1 ||
    { cat "$work/consumer-nocuda.log"; die "interop::shim needs a CUDA toolkit"; }
  if cmake -S "$consumer_src" -B "$work/consumer-nocuda-static" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/runtime" -DINTEROP_CONSUMER_LINK=shim_static \
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON >"$work/consumer-nocuda-static.log" 2>&1; then
    die "find_package(interop COMPONENTS shim_static) succeeded without CUDA"
  fi
  tr -s ' \n' '  ' <"$work/consumer-nocuda-static.log" | grep -o "interop::shim_static links the static CUDA runtime[^:]*" ||
    { cat "$work/consumer-nocuda-static.log"; die "no message says the static library needs CUDA"; }
fi

export PKG_CONFIG_PATH=$work/runtime/$L/pkgconfig
step "consumer: pkg-config interop ($(pkg-config --modversion interop))"
[ "$(pkg-config --modversion interop)" = "$version" ] || die "interop.pc's version is not $version"
libdir=$(pkg-config --variable=libdir interop)
# shellcheck disable=SC2046 # pkg-config prints words
c++ -std=c++17 -o "$work/pc-shared" "$consumer_src/consumer.cpp" \
  $(pkg-config --cflags --libs interop) -Wl,-rpath,"$libdir"
needs_shim "$work/pc-shared" yes
run_consumer "pkg-config" "$work/pc-shared"
step "consumer: pkg-config --static interop"
echo "pkg-config --static --cflags --libs: $(pkg-config --static --cflags --libs interop)"
pkg-config --static --cflags interop | grep -q -- -DINTEROP_STATIC ||
  die "pkg-config --static --cflags lacks -DINTEROP_STATIC"
if grep -nE -- '-L/' "$PKG_CONFIG_PATH/interop.pc"; then
  die "interop.pc names a folder of this machine (above)"
fi
# The static CUDA runtime's folder is the linker's to know (README).
cuda_libs=()
if [ $cuda = 1 ]; then
  cuda_root=$(sed -n 's/^ *set(CUDAToolkit_ROOT "\(.*\)")$/\1/p' \
    "$work/runtime/$L/cmake/interop/interopConfig.cmake" | head -n1)
  cuda_libs=(-L"$cuda_root/lib64")
fi
# shellcheck disable=SC2046
c++ -std=c++17 -o "$work/pc-static" "$consumer_src/consumer.cpp" \
  $(pkg-config --static --cflags interop) "${cuda_libs[@]}" \
  -Wl,-Bstatic $(pkg-config --static --libs interop) -Wl,-Bdynamic
needs_shim "$work/pc-static" no
run_consumer "pkg-config --static" "$work/pc-static"

# ---- 4. the wrapper ------------------------------------------------------------
if [ -x "$build/bin/interop-tidy" ]; then
  step "the installed interop-tidy wrapper"
  wrapper=$prefix/bin/interop-tidy
  [ -x "$wrapper" ] || die "$wrapper is not installed"
  # Through a symlink elsewhere, as from a PATH folder.
  mkdir -p "$work/path"
  ln -s "$wrapper" "$work/path/interop-tidy"
  "$work/path/interop-tidy" --version >"$work/version.txt" 2>&1 ||
    { cat "$work/version.txt"; die "interop-tidy --version failed"; }
  cat "$work/version.txt"
  grep -q "^interop-tidy $version (plugin $prefix/$L/interop-tidy/" "$work/version.txt" ||
    die "--version does not name interop-tidy $version and the installed plugin"
  grep -q "LLVM version" "$work/version.txt" || die "--version does not print clang-tidy's version"

  step "the same findings on examples/ from the build tree and from the prefix"
  cd "$src"
  sources=(examples/*.cpp)
  "$build/bin/interop-tidy" -p "$build" --checks='-*,interop-*' "${sources[@]}" \
    >"$work/findings.build" 2>"$work/findings.build.err" ||
    { cat "$work/findings.build.err"; die "build/bin/interop-tidy failed"; }
  "$wrapper" -p "$build" --checks='-*,interop-*' "${sources[@]}" \
    >"$work/findings.prefix" 2>"$work/findings.prefix.err" ||
    { cat "$work/findings.prefix.err"; die "the installed interop-tidy failed"; }
  findings=$(grep -c "warning: .*\[interop-" "$work/findings.build" || true)
  [ "$findings" -gt 0 ] || die "no interop-* findings on examples/ (the plugin did not run?)"
  diff -u "$work/findings.build" "$work/findings.prefix" ||
    die "the installed wrapper's findings differ from the build tree's (above)"
  echo "$findings findings, identical"

  step "the installed interop-tidy-ci gate driver"
  ci=$prefix/bin/interop-tidy-ci
  [ -x "$ci" ] || die "$ci is not installed"
  rc=0
  "$ci" -p "$build" --checks='-*,interop-*' --no-progress \
    --sarif "$work/gate.sarif" examples/ >"$work/gate.out" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || { cat "$work/gate.out"; die "interop-tidy-ci exited $rc, not 1 (findings)"; }
  gate_findings=$(grep -c "warning: .*\[interop-" "$work/gate.out" || true)
  [ "$gate_findings" -eq "$findings" ] ||
    die "interop-tidy-ci reported $gate_findings findings, the wrapper $findings"
  # No rule links a path of this machine (nor, without --docs-url, any page
  # of its own).
  if grep -n '"helpUri": *"file:' "$work/gate.sarif"; then
    die "a SARIF rule links a file of this machine (above)"
  fi
  echo "exit 1, $gate_findings findings"

  step "the recipes' files under share/interop-tidy"
  for f in share/interop-tidy/editors/flycheck-interop-tidy.el \
    share/interop-tidy/editors/interop-tidy.lua share/interop-tidy/pre-commit \
    share/man/man1/interop-tidy.1.gz share/man/man1/interop-tidy-ci.1.gz; do
    [ -f "$prefix/$f" ] || die "the prefix lacks $f"
  done
  cd "$work"
else
  echo "== install-test: no plugin in this build (INTEROP_RUNTIME_ONLY): wrapper not tested"
fi

# ---- 5. Python --------------------------------------------------------------
if grep -q '/interop_shim\..*\.so$' "$work/prefix.files"; then
  step "import interop_shim from the prefix's site-packages"
  site=$("$python" -c 'import sys, sysconfig; p = sys.argv[1]; print(sysconfig.get_path("platlib", "posix_prefix", vars={"base": p, "platbase": p}))' "$prefix")
  ls "$site"/interop_shim.*.so >/dev/null || die "no interop_shim module in $site"
  cd "$work"
  PYTHONPATH=$site "$python" -c '
import os, sys
import numpy as np
import interop_shim
prefix, version = sys.argv[1], sys.argv[2]
where = os.path.realpath(interop_shim.__file__)
assert where.startswith(os.path.realpath(prefix) + os.sep), where
assert interop_shim.__version__ == version, interop_shim.__version__
a = np.arange(12, dtype=np.float32).reshape(3, 4) * 1.5
x = interop_shim.from_dlpack(a)
b = np.from_dlpack(x)
assert x.shape == (3, 4) and str(x.dtype) == "float32", (x.shape, x.dtype)
assert np.array_equal(a, b), (a, b)
print("python: interop_shim", interop_shim.__version__, "from", where,
      "round trip ok:", b.tolist())
' "$prefix" "$version"
else
  echo "== install-test: no Python module in this build: import not tested"
fi
echo "install-test: PASS"
