#!/usr/bin/env bash
# Benchmark: one full `skill build` of CORPUS into a new index, beside the floor, the `cmark`
# command (Debian's cmark, the same library) rendering the same markdown files to HTML.
# Usage: Benchmarks/build-scale.sh [SKILL_BINARY] [CORPUS]
#   (defaults: .build/release/skill and ../shared/corpus; a 1,000-skill corpus comes from
#   Benchmarks/scale-corpus.py). Needs cmark and GNU time (apt-get install -y cmark time).
# Prints one markdown table row: corpus, skills, markdown MB, cmark CPU s, build CPU s (user+sys),
# build wall s, build / cmark (CPU), peak RSS MB, index MB, index / markdown.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
skill="${1:-$root/.build/release/skill}"
corpus="${2:-$root/../shared/corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
find "$corpus" -name '*.md' -print0 > "$work/files"
markdown=$(xargs -0 cat < "$work/files" | wc -c)
skills=$(find "$corpus" -name SKILL.md | wc -l)
/usr/bin/time -f '%U %S' -o "$work/cmark" bash -c "xargs -0 cmark < '$work/files' > /dev/null"
/usr/bin/time -f '%U %S %e %M' -o "$work/build" "$skill" build --skills "$corpus" --index "$work/index.sqlite" > /dev/null 2>&1
index=$(stat -c %s "$work/index.sqlite")
read -r cu cs < "$work/cmark"
read -r bu bs wall rss < "$work/build"
python3 - "$corpus" "$skills" "$markdown" "$cu" "$cs" "$bu" "$bs" "$wall" "$rss" "$index" <<'EOF'
import os, sys
corpus, skills, markdown, cu, cs, bu, bs, wall, rss, index = sys.argv[1:]
cmark, build = float(cu) + float(cs), float(bu) + float(bs)
print(f"| {os.path.basename(os.path.normpath(corpus))} | {skills} | {int(markdown) / 1e6:.1f} | {cmark:.2f} | {build:.2f} | "
      f"{float(wall):.2f} | {build / cmark:.1f}x | {int(rss) / 1024:.0f} | {int(index) / 1e6:.1f} | {int(index) / int(markdown):.2f}x |")
EOF
