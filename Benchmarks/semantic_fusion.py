#!/usr/bin/env python3
"""Measures the semantic component before it is wired: static token vectors (scripts/distil-embeddings.py)
fused with `skill search`'s lexical ranking, on the judged sets of ../shared/corpus.

Usage: Benchmarks/semantic_fusion.py SKILL INDEX [--variants --vectors FILE.npy]

SKILL is a `skill` binary; INDEX an index it built over ../shared/corpus (`skill build --skills
../shared/corpus --index INDEX`). Needs numpy and tokenizers (the reference WordPiece tokenizer).

An entry's vector: the normalised weighted sum of the token rows of its title, its breadcrumb and the
first 64 words of its text. A query's: the same over the query. For each query the lexical top 100
(`skill --json --limit 100 search`) is fused as w * lexical + (1 - w) * cosine, each min-max
normalised over its own top 100 (the lexical list; the 100 entries of highest cosine), clipped at 0.
"pool" adds the semantic top 100 to the candidates. The hit rule and the metrics are Benchmarks/relevance.py's: a
result is a hit when its path is a judged path and its line lies in the judged [line, end].

The default reads embedding/token-vectors.bin (written by scripts/distil-embeddings.py) and weighs tokens by SIF over the
index's own token frequencies (a = SIF_A), then by the file's Zipf weights. --variants (with
--vectors, the 384-d float vectors the distil script saves with --keep-float) also tries other
values of a, 256 and 384 dimensions, and the title counted twice.
"""
import json, math, os, sqlite3, subprocess, sys

import numpy as np
from tokenizers import BertWordPieceTokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relevance  # the hit rule and the metrics

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, ".."))
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


def evaluate(name, embedder, rows, sets, lex_cache, binary, index, weights=(1.0, 0.8, 0.7, 0.6, 0.5)):
    vectors = np.array([embedder.entry(t, b, x) for (_, t, b, x, _, _) in rows], dtype=np.float32)
    position = {r[0]: i for i, r in enumerate(rows)}
    entries = [(r[4], r[5]) for r in rows]
    print(f"{name}")
    best = {}
    for set_name, judged in sets:
        for pool in POOLS:
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


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary, index = args[0], args[1]
    flags = sys.argv[1:]
    tokenizer = BertWordPieceTokenizer(os.path.join(resources, "vocab.txt"), lowercase=True)
    db = sqlite3.connect(index)
    rows = db.execute("SELECT id, title, breadcrumb, text, path, line FROM entries ORDER BY rowid").fetchall()
    sets = [(n, json.load(open(os.path.join(corpus, n + ".json")))) for n in ("relevance", "questions")]
    cache_path = index + ".lexical.json"
    lex_cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    matrix, zipf = read_bin(os.path.join(resources, "token-vectors.bin"))

    specials = zipf == 0
    texts = [t + "\n" + b + "\n" + x for (_, t, b, x, _, _) in rows]
    sif = sif_weights(texts, tokenizer, specials)
    evaluate(f"shipped token-vectors.bin ({matrix.shape[1]} dims, int8 per row), corpus SIF a={SIF_A}",
             Embedder(matrix, sif, tokenizer), rows, sets, lex_cache, binary, index)
    json.dump(lex_cache, open(cache_path, "w"))
    evaluate("shipped token-vectors.bin, its Zipf weights", Embedder(matrix, zipf, tokenizer), rows, sets, lex_cache, binary, index)

    if "--variants" in flags:
        full = np.load(flags[flags.index("--vectors") + 1])
        short = (0.9, 0.8, 0.7, 0.6)
        for a in (1e-5, 3e-5, 3e-4, 1e-3, 3e-3):
            evaluate(f"128 dims, corpus SIF a={a}", Embedder(matrix, sif_weights(texts, tokenizer, specials, a), tokenizer),
                     rows, sets, lex_cache, binary, index, short)
        reduced = quantise(pca(full, 256)).astype(np.float32)
        evaluate(f"256 dims, corpus SIF a={SIF_A}", Embedder(reduced, sif, tokenizer), rows, sets, lex_cache, binary, index, short)
        evaluate("256 dims, Zipf", Embedder(reduced, zipf, tokenizer), rows, sets, lex_cache, binary, index, short)
        evaluate("384 dims float (no PCA), corpus SIF", Embedder(full.astype(np.float32), sif, tokenizer), rows, sets, lex_cache, binary, index, short)
        evaluate("128 dims, corpus SIF, title x2", Embedder(matrix, sif, tokenizer, 2.0), rows, sets, lex_cache, binary, index, short)

if __name__ == "__main__":
    main()
