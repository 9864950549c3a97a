#!/usr/bin/env bash
# The freshness check's cost: `skill search RARE` end to end under each branch of the readers'
# rule (docs/search.md, "Freshness"), and the stat calls of each (strace -c). Needs hyperfine
# and strace.
#
# Usage: Benchmarks/freshness.sh SKILLS_FOLDER [RARE_WORD]   (default word: xcstrings)
# SKILL=path/to/skill overrides the binary (default .build/release/skill); BEFORE=path/to/skill
# adds an older binary's search for comparison. Benchmarks/replicate-corpus.sh makes 1,024
# skills from ../shared/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(realpath "$1")
rare=${2:-xcstrings}
SKILL=$(realpath "${SKILL:-.build/release/skill}")
work=$(mktemp -d /tmp/skill-freshness.XXXXXX)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1
opts=(--skills "$root" --index "$work/index.sqlite")
"$SKILL" build "${opts[@]}" >/dev/null 2>&1
echo "skills: $(find "$root" -name SKILL.md | wc -l), folders: $(find "$root" -type d | wc -l), markdown files: $(find "$root" -name '*.md' | wc -l); $(uptime)"

# SKILL_TRUST_SECONDS: 0 = a full check every call (the behaviour before the rule); 0.000001 = no
# trust, so every call makes the bounded check (a full one at most every 30 s); unset = 2 s.
commands=(
    "SKILL_TRUST_SECONDS=0 $SKILL search $rare ${opts[*]}"
    "SKILL_TRUST_SECONDS=0.000001 $SKILL search $rare ${opts[*]}"
    "$SKILL search $rare ${opts[*]}"
    "$SKILL search --no-refresh $rare ${opts[*]}"
)
names=("full check" "bounded check" "trusted (default)" "no refresh")
if [ -n "${BEFORE:-}" ]; then
    before=$(realpath "$BEFORE")
    "$before" build --skills "$root" --index "$work/before.sqlite" >/dev/null 2>&1
    commands+=("$before search $rare --skills $root --index $work/before.sqlite")
    names+=("before (old binary)")
fi
# One hyperfine run for all, so that the figures compare (ratios to the first).
args=()
for i in "${!commands[@]}"; do args+=(-n "${names[$i]}" "env ${commands[$i]}"); done
hyperfine -N --style basic --warmup 3 --runs 60 --export-json "$work/h.json" "${args[@]}" | grep -E "^Benchmark|Time|Range"
python3 - "$work/h.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']}: median {r['median'] * 1000:.1f} ms, min {r['min'] * 1000:.1f} ms")
PY
for i in "${!commands[@]}"; do
    # shellcheck disable=SC2086
    calls=$(strace -f -c -e trace=statx,newfstatat,stat,lstat,fstat env ${commands[$i]} 2>&1 >/dev/null | awk '$NF ~ /^(statx|newfstatat|stat|lstat|fstat)$/ { print $NF ": " $4 }' | tr '\n' ' ')
    echo "stat calls, ${names[$i]}: $calls"
done
