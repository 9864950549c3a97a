#!/usr/bin/env python3
"""Writes a corpus of N real skills (default 1,000) made from ../shared/corpus: renamed copies
with lightly varied text, the same bytes for the same N and seed on every machine.

Usage: Benchmarks/scale-corpus.py [OUT] [N] [--seed S]   (OUT defaults to Benchmarks/.generated/scale-N)

Skill i is a copy of the corpus's skill i mod 128 (skill folders sorted by path). The first 128
are the corpus's own skills unchanged; each later copy k (k = i div 128) is renamed NAME-kK (folder
and frontmatter `name`) and about one prose word in 20 is replaced by another word of the same
document, so copies share structure and vocabulary but not every line. Code blocks, frontmatter
and headings' markup are kept. Only markdown is copied (the index reads nothing else). Prints the
skill count and the markdown bytes written.
"""
import os, random, re, shutil, sys

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus"))
argv = sys.argv[1:]
seed = 12
if "--seed" in argv:
    seed = int(argv[argv.index("--seed") + 1])
    del argv[argv.index("--seed"):argv.index("--seed") + 2]
n = int(argv[1]) if len(argv) > 1 else 1_000
out = argv[0] if argv else os.path.join(here, ".generated", f"scale-{n}")
if not os.path.isdir(corpus):
    sys.exit(f"error: the shared corpus is not at {corpus}")

skills = sorted(folder for folder, _, files in os.walk(corpus) if "SKILL.md" in files)


def own_markdown(skill):
    """The skill's markdown files (paths relative to it), without those of skills nested in it."""
    found = []
    for folder, dirs, files in os.walk(skill):
        dirs[:] = sorted(d for d in dirs if not os.path.isfile(os.path.join(folder, d, "SKILL.md")))
        found += [os.path.relpath(os.path.join(folder, f), skill) for f in sorted(files) if f.lower().endswith(".md")]
    return found


word = re.compile(r"[A-Za-z]{4,}")


def vary(text, rng, name, new_name):
    """Renames the skill in its frontmatter and swaps about 1 prose word in 20 for another."""
    lines = text.split("\n")
    vocabulary = sorted(set(word.findall(text))) or ["word"]
    fence, front = None, text.startswith("---\n")
    for i, line in enumerate(lines):
        if front:
            if i > 0 and line.strip() == "---":
                front = False
            elif line.startswith("name:"):
                lines[i] = line.replace(name, new_name, 1)
            continue
        marker = re.match(r"\s*(```|~~~)", line)
        if marker:
            fence = None if fence == marker.group(1) else (fence or marker.group(1))
            continue
        if fence:
            continue
        lines[i] = word.sub(lambda m: rng.choice(vocabulary) if rng.random() < 0.05 else m.group(0), line)
    return "\n".join(lines)


if os.path.exists(out):
    shutil.rmtree(out)
written = 0
for i in range(n):
    source = skills[i % len(skills)]
    copy = i // len(skills)
    relative = os.path.relpath(source, corpus)
    name = os.path.basename(source)
    new_name = name if copy == 0 else f"{name}-k{copy}"
    target = os.path.join(out, f"copy-{copy:02d}", os.path.dirname(relative), new_name)
    rng = random.Random(f"{seed}/{i}")
    for path in own_markdown(source):
        with open(os.path.join(source, path), "rb") as f:
            text = f.read().decode("utf-8", errors="surrogateescape")
        if copy > 0:
            text = vary(text, rng, name, new_name)
        data = text.encode("utf-8", errors="surrogateescape")
        os.makedirs(os.path.dirname(os.path.join(target, path)), exist_ok=True)
        with open(os.path.join(target, path), "wb") as f:
            f.write(data)
        written += len(data)
print(f"{n} skills, {written} bytes of markdown in {out}")
