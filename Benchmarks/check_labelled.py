#!/usr/bin/env python3
"""Precision and recall of `skill check` on the labelled set (Tests/CheckTests/Fixtures/labelled).

Usage: Benchmarks/check_labelled.py [path/to/skill] [--skills DIR ...]
Default skills: the bundled ones and ../shared/corpus (when present). Runs the checker once with
--min-score 0 and scores every threshold from the same findings.

A finding is correct when it is in a file labelled with a mistake and overlaps the mistake's
lines; every other finding is a false positive. Recall: labelled mistakes with a correct finding.
"""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
binary = args.pop(0) if args and not args[0].startswith("--") else os.path.join(root, ".build/release/skill")
skills = []
while args:
    flag = args.pop(0)
    if flag == "--skills":
        skills.append(args.pop(0))
if not skills:
    skills = [os.path.join(root, "skills")]
    corpus = os.path.join(root, "..", "shared", "corpus")
    if os.path.isdir(corpus):
        skills.append(corpus)
    else:
        print("note: ../shared/corpus is absent; scoring against the bundled skills only")

labelled = os.path.join(root, "Tests/CheckTests/Fixtures/labelled")
labels = {f["path"]: f["mistake"] for f in json.load(open(os.path.join(labelled, "labels.json")))["files"]}

with tempfile.TemporaryDirectory() as home:
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=home, NO_COLOR="1")
    command = [binary, "check", "--json", "--min-score", "0", "--index", os.path.join(home, "index.sqlite")]
    for s in skills:
        command += ["--skills", s]
    run = subprocess.run(command + [labelled], env=env, capture_output=True, text=True, cwd=root)
    if run.returncode not in (0, 1):
        sys.exit(f"skill check failed ({run.returncode}): {run.stderr}")
    findings = json.loads(run.stdout)["findings"]

for f in findings:
    f["rel"] = os.path.relpath(f["path"], labelled)

mistakes = {p: m for p, m in labels.items() if m}
swift = sum(1 for p in labels if p.endswith(".swift"))
print(f"labelled files: {len(labels)} ({swift} Swift; {len(mistakes)} with one mistake, {len(labels) - len(mistakes)} without)")
print(f"skills: {', '.join(os.path.relpath(s, root) for s in skills)}")
print()
print("| min score | findings | correct | false positives | precision | recall | found by its own anti-pattern |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for threshold in [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9]:
    kept = [f for f in findings if f["score"] >= threshold]
    correct = []
    for f in kept:
        m = labels.get(f["rel"])
        if m and f["line"] <= m["endLine"] and m["line"] <= f["endLine"]:
            correct.append(f)
    found = {f["rel"] for f in correct}
    own = {f["rel"] for f in correct if f["id"] == mistakes[f["rel"]]["modelledOn"]}
    precision = len(correct) / len(kept) if kept else 1.0
    recall = len(found) / len(mistakes)
    print(f"| {threshold:.2f} | {len(kept)} | {len(correct)} | {len(kept) - len(correct)} | {precision:.2f} | {recall:.2f} | {len(own)}/{len(mistakes)} |")

if "-v" in sys.argv or os.environ.get("VERBOSE"):
    for f in sorted(findings, key=lambda f: (f["rel"], f["line"])):
        print(f'{f["score"]:.2f} {f["rel"]}:{f["line"]}-{f["endLine"]} {f["id"]}')
    for p in sorted(mistakes):
        best = max([f["score"] for f in findings if f["rel"] == p] or [0])
        print("mistake", p, best)
