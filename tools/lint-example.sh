#!/usr/bin/env bash
# Runs clang-tidy with the interop plugin over the bundled examples/ project
# and prints its findings. Findings are the output, not a failure; a crash or
# a plugin that does not load is.
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
mapfile -t sources < <(ls examples/*.cpp 2>/dev/null)
if [ ${#sources[@]} -eq 0 ]; then
  echo "lint-example: no sources in examples/" >&2
  exit 1
fi
"$build/bin/interop-tidy" -p "$build" --checks='-*,interop-*' "${sources[@]}"
rc=$?
# clang-tidy exits 0 with findings unless -warnings-as-errors is given; any
# other status means something broke.
exit $rc
