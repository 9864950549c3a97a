#!/usr/bin/env bash
# Benchmark: parse all of ../shared/corpus with `skill parse` (release build) next to the floor,
# the `cmark` command itself (Debian's cmark, the same library) rendering the same files to HTML.
# Needs hyperfine and cmark (apt-get install -y hyperfine cmark). Prints hyperfine's table.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${1:-$root/../shared/corpus}"
command -v hyperfine >/dev/null && command -v cmark >/dev/null || apt-get install -y -qq hyperfine cmark >&2
swift build -c release --package-path "$root" --product skill -q >&2
skill="$root/.build/release/skill"
files="$(mktemp)"
find "$corpus" -name '*.md' -print0 > "$files"
echo "$(tr -cd '\0' < "$files" | wc -c) markdown files, $(xargs -0 cat < "$files" | wc -c) bytes" >&2
hyperfine --warmup 3 --runs "${RUNS:-20}" -N --ignore-failure \
  --export-markdown "${EXPORT:-/dev/stdout}" \
  -n "cmark (floor)" "bash -c 'xargs -0 cmark < $files > /dev/null'" \
  -n "skill parse (outline)" "$skill parse $corpus" \
  -n "skill parse --json" "$skill parse --json $corpus"
rm -f "$files"
