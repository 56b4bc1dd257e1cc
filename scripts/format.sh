#!/usr/bin/env bash
# Formats every tracked C++ file with .clang-format (Debian's clang-format-14).
# Usage: scripts/format.sh [--check]   (--check: exit 1 and list the files that would change)
set -euo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$format" ] || { echo "needs clang-format (apt-get install clang-format-14)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [ "${1:-}" = "--check" ]; then
  "$format" --dry-run --Werror "${files[@]}"
else
  "$format" -i "${files[@]}"
fi
