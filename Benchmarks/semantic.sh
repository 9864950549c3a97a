#!/usr/bin/env bash
# The vector stage's costs (docs/benchmarks.md, "Vector stage"), each beside its floor in the same
# run: the embedding pass of `skill build` beside the lexical build alone, a CLI search beside the
# same search with --lexical, and the server's search latency and memory with and without the
# model. Needs hyperfine; release build; the model made by scripts/setup.
#
# Usage: Benchmarks/semantic.sh [ROOT]   # default ../shared/corpus (copied to a temp folder)
# SKILL=path/to/skill overrides the binary (default .build/release/skill).
set -euo pipefail
cd "$(dirname "$0")/.."
SKILL=$(realpath "${SKILL:-.build/release/skill}")
source_root=${1:-../shared/corpus}
work=$(mktemp -d /tmp/skill-semantic.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$source_root" "$work/skills"
export NO_COLOR=1 HOME="$work/home" XDG_CACHE_HOME="$work/cache"
index="$work/index.sqlite"
cpu() { /usr/bin/time -f "%U %S %e" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f s CPU (%.1f s wall)", $1 + $2, $3}'; }

echo "== full build, lexical only (the floor): $(SKILL_MODEL=none cpu "$SKILL" build --skills "$work/skills" --index "$work/lexical.sqlite")"
echo "== full build with the embedding pass, empty vector cache: $(cpu "$SKILL" build --skills "$work/skills" --index "$index")"
"$SKILL" build --skills "$work/skills" --index "$index" 2>/dev/null | tail -1
echo "== the same build again (a --full rebuild; every vector from the cache): $(cpu "$SKILL" build --full --skills "$work/skills" --index "$index")"

keyword="property wrapper"
question="is it ok to decode images on the main thread while the list scrolls"
hyperfine -N --warmup 3 --runs 40 \
    -n "keyword, lexical" "$SKILL search --no-refresh --skills $work/skills --index $index --lexical '$keyword'" \
    -n "keyword, with vectors" "$SKILL search --no-refresh --skills $work/skills --index $index '$keyword'" \
    -n "question, lexical" "$SKILL search --no-refresh --skills $work/skills --index $index --lexical '$question'" \
    -n "question, with vectors" "$SKILL search --no-refresh --skills $work/skills --index $index '$question'"

# The server: the judged questions and keywords, each answered by a server with the model and by
# one without it, one after the other (server_bench.py prints latency and memory).
for model in none default; do
    echo "== skill serve, SKILL_MODEL=$model"
    if [ "$model" = none ]; then export SKILL_MODEL=none; else unset SKILL_MODEL; fi
    python3 Benchmarks/server_bench.py --bin "$SKILL" --skills "$work/skills" --starts 1 --calls 400 --tail --cache "$XDG_CACHE_HOME"
done
