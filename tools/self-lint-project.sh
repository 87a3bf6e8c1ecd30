#!/usr/bin/env bash
# Runs clang-tidy with the project's own .clang-tidy over the project's C++
# (the directories below) and fails on any finding: the code follows the
# rules it states. Files run in parallel, one clang-tidy each (every file
# parses the LLVM headers, so this is the slow part).
#
# usage: tools/self-lint-project.sh [BUILD_DIR]   (default: build)
#
# BUILD_DIR must be configured (compile_commands.json).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$PWD/$BUILD_DIR" ;; esac

# The directories linted: add runtime/ here once it passes.
DIRS=(lib checks)

TIDY="${CLANG_TIDY:-clang-tidy-22}"
DB="$BUILD_DIR/compile_commands.json"
if ! command -v "$TIDY" >/dev/null; then
  echo "self-lint-project: $TIDY not found" >&2
  exit 2
fi
if [ ! -f "$DB" ]; then
  echo "self-lint-project: $DB not found; configure $BUILD_DIR first" >&2
  exit 2
fi

# The translation units the build compiles in those directories.
files=$(/usr/bin/python3 - "$DB" "$PWD" "${DIRS[@]}" <<'PY'
import json, os, sys
db, root, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
seen = set()
for entry in json.load(open(db)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    if rel.split(os.sep)[0] in dirs and rel not in seen:
        seen.add(rel)
        print(rel)
PY
)
if [ -z "$files" ]; then
  echo "self-lint-project: no sources of ${DIRS[*]} in $DB" >&2
  exit 2
fi
count=$(echo "$files" | wc -l)
jobs=$(nproc)
echo "self-lint-project: $count files of ${DIRS[*]}, $jobs at a time"
status=0
echo "$files" | xargs -P "$jobs" -n 1 \
  "$TIDY" -p "$BUILD_DIR" --quiet --warnings-as-errors='*' || status=$?
if [ $status -eq 0 ]; then
  echo "self-lint-project: no findings"
else
  echo "self-lint-project: findings above" >&2
fi
exit $status
