#!/usr/bin/env python3
"""Measures the semantic component before it is wired: static token vectors (Benchmarks/experiments/distil-embeddings.py)
fused with `skill search`'s lexical ranking, on the judged sets of ../shared/corpus.

Usage: Benchmarks/experiments/semantic_fusion.py SKILL INDEX [--weights 1.0,0.9,0.8,0.7] [--no-pool] [--half 0|1] [--ranks W]
           [--bin FILE.bin ...] [--full ENTRIES.npy [--cache DIR]] [--variants --vectors FILE.npy]

SKILL is a `skill` binary; INDEX an index it built over ../shared/corpus (`skill build --skills
../shared/corpus --index INDEX`). Needs numpy and tokenizers (the reference WordPiece tokenizer).

An entry's vector: the normalised weighted sum of the token rows of its title, its breadcrumb and the
first 64 words of its text. A query's: the same over the query. For each query the lexical top 100
(`skill --json --limit 100 search`) is fused as w * lexical + (1 - w) * cosine, each min-max
normalised over its own top 100 (the lexical list; the 100 entries of highest cosine), clipped at 0.
"pool" adds the semantic top 100 to the candidates. The hit rule and the metrics are Benchmarks/relevance.py's: a
result is a hit when its path is a judged path and its line lies in the judged [line, end].

The default reads embedding/token-vectors.bin (written by Benchmarks/experiments/distil-embeddings.py) and weighs tokens by SIF over the
index's own token frequencies (a = SIF_A), then by the file's Zipf weights. --variants (with
--vectors, the 384-d float vectors the distil script saves with --keep-float) also tries other
values of a, 256 and 384 dimensions, and the title counted twice.

--bin FILE (repeatable) measures other token-vectors.bin files instead (Benchmarks/experiments/train-embeddings.py
train writes them). --full ENTRIES.npy measures the ceiling: the full transformer's entry vectors
(Benchmarks/experiments/train-embeddings.py encode) and each query embedded by the same forward pass (the model from
the distil script's --cache). --half H keeps only the queries all of whose judged documents are in
skills of half H (for vectors trained on the other half); --ranks W prints each query whose first-hit
rank moves between w=1.0 and w=W.
"""
import argparse, json, math, os, sqlite3, subprocess, sys, zlib

import numpy as np
from tokenizers import BertWordPieceTokenizer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import relevance  # the hit rule and the metrics

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
corpus = os.path.normpath(os.path.join(root, "..", "shared", "corpus"))
resources = os.path.join(root, "embedding")
WORDS = 64
TOP = 100
POOLS = (False, True)
SIF_A = 1e-4


def read_bin(path):
    """(matrix as float32, weights) from token-vectors.bin."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"SKTOKV01"
    rows, dims = np.frombuffer(raw, "<u4", 2, 8)
    scales = np.frombuffer(raw, "<f4", rows, 16)
    weights = np.frombuffer(raw, "<f4", rows, 16 + 4 * rows)
    matrix = np.frombuffer(raw, np.int8, rows * dims, 16 + 8 * rows).reshape(rows, dims)
    return matrix.astype(np.float32) * scales[:, None], weights.astype(np.float32)


def entry_text(title, breadcrumb, text):
    return title + "\n" + breadcrumb + "\n" + " ".join(text.split()[:WORDS])


def full_text(row):
    return row[1] + "\n" + row[2] + "\n" + row[3]


def index_rows(index):
    """(id, title, breadcrumb, text, path, line, skill) of every entry, in rowid order."""
    return sqlite3.connect(index).execute(
        "SELECT e.id, e.title, e.breadcrumb, e.text, d.path, e.line, e.skill FROM entries e JOIN documents d ON d.id = e.doc"
        " ORDER BY e.rowid").fetchall()


def half(skill):
    """0 or 1: the half of the skills a skill falls in, for training on one half and judging on the other."""
    return zlib.crc32(skill.encode()) & 1


def judged_in_half(judged, rows, h):
    """The queries all of whose judged documents belong to skills of half h."""
    skills = {}
    for r in rows:
        skills.setdefault(r[4], set()).add(r[6])
    return [q for q in judged if all(half(s) == h for j in q["judgements"] for s in skills.get(j["path"], {""}))]


class Embedder:
    def __init__(self, matrix, weights, tokenizer, title_weight=1.0):
        self.matrix, self.weights, self.tokenizer, self.title_weight = matrix, weights, tokenizer, title_weight

    def ids(self, text):
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def embed(self, parts):
        """parts: [(text, multiplier)]."""
        v = np.zeros(self.matrix.shape[1], dtype=np.float64)
        for text, multiplier in parts:
            ids = self.ids(text)
            if ids:
                v += multiplier * (self.weights[ids][:, None] * self.matrix[ids]).sum(0)
        n = np.linalg.norm(v)
        return v / n if n > 0 else v

    def entry(self, title, breadcrumb, text):
        return self.embed([(title, self.title_weight), (breadcrumb + "\n" + " ".join(text.split()[:WORDS]), 1.0)])


def lexical(binary, index, query, cache):
    if query not in cache:
        out = subprocess.run([binary, "search", "--json", "--limit", str(TOP), "--skills", corpus, "--index", index,
                              "--", query], capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1")).stdout
        cache[query] = [(r["id"], r["score"]) for r in json.loads(out)["results"]]
    return cache[query]


def minmax(values):
    lo, hi = min(values.values(), default=0), max(values.values(), default=0)
    return {k: (v - lo) / (hi - lo) if hi > lo else 1.0 for k, v in values.items()} if values else {}


def fuse(lex, cosines, w, pool):
    lexn = minmax(dict(lex))
    top = np.argpartition(-cosines, TOP)[:TOP]
    lo, hi = cosines[top].min(), cosines[top].max()
    candidates = set(lexn)
    if pool:
        candidates |= set(int(i) for i in top)
    def score(i):
        c = max(0.0, (cosines[i] - lo) / (hi - lo))
        return w * lexn.get(i, 0.0) + (1 - w) * c
    return sorted(candidates, key=lambda i: (-score(i), i))[:10]


def metrics(judged, ranked, entries):
    """Benchmarks/relevance.py's figures for `ranked` (per query id, entry positions)."""
    return relevance.metrics(judged, [[entries[i] for i in ranked[q["id"]]] for q in judged])


