#!/usr/bin/env bash
# Validate every skill of a corpus: `skill validate` in one call vs `agentskills validate` (skills-ref
# 0.1.1) once per skill, as the reference tool takes one skill per call.
# Usage: Benchmarks/validate_corpus.sh [CORPUS] (default ../shared/corpus); SKILL_BIN picks the binary
# (default .build/release/skill: build it with `swift build -c release`).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpus}
bin=${SKILL_BIN:-.build/release/skill}
command -v agentskills >/dev/null || python3 -m pip install -q skills-ref==0.1.1
mapfile -t skills < <(find "$corpus" \( -name SKILL.md -o -name skill.md \) -not -path '*/.git/*' -exec dirname {} \; | sort)
echo "corpus: $corpus (${#skills[@]} skills)"
runs=5

start=$(date +%s.%N)
for _ in $(seq $runs); do "$bin" validate "$corpus" >/dev/null 2>&1 || true; done
end=$(date +%s.%N)
ours=$(echo "($end - $start) / $runs" | bc -l)

start=$(date +%s.%N)
for skill in "${skills[@]}"; do agentskills validate "$skill" >/dev/null 2>&1 || true; done
end=$(date +%s.%N)
theirs=$(echo "$end - $start" | bc -l)

printf 'skill validate (one call, mean of %d): %.3f s\n' "$runs" "$ours"
printf 'agentskills validate (%d calls):        %.3f s\n' "${#skills[@]}" "$theirs"
printf 'ratio: %.1fx\n' "$(echo "$theirs / $ours" | bc -l)"
