#!/usr/bin/env python3
"""MRR@10, success@1, success@5 and nDCG@10 of `skill search` over ../shared/corpus/relevance.json.

Usage: Benchmarks/relevance.py [path/to/skill] [-v]
A result is a hit when its source path is a judged path and its first line lies inside the judged
section [line, end]. Each judged section counts once for nDCG (its first hit).
"""
import json, math, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus"))
args = [a for a in sys.argv[1:] if a != "-v"]
verbose = "-v" in sys.argv
binary = args[0] if args else os.path.join(here, "..", ".build", "release", "skill")
index = os.path.join(tempfile.gettempdir(), "skill-relevance.sqlite")
env = dict(os.environ, NO_COLOR="1")

def search(query):
    out = subprocess.run([binary, "search", "--skills", corpus, "--index", index, "--json", "--limit", "10", "--", query],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out)["results"]

judged = json.load(open(os.path.join(corpus, "relevance.json")))
mrr = s1 = s5 = ndcg = 0.0
for q in judged:
    results = search(q["query"])
    first = None
    gains = []
    seen = set()
    for rank, r in enumerate(results, 1):
        gain = 0
        for i, j in enumerate(q["judgements"]):
            if r["source"]["path"] == j["path"] and j["line"] <= r["source"]["line"] <= j["end"]:
                if first is None:
                    first = rank
                if i not in seen:
                    seen.add(i)
                    gain = j["grade"]
                break
        gains.append(gain)
    dcg = sum((2 ** g - 1) / math.log2(k + 2) for k, g in enumerate(gains))
    ideal = sorted((j["grade"] for j in q["judgements"]), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(k + 2) for k, g in enumerate(ideal))
    ndcg += dcg / idcg
    if first:
        mrr += 1 / first
        s1 += first == 1
        s5 += first <= 5
    if verbose:
        print(f"{q['id']} first={first} {q['query']!r}")
        if first != 1:
            for r in results[:3]:
                print(f"    {r['kind']:12} {r['source']['path']}:{r['source']['line']} {r['title'][:60]}")
            for j in q["judgements"]:
                print(f"    want g{j['grade']} {j['path']}:{j['line']}-{j['end']} {j['heading'][:60]}")
n = len(judged)
print(f"MRR@10 {mrr/n:.3f}  success@1 {s1/n:.3f}  success@5 {s5/n:.3f}  nDCG@10 {ndcg/n:.3f}  ({n} queries)")
