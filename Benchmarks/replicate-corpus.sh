#!/usr/bin/env bash
# Writes COPIES copies (default 8) of ../shared/corpus's skills under OUT, one folder each: 1,024
# real skills with their folder structure, for the freshness and search benchmarks at scale.
# Usage: Benchmarks/replicate-corpus.sh OUT [COPIES]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
copies=${2:-8}
[ -d ../shared/corpus ] || { echo "needs ../shared/corpus beside the project" >&2; exit 1; }
mkdir -p "$out"
for i in $(seq 1 "$copies"); do
    mkdir -p "$out/copy$i"
    for entry in ../shared/corpus/*/; do cp -r "$entry" "$out/copy$i/"; done
done
echo "$(find "$out" -name SKILL.md | wc -l) skills in $out"
