#!/usr/bin/env python3
"""Writes N synthetic skills (SKILL.md + one reference each) for scale benchmarks.

    python3 Benchmarks/generate_corpus.py Benchmarks/.generated/10k 10000
"""

import random
import sys
from pathlib import Path

WORDS = ("state binding observable navigation stack task actor async await view model container query "
         "predicate migration schema testing expect sheet alert toolbar list grid layout animation "
         "gesture focus accessibility label keychain network cache image preview macro").split()


def main():
    out, count = Path(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(42)
    for i in range(count):
        name = f"skill-{i:05d}"
        folder = out / name / "references"
        folder.mkdir(parents=True, exist_ok=True)
        topic = " ".join(rng.sample(WORDS, 3))
        sections = []
        for s in range(4):
            words = " ".join(rng.choice(WORDS) for _ in range(40))
            sections.append(f"## {rng.choice(WORDS).title()} {s}\n\n{words}\n")
        body = (f"---\nname: {name}\ndescription: Synthetic skill about {topic}. Use when benchmarking.\n---\n\n"
                f"# {name}\n\n" + "\n".join(sections) +
                "\n## Common Mistakes\n\n❌ Bad:\n\n```swift\nlet x = 1\n```\n\nWhy: it is wrong.\n\n✅ Good:\n\n```swift\nlet y = 2\n```\n"
                "\n## Review Checklist\n\n- [ ] One\n- [ ] Two\n")
        (out / name / "SKILL.md").write_text(body)
        (folder / "notes.md").write_text(f"# Notes\n\n{topic}\n")


if __name__ == "__main__":
    main()
