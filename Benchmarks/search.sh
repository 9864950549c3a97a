#!/usr/bin/env bash
# Benchmarks for `skill build` and `skill search` (release build), beside `rg -i` over the same
# files. Needs hyperfine and ripgrep (apt-get install hyperfine ripgrep).
#
# Usage: Benchmarks/search.sh corpus      # ../shared/corpus (copied to a temp folder first)
#        Benchmarks/search.sh generated   # Benchmarks/generate-corpus.py's 10,000 skills
# SKILL=path/to/skill overrides the binary (default .build/release/skill).
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-corpus}
SKILL=${SKILL:-.build/release/skill}
SKILL=$(realpath "$SKILL")
work=$(mktemp -d /tmp/skill-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1

if [ "$which" = corpus ]; then
    cp -r ../shared/corpus "$work/skills"
    rare=xcstrings; common=the
    question="is it ok to decode images on the main thread while the list scrolls"
    edit="$work/skills/makgunay__claude-swift-skills/swift-lang/references/concurrency.md"
else
    [ -d Benchmarks/.generated/corpus ] || Benchmarks/generate-corpus.py >/dev/null
    cp -r Benchmarks/.generated/corpus "$work/skills"
    rare=zanzibarite; common=view
    question="how should a view model load data when the view appears"
    edit="$work/skills/group-050/skill-05000/SKILL.md"
fi
full_runs=$( [ "$which" = corpus ] && echo 3 || echo 1 )
root="$work/skills"
index="$work/index.sqlite"
opts=(--skills "$root" --index "$index")

echo "== full build ($which)"
hyperfine --runs "$full_runs" --prepare "rm -f $index $index-wal $index-shm" "$SKILL build ${opts[*]}"
"$SKILL" build "${opts[@]}" >/dev/null 2>&1

echo "== one-file incremental build ($which): $edit"
hyperfine --warmup 1 --runs 10 --prepare "echo 'benchmark line \$RANDOM' >> $edit" "$SKILL build ${opts[*]}"

echo "== freshness check only (nothing changed)"
"$SKILL" build "${opts[@]}" >/dev/null 2>&1
hyperfine -N --warmup 3 "$SKILL build ${opts[*]}"

echo "== search, end to end (process start, freshness check, query, output)"
hyperfine -N --warmup 3 \
    "$SKILL search ${opts[*]} $rare" \
    "$SKILL search ${opts[*]} $common" \
    "$SKILL search ${opts[*]} '$question'" \
    "$SKILL search --no-refresh ${opts[*]} $rare" \
    "$SKILL search --no-refresh ${opts[*]} $common" \
    "rg -i $rare $root" \
    "rg -i $common $root"
