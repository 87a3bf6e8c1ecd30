#!/usr/bin/env bash
# The Bazel aspect (tools/bazel/interop_tidy.bzl) on a scratch workspace:
# a cc_library and a cc_binary made of the bundled examples, over a
# cc_library of the runtime's headers. The findings in the aspect's reports
# must be those of a direct clang-tidy run on the same files (and there must
# be some); a plugin that cannot be loaded must fail the build, and so must
# findings when INTEROP_TIDY_WARNINGS_AS_ERRORS names their checks.
#
#   bazel_aspect_test.sh PLUGIN BUILD_DIR [CLANG_TIDY]
#
# PLUGIN is the build's InteropTidy.so, BUILD_DIR the build folder (the
# aspect runs its bin/interop-tidy wrapper), CLANG_TIDY the clang-tidy the
# plugin was built for (default clang-tidy-22).
#
# Runs offline: the rule repositories Bazel would download (rules_cc,
# rules_java, rules_proto, rules_python) are replaced by local stand-ins that
# forward to Bazel's native rules. Exits 77 (skipped) without bazel.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 PLUGIN BUILD_DIR [CLANG_TIDY]" >&2
  exit 2
fi
if ! command -v bazel >/dev/null 2>&1; then
  echo "bazel_aspect_test: SKIPPED: bazel is not installed" \
    "(on Debian: apt-get install bazel-bootstrap)"
  exit 77
fi
plugin=$(readlink -f -- "$1")
build=$(readlink -f -- "$2")
clang_tidy=${3:-clang-tidy-22}
src=$(cd "$(dirname "$0")/../.." && pwd -P)

