#!/usr/bin/env python3
"""Writes a synthetic corpus of N skills (default 10,000) of about 4 KB each, deterministic.

Usage: Benchmarks/generate-corpus.py [OUT] [N]   (OUT defaults to Benchmarks/.generated/corpus)
Every skill has frontmatter, sections, a Swift example, an anti-pattern pair and a checklist.
The word "zanzibarite" appears in exactly one skill (the rare-word benchmark); "view" is common.
"""
import os, random, sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, ".generated", "corpus")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
rng = random.Random(42)

words = """view model state binding observable navigation stack sheet list cell data store query
predicate fetch cache network request response error retry timeout concurrency actor task async
await main thread isolation sendable closure protocol generic extension struct class enum case
switch optional unwrap guard throw catch test expect suite parameter argument trait migration
schema column table index row record sync cloud conflict merge token session auth login keychain
image layout grid stack spacing padding font color theme accessibility label hint focus keyboard
gesture animation transition timer schedule notification widget intent shortcut menu window scene
file document export import share pasteboard clipboard permission sandbox entitlement signing""".split()
symbols = ["@State", "@Observable", "@Binding", "@MainActor", "#expect", "@Query", "@Model", "NavigationStack", ".task(id:)", "@Environment"]

def sentence(k=12):
    s = " ".join(rng.choice(words) for _ in range(k))
    return s[0].upper() + s[1:] + "."

def paragraph(k=4):
    return " ".join(sentence(rng.randint(8, 16)) for _ in range(k))

for i in range(n):
    name = f"skill-{i:05d}"
    folder = os.path.join(out, f"group-{i // 100:03d}", name)
    os.makedirs(folder, exist_ok=True)
    topic = " ".join(rng.sample(words, 3))
    parts = [f"---\nname: {name}\ndescription: {sentence(14)} Use when working with {topic}.\n---\n",
             f"# {topic.title()}\n\n{paragraph(3)}\n"]
    for h in range(5):
        parts.append(f"## {' '.join(rng.sample(words, 3)).title()}\n\n{paragraph(6)}\n")
    sym = rng.choice(symbols)
    parts.append(f"## Example\n\n```swift\nstruct {topic.title().replace(' ', '')}View: View {{\n    {sym} var {rng.choice(words)} = {rng.randint(0, 99)}\n    var body: some View {{ Text(\"{rng.choice(words)}\") }}\n}}\n```\n")
    parts.append(f"## Common Mistakes\n\n```swift\n// ❌ Bad\nlet {rng.choice(words)} = try! load()\n```\n\n{sentence(14)}\n\n```swift\n// ✅ Good\nlet {rng.choice(words)} = try load()\n```\n")
    parts.append("## Checklist\n\n" + "".join(f"- [ ] {sentence(8)}\n" for _ in range(5)))
    if i == n // 2:
        parts.append("\n## Rare\n\nThe zanzibarite mineral appears only here.\n")
    with open(os.path.join(folder, "SKILL.md"), "w") as f:
        f.write("\n".join(parts))
print(f"{n} skills in {out}")
