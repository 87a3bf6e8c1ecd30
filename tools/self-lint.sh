#!/usr/bin/env bash
# Runs every interop-* check over the project's own runtime (runtime/src) and
# Python module (runtime/python) and fails on any finding: the shim must pass
# the checks it ships.
#
# usage: tools/self-lint.sh [BUILD_DIR]   (default: build)
#
# BUILD_DIR must be configured (compile_commands.json) and have the plugin
# built (bin/interop-tidy loads checks/InteropTidy.so).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac

TIDY="$BUILD_DIR/bin/interop-tidy"
DB="$BUILD_DIR/compile_commands.json"
if [ ! -x "$TIDY" ]; then
  echo "self-lint: $TIDY not found; build the InteropTidy target first" >&2
  exit 2
fi
if [ ! -f "$DB" ]; then
  echo "self-lint: $DB not found; configure $BUILD_DIR first" >&2
  exit 2
fi

# Only files the build compiles: the Python module is configured only where
# Python headers exist.
files=()
for f in runtime/src/*.cpp runtime/python/*.cpp; do
  [ -f "$f" ] || continue
  if grep -q "\"file\": *\"[^\"]*/$f\"" "$DB"; then
    files+=("$f")
  fi
done
if [ ${#files[@]} -eq 0 ]; then
  echo "self-lint: no runtime sources in $DB" >&2
  exit 2
fi

echo "self-lint: ${#files[@]} files: ${files[*]}"
status=0
"$TIDY" -p "$BUILD_DIR" --quiet -checks='-*,interop-*' \
  --warnings-as-errors='*' "${files[@]}" || status=$?
if [ $status -eq 0 ]; then
  echo "self-lint: no findings"
else
  echo "self-lint: findings above (clang-tidy exit $status)" >&2
fi
exit $status