def evaluate(name, embedder, rows, sets, lex_cache, binary, index, weights=(1.0, 0.8, 0.7, 0.6, 0.5), pools=POOLS,
             ranks=None):
    """Prints the metrics of each set for each lexical share w (and with the semantic pool), and with
    ranks=W each query's first-hit rank at w=1.0 and at W. embedder: entry(title, breadcrumb, text) and
    embed([(text, multiplier)]), or entries (a matrix in rowid order) and embed."""
    if getattr(embedder, "entries", None) is not None:
        vectors = embedder.entries
    else:
        vectors = np.array([embedder.entry(r[1], r[2], r[3]) for r in rows], dtype=np.float32)
    position = {r[0]: i for i, r in enumerate(rows)}
    entries = [(r[4], r[5]) for r in rows]
    print(f"{name}", flush=True)
    best = {}
    for set_name, judged in sets:
        if ranks is not None:
            cosines = {q["id"]: vectors @ embedder.embed([(q["query"], 1.0)]).astype(np.float32) for q in judged}
            for q in judged:
                lex = [(position[i], s) for i, s in lexical(binary, index, q["query"], lex_cache) if i in position]
                before, _ = relevance.judge(q, [entries[i] for i in fuse(lex, cosines[q["id"]], 1.0, False)])
                after, _ = relevance.judge(q, [entries[i] for i in fuse(lex, cosines[q["id"]], ranks, False)])
                if before != after:
                    print(f"  {set_name:10} {q['id']:4} rank {before or '-'} -> {after or '-'} at w={ranks}  {q['query'][:70]}")
        for pool in pools:
            for w in weights:
                if pool and w == 1.0:
                    continue
                ranked = {}
                for q in judged:
                    lex = [(position[i], s) for i, s in lexical(binary, index, q["query"], lex_cache) if i in position]
                    cosines = vectors @ embedder.embed([(q["query"], 1.0)]).astype(np.float32)
                    ranked[q["id"]] = fuse(lex, cosines, w, pool)
                m = metrics(judged, ranked, entries)
                best[(set_name, w, pool)] = m
                print(f"  {set_name:10} w={w:.1f} {'pool' if pool else 'lex '}  MRR@10 {m[0]:.3f}  success@1 {m[1]:.3f}"
                      f"  success@5 {m[2]:.3f}  nDCG@10 {m[3]:.3f}")
    return best


def sif_weights(texts, tokenizer, specials, a=SIF_A):
    """SIF from the token frequencies of texts: a / (a + p(token)); special tokens 0."""
    counts = np.zeros(len(specials))
    for text in texts:
        np.add.at(counts, tokenizer.encode(text, add_special_tokens=False).ids, 1)
    weights = (a / (a + counts / max(counts.sum(), 1))).astype(np.float32)
    weights[specials] = 0
    return weights