clang_tidy=$(command -v "$clang_tidy") || {
  echo "bazel_aspect_test: ${3:-clang-tidy-22} not found" >&2
  exit 1
}
for f in "$plugin" "$build/bin/interop-tidy"; do
  [ -e "$f" ] || { echo "bazel_aspect_test: $f does not exist" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bazel-aspect.XXXXXX")
cleanup() {
  # Bazel leaves its outputs read-only.
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
ws=$tmp/ws
stubs=$tmp/stubs

# Stand-ins for the rule repositories: each forwards its rules to the native
# ones, which is what the real repositories do in this Bazel version.
stub() { # REPO DIR NAME...
  local repo=$1 dir=$2
  shift 2
  mkdir -p "$stubs/$repo/$dir"
  echo "workspace(name = \"$repo\")" >"$stubs/$repo/WORKSPACE"
  : >"$stubs/$repo/BUILD"
  : >"$stubs/$repo/$dir/BUILD"
  for name in "$@"; do
    printf 'def %s(**kwargs):\n    native.%s(**kwargs)\n\n' "$name" "$name"
  done >"$stubs/$repo/$dir/defs.bzl"
}
stub rules_cc cc cc_library cc_binary cc_test cc_import cc_toolchain \
  cc_toolchain_suite objc_library cc_proto_library
stub rules_java java java_binary java_import java_library java_toolchain \
  java_runtime java_proto_library java_test java_plugin
stub rules_proto proto proto_library proto_lang_toolchain
stub rules_python python py_binary py_library py_test py_runtime \
  py_runtime_pair

# The workspace: the aspect as users copy it, the runtime's headers, and the
# examples (a library with -std=c++17 in its copts, a binary without copts,
# which gets the aspect's default standard).
mkdir -p "$ws/tools/bazel" "$ws/third_party/interop" "$ws/app"
echo 'workspace(name = "aspect_test")' >"$ws/WORKSPACE"
cp "$src/tools/bazel/BUILD" "$src/tools/bazel/interop_tidy.bzl" \
  "$src/tools/bazel/run_interop_tidy.sh" "$ws/tools/bazel/"
cp -r "$src/runtime/include" "$ws/third_party/interop/include"
cat >"$ws/third_party/interop/BUILD" <<'BUILD'
load("@rules_cc//cc:defs.bzl", "cc_library")

cc_library(
    name = "interop_headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
    visibility = ["//visibility:public"],
)
BUILD
cp "$src/examples/sharded_export.cpp" "$src/examples/device_import.cpp" \
  "$ws/app/"
cat >"$ws/app/BUILD" <<'BUILD'
load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")

cc_library(
    name = "sharded_export",
    srcs = ["sharded_export.cpp"],
    copts = ["-std=c++17"],
    deps = ["//third_party/interop:interop_headers"],
)

cc_binary(
    name = "device_import",
    srcs = ["device_import.cpp"],
    deps = [
        ":sharded_export",
        "//third_party/interop:interop_headers",
    ],
)
BUILD

# bazel_build LOG TARGET [OPTION...]: the aspect over TARGET.
bazel_build() {
  local log=$1 target=$2
  shift 2
  (cd "$ws" && bazel --batch --nohome_rc \
    --output_user_root="$tmp/root" build \
    --jobs=2 --noshow_progress --color=no --curses=no --nosandbox_debug \
    --override_repository=rules_cc="$stubs/rules_cc" \
    --override_repository=rules_java="$stubs/rules_java" \
    --override_repository=rules_proto="$stubs/rules_proto" \
    --override_repository=rules_python="$stubs/rules_python" \
    --aspects=//tools/bazel:interop_tidy.bzl%interop_tidy_aspect \
    --output_groups=interop_tidy "$@" "$target") >"$log" 2>&1
}

# The findings on stdin as basename:line:check, sorted.
findings() {
  sed -nE 's/^(.*\/)?([^/:]+):([0-9]+):[0-9]+: warning: .* \[(interop-[^]]+)\]$/\2:\3:\4/p' |
    sort
}

fail() {
  echo "bazel_aspect_test: FAIL: $*" >&2
  exit 1
}

# 1. The aspect with the build's wrapper.
if ! bazel_build "$tmp/build.log" //... --action_env=INTEROP_TIDY="$build/bin/interop-tidy"; then
  cat "$tmp/build.log" >&2
  fail "bazel build with the aspect failed"
fi
reports=$(cd "$ws" && find -L bazel-bin/ -path '*.interop_tidy/*' -name '*.txt' | sort)
expected_reports="bazel-bin/app/device_import.interop_tidy/app/device_import.cpp.txt
bazel-bin/app/sharded_export.interop_tidy/app/sharded_export.cpp.txt"
if [ "$reports" != "$expected_reports" ]; then
  fail "reports: expected
$expected_reports
got
$reports"
fi
mapfile -t report_files <<<"$reports"
(cd "$ws" && cat "${report_files[@]}") | findings >"$tmp/aspect.txt"

# 2. clang-tidy with the plugin, directly on the same files.
for f in sharded_export device_import; do
  "$clang_tidy" --load="$plugin" --checks='-*,interop-*' "$ws/app/$f.cpp" \
    -- -std=c++17 -I"$src/runtime/include" 2>/dev/null ||
    fail "direct clang-tidy run on $f.cpp exited with $?"
done | findings >"$tmp/direct.txt"

if [ ! -s "$tmp/direct.txt" ]; then
  fail "no findings in the direct run (the examples are meant to have some)"
fi
if ! diff -u "$tmp/direct.txt" "$tmp/aspect.txt" >"$tmp/diff.txt"; then
  cat "$tmp/diff.txt" >&2
  fail "the aspect's findings differ from a direct run (- direct, + aspect)"
fi
echo "bazel_aspect_test: same $(wc -l <"$tmp/direct.txt") findings as a direct run:"
sed 's/^/  /' "$tmp/aspect.txt"

# 3. A plugin that cannot be loaded fails the build.
if bazel_build "$tmp/noplugin.log" //... --action_env=INTEROP_TIDY="$clang_tidy" \
  --action_env=INTEROP_TIDY_PLUGIN="$tmp/missing/InteropTidy.so"; then
  cat "$tmp/noplugin.log" >&2
  fail "the build passed with a plugin that does not exist"
fi
grep -q "Error opening '$tmp/missing/InteropTidy.so'" "$tmp/noplugin.log" ||
  { cat "$tmp/noplugin.log" >&2; fail "no failure message for the missing plugin"; }
echo "bazel_aspect_test: a missing plugin fails the build"

# 4. Findings fail the build when their checks are warnings-as-errors (plain
# clang-tidy and the plugin this time). Only the binary is named: the
# library's file is reached through its deps.
if bazel_build "$tmp/werror.log" //app:device_import --keep_going \
  --action_env=INTEROP_TIDY="$clang_tidy" \
  --action_env=INTEROP_TIDY_PLUGIN="$plugin" \
  --action_env=INTEROP_TIDY_WARNINGS_AS_ERRORS='interop-*'; then
  cat "$tmp/werror.log" >&2
  fail "the build passed with findings and INTEROP_TIDY_WARNINGS_AS_ERRORS"
fi
for f in device_import sharded_export; do
  grep -q "$f.cpp:.*: error: .* \[interop-[^]]*,-warnings-as-errors\]" "$tmp/werror.log" ||
    { cat "$tmp/werror.log" >&2; fail "warnings-as-errors: no finding of $f.cpp reported as an error"; }
done
echo "bazel_aspect_test: findings fail the build with INTEROP_TIDY_WARNINGS_AS_ERRORS"
echo "bazel_aspect_test: PASS"
