#!/usr/bin/env python3
"""Ranking quality of `skill search` on the judged query sets of ../shared/corpus, beside a naive
section-level BM25 baseline: MRR@10, success@1, success@5 and nDCG@10 for each set.

Usage: Benchmarks/relevance.py [path/to/skill] [--set relevance|questions] [--no-baseline] [-v]
                               [--corpus DIR ...] [--queries FILE ...]

`--corpus DIR` (repeatable) indexes these roots instead of ../shared/corpus, and `--queries FILE`
(repeatable) judges these files (in the format of questions.json, paths relative to their root)
instead of the two sets: a check on skills and questions the ranking was not tuned on.

A result is a hit when its source path is a judged path and its first line lies inside the judged
section [line, end]. Each judged section counts once for nDCG (its first hit). The baseline is the
one the corpus README describes: every heading's section (heading to the next heading) in an FTS5
table with the porter tokenizer, bm25 with the heading weighted 5, all words first, else any word.

The index is built first (`skill build`, which embeds every entry when a sentence encoder is set
up); then each set is judged with the vector stage (`skill`) and, when there is one, without it
(`lexical`, `skill search --lexical`).
"""
import atexit, json, math, os, re, shutil, sqlite3, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus"))
argv = sys.argv[1:]
verbose = "-v" in argv
baseline = "--no-baseline" not in argv
sets = ["relevance", "questions"]


def option(name):
    """Every value of the repeatable option `name`, removed from argv."""
    values = []
    while name in argv:
        at = argv.index(name)
        values.append(argv[at + 1])
        del argv[at:at + 2]
    return values


if "--set" in argv:
    sets = option("--set")
corpora = option("--corpus") or [corpus]
query_files = option("--queries")
if query_files:
    sets = [os.path.abspath(f) for f in query_files]
args = [a for a in argv if not a.startswith("-")]
binary = args[0] if args else os.path.join(here, "..", ".build", "release", "skill")
# A folder of this run's own: two runs at once (two builds, two developers) once shared one index
# file, and a build of another schema rebuilt it under the other run's searches.
folder = tempfile.mkdtemp(prefix="skill-relevance.")
atexit.register(shutil.rmtree, folder, ignore_errors=True)
index = os.path.join(folder, "index.sqlite")
env = dict(os.environ, NO_COLOR="1")


roots = [a for root in corpora for a in ("--skills", root)]


def build():
    """Builds the index, embedding every entry when a model is set up (the vector cache makes a
    second run's embedding free); whether the vector stage is on."""
    out = subprocess.run([binary, "build", *roots, "--index", index, "--json"], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(out.stderr)
    return json.loads(out.stdout).get("embedding", {}).get("model") is not None


def skill_search(query, lexical=False):
    command = [binary, "search", *roots, "--index", index, "--json", "--limit", "10"] + (["--lexical"] if lexical else [])
    out = subprocess.run(command + ["--", query], capture_output=True, text=True, env=env).stdout
    return [(r["source"]["path"], r["source"]["line"], r["kind"], r["title"]) for r in json.loads(out)["results"]]


def naive_index():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE s USING fts5(heading, body, path UNINDEXED, line UNINDEXED, tokenize='porter unicode61')")
    markdown = ((root, folder, name) for root in corpora for folder, _, files in os.walk(root) for name in files)
    for root, folder, name in markdown:
        if not name.endswith(".md") or folder == root:
            continue
        path = os.path.relpath(os.path.join(folder, name), root)
        lines = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read().split("\n")
        start, fence, sections = 0, None, []
        if lines and lines[0].strip() == "---":
            for i in range(1, len(lines)):
                if lines[i].strip() in ("---", "..."):
                    start = i + 1
                    break
        current = [None, 1, []]
        for i in range(start, len(lines)):
            line = lines[i]
            marker = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
            if marker:
                fence = None if fence and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) else (fence or marker.group(1))
            heading = None if fence or marker else re.match(r"\s{0,3}#{1,6}\s+(.*)", line)
            if heading:
                sections.append(current)
                current = [heading.group(1).strip("# "), i + 1, []]
            else:
                current[2].append(line)
        sections.append(current)
        for heading, line, body in sections:
            if heading is not None:
                db.execute("INSERT INTO s VALUES (?, ?, ?, ?)", (heading, "\n".join(body), path, line))
    return db


def naive_search(db):
    def run(query):
        words = re.findall(r"[a-z0-9]+", query.lower())
        for joiner in (" AND ", " OR "):
            expression = joiner.join('"%s"' % w for w in words)
            rows = db.execute("SELECT path, line, 'section', heading FROM s WHERE s MATCH ? ORDER BY bm25(s, 5.0, 1.0) LIMIT 10",
                              (expression,)).fetchall()
            if rows:
                return rows
        return []
    return run


def judge(q, results):
    """The rank of the first hit (None without one) and the nDCG@10 of `results`, (path, line) pairs."""
    first, gains, seen = None, [], set()
    for rank, (path, line) in enumerate(results, 1):
        gain = 0
        for i, j in enumerate(q["judgements"]):
            if path == j["path"] and j["line"] <= line <= j["end"]:
                if first is None:
                    first = rank
                if i not in seen:
                    seen.add(i)
                    gain = j["grade"]
                break
        gains.append(gain)
    dcg = sum((2 ** g - 1) / math.log2(k + 2) for k, g in enumerate(gains))
    ideal = sorted((j["grade"] for j in q["judgements"]), reverse=True)[:10]
    return first, dcg / sum((2 ** g - 1) / math.log2(k + 2) for k, g in enumerate(ideal))


def metrics(judged, ranked):
    """MRR@10, success@1, success@5 and nDCG@10 of `ranked` (per query, its (path, line) results)."""
    mrr = s1 = s5 = ndcg = 0.0
    for q, results in zip(judged, ranked):
        first, gain = judge(q, results)
        ndcg += gain
        if first:
            mrr += 1 / first
            s1 += first == 1
            s5 += first <= 5
    n = len(judged)
    return mrr / n, s1 / n, s5 / n, ndcg / n


def evaluate(judged, search, name):
    ranked = []
    for q in judged:
        results = search(q["query"])
        ranked.append([(path, line) for path, line, _, _ in results])
        first, _ = judge(q, ranked[-1])
        if verbose and name == "skill":
            print(f"  {q['id']} first={first} {q['query']!r}")
            if first != 1:
                for path, line, kind, title in results[:3]:
                    print(f"      {kind:12} {path}:{line} {title[:60]}")
                for j in q["judgements"]:
                    if j["grade"] == 2:
                        print(f"      want {j['path']}:{j['line']}-{j['end']} {j['heading'][:60]}")
    mrr, s1, s5, ndcg = metrics(judged, ranked)
    print(f"  {name:8} MRR@10 {mrr:.3f}  success@1 {s1:.3f}  success@5 {s5:.3f}  nDCG@10 {ndcg:.3f}  ({len(judged)} queries)")


if __name__ == "__main__":
    naive = naive_search(naive_index()) if baseline else None
    vectors = build()
    for name in sets:
        file = name if name.endswith(".json") else os.path.join(corpus, name + ".json")
        judged = json.load(open(file))
        print(os.path.basename(file))
        evaluate(judged, skill_search, "skill")
        if vectors:
            evaluate(judged, lambda q: skill_search(q, lexical=True), "lexical")
        if naive:
            evaluate(judged, naive, "naive")