def pca(full, dims):
    centred = full - full.mean(0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    components = vectors[:, np.argsort(values)[::-1][:dims]]
    return (centred @ components).astype(np.float32)


def quantise(x):
    scales = np.abs(x).max(1) / 127.0
    scales[scales == 0] = 1.0
    return np.clip(np.rint(x / scales[:, None]), -127, 127) * scales[:, None]


class FullModel:
    """The ceiling: entry vectors of the full transformer (Benchmarks/experiments/train-embeddings.py encode) and
    queries embedded by the same forward pass."""
    def __init__(self, entries, cache):
        import importlib.util
        spec = importlib.util.spec_from_file_location("train", os.path.join(here, "train-embeddings.py"))
        self.train = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.train)
        self.w, vocab = self.train.load_model(cache)
        self.tokenizer = self.train.tokenizer_for(vocab)
        self.entries = entries

    def embed(self, parts):
        return self.train.encode_rows(self.w, [self.tokenizer.encode(parts[0][0]).ids])[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("skill")
    parser.add_argument("index")
    parser.add_argument("--bin", action="append", help="measure this token-vectors.bin (corpus SIF) instead of the shipped one")
    parser.add_argument("--full", help="the ceiling: the full model's entry vectors (train-embeddings.py encode's entries-384.npy)")
    parser.add_argument("--cache", default="/tmp/skill-distil", help="where the distil script keeps the model (for --full)")
    parser.add_argument("--weights", default="1.0,0.8,0.7,0.6,0.5", help="the lexical shares w to try")
    parser.add_argument("--no-pool", action="store_true", help="only the lexical top 100 as candidates")
    parser.add_argument("--half", type=int, choices=(0, 1), help="only the queries judged in skills of this half")
    parser.add_argument("--ranks", type=float, help="print each query whose first-hit rank moves between w=1.0 and this w")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--vectors")
    args = parser.parse_args()
    binary, index = args.skill, args.index
    weights = tuple(float(w) for w in args.weights.split(","))
    pools = (False,) if args.no_pool else POOLS
    tokenizer = BertWordPieceTokenizer(os.path.join(resources, "vocab.txt"), lowercase=True)
    rows = index_rows(index)
    sets = [(n, json.load(open(os.path.join(corpus, n + ".json")))) for n in ("relevance", "questions")]
    if args.half is not None:
        sets = [(n, judged_in_half(judged, rows, args.half)) for n, judged in sets]
        print("half", args.half, ", ".join(f"{n}: {len(j)} queries ({' '.join(q['id'] for q in j)})" for n, j in sets))
    cache_path = index + ".lexical.json"
    lex_cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    options = dict(weights=weights, pools=pools, ranks=args.ranks)
    texts = [full_text(r) for r in rows]

    if args.full:
        entries = np.load(args.full).astype(np.float32)
        assert len(entries) == len(rows), "the entry vectors are of another index"
        evaluate(f"full transformer (ceiling), {args.full}", FullModel(entries, args.cache), rows, sets, lex_cache, binary, index, **options)
    for path in args.bin or []:
        matrix, zipf = read_bin(path)
        sif = sif_weights(texts, tokenizer, zipf == 0)
        evaluate(f"{path} ({matrix.shape[1]} dims), corpus SIF a={SIF_A}", Embedder(matrix, sif, tokenizer), rows, sets, lex_cache,
                 binary, index, **options)
    if args.full or args.bin:
        json.dump(lex_cache, open(cache_path, "w"))
        return

    matrix, zipf = read_bin(os.path.join(resources, "token-vectors.bin"))
    specials = zipf == 0
    sif = sif_weights(texts, tokenizer, specials)
    evaluate(f"shipped token-vectors.bin ({matrix.shape[1]} dims, int8 per row), corpus SIF a={SIF_A}",
             Embedder(matrix, sif, tokenizer), rows, sets, lex_cache, binary, index, **options)
    json.dump(lex_cache, open(cache_path, "w"))
    evaluate("shipped token-vectors.bin, its Zipf weights", Embedder(matrix, zipf, tokenizer), rows, sets, lex_cache, binary, index, **options)

    if args.variants:
        full = np.load(args.vectors)
        short = dict(options, weights=(0.9, 0.8, 0.7, 0.6))
        for a in (1e-5, 3e-5, 3e-4, 1e-3, 3e-3):
            evaluate(f"128 dims, corpus SIF a={a}", Embedder(matrix, sif_weights(texts, tokenizer, specials, a), tokenizer),
                     rows, sets, lex_cache, binary, index, **short)
        reduced = quantise(pca(full, 256)).astype(np.float32)
        evaluate(f"256 dims, corpus SIF a={SIF_A}", Embedder(reduced, sif, tokenizer), rows, sets, lex_cache, binary, index, **short)
        evaluate("256 dims, Zipf", Embedder(reduced, zipf, tokenizer), rows, sets, lex_cache, binary, index, **short)
        evaluate("384 dims float (no PCA), corpus SIF", Embedder(full.astype(np.float32), sif, tokenizer), rows, sets, lex_cache, binary, index, **short)
        evaluate("128 dims, corpus SIF, title x2", Embedder(matrix, sif, tokenizer, 2.0), rows, sets, lex_cache, binary, index, **short)


if __name__ == "__main__":
    main()
