#!/usr/bin/env bash
# The held-out question sets (README.md here) through Benchmarks/relevance.py, beside the naive
# baseline: the local set over ../shared/corpus, and, when OUTSIDE (a folder holding the files of
# outside-files.json) is given, the twelve outside sets over ../shared/corpus and OUTSIDE together.
# Usage: Benchmarks/heldout/run.sh [SKILL_BINARY] [OUTSIDE] [relevance.py options, e.g. -v]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
skill="${1:-$here/../../.build/release/skill}"
outside="${2:-}"
shift $(( $# < 2 ? $# : 2 ))
corpus="$here/../../../shared/corpus"
relevance=("$here/../relevance.py" "$skill" --corpus "$corpus")
python3 "${relevance[@]}" --queries "$here/questions-local.json" "$@"
if [ -n "$outside" ]; then
    sets=()
    for name in trailofbits hf-vercel expo-hashicorp cloudflare kdense power-platform superpowers aws-uipath engineering akka-salesforce cc-tools uipath-salesforce; do
        sets+=(--queries "$here/questions-$name.json")
    done
    python3 "${relevance[@]}" --corpus "$outside" "${sets[@]}" "$@"
fi
