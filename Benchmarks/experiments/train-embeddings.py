#!/usr/bin/env python3
"""Static token vectors trained on skill text with the full all-MiniLM-L6-v2 as teacher (the
"tokenlearn" recipe), and the full model's entry vectors for the ceiling: issue #9's second
measurement. Nothing here is in the product (docs/search.md, "Semantic component (measured, not
kept)"); Benchmarks/experiments/semantic_fusion.py measures what it writes.

Usage:
  Benchmarks/experiments/train-embeddings.py encode INDEX [--cache DIR]
  Benchmarks/experiments/train-embeddings.py train INDEX --w0 W0.npy --out FILE.bin [--cache DIR]
         [--method ridge|context] [--lam L] [--align] [--train-half 0|1] [--dims 128]
  Benchmarks/experiments/train-embeddings.py neighbours FILE.bin WORD... [--cache DIR]

INDEX is an index built by `skill build --skills ../shared/corpus --index INDEX`. W0.npy is the
per-token vectors of Benchmarks/experiments/distil-embeddings.py --keep-float W0.npy (each token alone, 384-d).
Needs numpy, safetensors, tokenizers and scipy (no torch); the model weights are the ones
Benchmarks/experiments/distil-embeddings.py fetches and checks (same --cache).

encode: the full transformer (the distil script's numpy forward pass, in float32) over every entry's
  text as semantic_fusion.py embeds it (title, breadcrumb, first 64 words; at most 256 WordPiece
  tokens with [CLS] and [SEP]), sorted by length and batched. Writes to --cache:
    entries-384.npy         the mean-pooled, normalised entry vectors, one row per entry (rowid order)
    context-sums.npy        per half (2 × 30522 × 384): the sum of each token's contextual output rows
    context-counts.npy      per half (2 × 30522): how often each token occurs
    entries-ids.json        the entry ids, to check that a later run reads the same index
  About 10 CPU-minutes for the 9,506 entries of ../shared/corpus on 2 threads.

train: a 30522 × 384 token matrix W, from corpus text only (never the judged queries), then PCA to
  --dims, int8 per row, Zipf weights, in the distil script's token-vectors.bin format.
  ridge:   min ||X W - c Y||^2 + lam ||W - W0||^2, X the rows of corpus-SIF token weights of each
           entry's text (each row summing to 1), Y the entry vectors of `encode`, c the median norm
           of X W0 (keeps trained rows on the scale of untouched ones). Solved in the dual:
           W = W0 + X^T (X X^T + lam I)^-1 (c Y - X W0); tokens absent from the corpus keep W0.
           --align first maps W0 by the affine least-squares map from X W0 to Y, so that rows the
           corpus never touches (a query's other words) live in the same space as trained ones.
  context: a token's row is the normalised mean of its contextual output rows over its corpus
           occurrences; tokens absent from the training text keep W0.
  neighbours: the 8 whole-word tokens nearest (cosine) to each word in FILE.bin (a word of several
  WordPiece tokens: the sum of their rows).
  --train-half H trains on the entries of the skills in half H only (semantic_fusion.half), to
  measure how much of a gain is corpus-specific: evaluate with semantic_fusion.py --half 1-H.
"""
import argparse, importlib.util, json, os, sqlite3, struct, sys, tempfile, time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import semantic_fusion as fusion  # entry_text, sif_weights, pca, half, the rows

spec = importlib.util.spec_from_file_location("distil", os.path.join(here, "distil-embeddings.py"))
distil = importlib.util.module_from_spec(spec)
spec.loader.exec_module(distil)

MAX_TOKENS = 256  # the sentence-transformers max_seq_length of all-MiniLM-L6-v2
BATCH_TOKENS = 8192


def load_model(cache):
    weights_path, vocab_path = distil.fetch(cache)
    from safetensors.numpy import load_file
    w = {k: np.ascontiguousarray(v.astype(np.float32).T).T if v.ndim == 2 else v.astype(np.float32)
         for k, v in load_file(weights_path).items() if k != "embeddings.position_ids"}
    return w, vocab_path


def tokenizer_for(vocab_path, truncate=True):
    from tokenizers import BertWordPieceTokenizer
    tokenizer = BertWordPieceTokenizer(vocab_path, lowercase=True)
    if truncate:
        tokenizer.enable_truncation(MAX_TOKENS)
    return tokenizer


def encode_rows(w, id_rows, on_batch=None):
    """Mean-pooled normalised vectors for id rows (with [CLS] and [SEP]), float32, batched by length.
    on_batch(ids, mask, hidden) sees each batch's last hidden state."""
    order = sorted(range(len(id_rows)), key=lambda i: len(id_rows[i]))
    out = np.zeros((len(id_rows), w["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float32)
    start, started = 0, time.time()
    while start < len(order):
        end = start + 1  # sorted by length: grow the batch while it stays within BATCH_TOKENS
        while end < len(order) and (end + 1 - start) * len(id_rows[order[end]]) <= BATCH_TOKENS:
            end += 1
        chunk = order[start:end]
        length = max(len(id_rows[i]) for i in chunk)
        ids = np.zeros((len(chunk), length), dtype=np.int64)
        mask = np.zeros((len(chunk), length), dtype=np.float32)
        for r, i in enumerate(chunk):
            ids[r, :len(id_rows[i])] = id_rows[i]
            mask[r, :len(id_rows[i])] = 1
        hidden = distil.forward(w, ids, mask)
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        out[chunk] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        if on_batch:
            on_batch(chunk, ids, mask, hidden)
        start += len(chunk)
        if len(id_rows) > 100:
            print(f"\r  {start}/{len(id_rows)} entries, {time.time() - started:.0f} s", end="", file=sys.stderr, flush=True)
    if len(id_rows) > 100:
        print(file=sys.stderr)
    return out


def encode(args):
    w, vocab_path = load_model(args.cache)
    tokenizer = tokenizer_for(vocab_path)
    rows = fusion.index_rows(args.index)
    vocab = w["embeddings.word_embeddings.weight"].shape[0]
    specials = [tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]", "[PAD]")]
    id_rows = [e.ids for e in tokenizer.encode_batch([fusion.entry_text(t, b, x) for (_, t, b, x, _, _, _) in rows])]
    halves = np.array([fusion.half(r[6]) for r in rows])
    sums = np.zeros((2, vocab, 384), dtype=np.float64)
    counts = np.zeros((2, vocab), dtype=np.int64)

    def accumulate(chunk, ids, mask, hidden):
        for h in (0, 1):
            pick = halves[chunk] == h
            if not pick.any():
                continue
            keep = (mask[pick] > 0) & ~np.isin(ids[pick], specials)
            flat, vectors = ids[pick][keep], hidden[pick][keep]
            unique, inverse = np.unique(flat, return_inverse=True)
            part = np.zeros((len(unique), vectors.shape[1]), dtype=np.float64)
            np.add.at(part, inverse, vectors)
            sums[h, unique] += part
            counts[h, unique] += np.bincount(inverse, minlength=len(unique))

    entries = encode_rows(w, id_rows, accumulate)
    os.makedirs(args.cache, exist_ok=True)
    np.save(os.path.join(args.cache, "entries-384.npy"), entries)
    np.save(os.path.join(args.cache, "context-sums.npy"), sums.astype(np.float32))
    np.save(os.path.join(args.cache, "context-counts.npy"), counts)
    json.dump([r[0] for r in rows], open(os.path.join(args.cache, "entries-ids.json"), "w"))
    print(f"wrote {len(rows)} entry vectors and the contextual sums of {int((counts.sum(0) > 0).sum())} tokens to {args.cache}")


def check_ids(cache, rows):
    ids = json.load(open(os.path.join(cache, "entries-ids.json")))
    if ids != [r[0] for r in rows]:
        sys.exit("train: the cached entry vectors are of another index: run `encode` again")


def bag_of_tokens(texts, tokenizer, weights):
    """Sparse rows of token weights (each row summing to 1) for texts."""
    from scipy.sparse import csr_matrix
    data, cols, ptr = [], [], [0]
    for text in texts:
        ids = np.array(tokenizer.encode(text, add_special_tokens=False).ids, dtype=np.int64)
        ids = ids[weights[ids] > 0]
        unique, inverse = np.unique(ids, return_inverse=True)
        values = np.bincount(inverse, minlength=len(unique)) * weights[unique]
        total = values.sum()
        data.extend(values / total if total > 0 else values)
        cols.extend(unique)
        ptr.append(len(cols))
    return csr_matrix((np.array(data), np.array(cols), np.array(ptr)), shape=(len(texts), len(weights)))


def ridge(x, y, w0, lam, align=False):
    """W0 + X^T (X X^T + lam I)^-1 (c Y - X W0), in the dual (entries < vocabulary). align first maps
    W0 by the least-squares affine map that takes X W0 nearest to Y (every row, seen or not)."""
    from scipy.linalg import cho_factor, cho_solve
    start = time.time()
    if align:
        predicted = np.hstack([np.asarray(x @ w0), np.ones((x.shape[0], 1))])
        mapping = np.linalg.lstsq(predicted, y, rcond=None)[0]
        w0 = w0 @ mapping[:-1] + mapping[-1]
        print(f"aligned W0: relative error {np.linalg.norm(np.asarray(x @ w0) - y) / np.linalg.norm(y):.3f}")
    predicted = np.asarray(x @ w0)
    scale = 1.0 if align else float(np.median(np.linalg.norm(predicted, axis=1)))
    residual = scale * y - predicted
    gram = np.asarray((x @ x.T).todense())
    gram[np.diag_indices_from(gram)] += lam
    delta = x.T @ cho_solve(cho_factor(gram, overwrite_a=True), residual)
    w = w0 + np.asarray(delta)
    fit = np.linalg.norm(np.asarray(x @ w) - scale * y) / np.linalg.norm(scale * y)
    before = np.linalg.norm(residual) / np.linalg.norm(scale * y)
    print(f"ridge lam={lam}: scale {scale:.3f}, relative error {before:.3f} -> {fit:.3f}, "
          f"mean row change {np.linalg.norm(delta, axis=1)[np.asarray(x.sum(0)).ravel() > 0].mean():.3f}, {time.time() - start:.0f} s")
    return w


def context_means(cache, w0, halves):
    sums = np.load(os.path.join(cache, "context-sums.npy"))[halves].sum(0).astype(np.float64)
    counts = np.load(os.path.join(cache, "context-counts.npy"))[halves].sum(0)
    w = w0.copy()
    seen = counts > 0
    means = sums[seen] / counts[seen][:, None]
    w[seen] = means / np.linalg.norm(means, axis=1, keepdims=True)
    print(f"context means for {int(seen.sum())} tokens, W0 for the other {int((~seen).sum())}")
    return w


def write_bin(path, full, tokens, dims):
    reduced, kept = distil.pca(full, dims)
    matrix, scales = distil.quantise(reduced)
    with open(path, "wb") as f:
        f.write(distil.MAGIC + struct.pack("<II", len(tokens), dims))
        f.write(scales.astype("<f4").tobytes() + distil.zipf_weights(tokens).astype("<f4").tobytes() + matrix.tobytes())
    print(f"PCA to {dims}: {kept:.3f} of the variance kept; wrote {path} ({os.path.getsize(path)} bytes)")


def train(args):
    weights_path, vocab_path = distil.fetch(args.cache)
    tokenizer = tokenizer_for(vocab_path, truncate=False)
    tokens = open(vocab_path, encoding="utf-8").read().split("\n")[:-1]
    rows = fusion.index_rows(args.index)
    check_ids(args.cache, rows)
    w0 = np.load(args.w0).astype(np.float64)
    picked = [i for i, r in enumerate(rows) if args.train_half is None or fusion.half(r[6]) == args.train_half]
    halves = [0, 1] if args.train_half is None else [args.train_half]
    print(f"training on {len(picked)} of {len(rows)} entries")
    if args.method == "context":
        w = context_means(args.cache, w0, halves)
    else:
        specials = distil.zipf_weights(tokens) == 0
        # the SIF weights semantic_fusion.py uses, from the training entries' own text
        sif = fusion.sif_weights([fusion.full_text(rows[i]) for i in picked], tokenizer, specials)
        x = bag_of_tokens([fusion.entry_text(*rows[i][1:4]) for i in picked], tokenizer, sif)
        y = np.load(os.path.join(args.cache, "entries-384.npy"))[picked].astype(np.float64)
        w = ridge(x, y, w0, args.lam, args.align)
    write_bin(args.out, w, tokens, args.dims)


def neighbours(args):
    _, vocab_path = distil.fetch(args.cache)
    tokenizer = tokenizer_for(vocab_path, truncate=False)
    tokens = open(vocab_path, encoding="utf-8").read().split("\n")[:-1]
    matrix, weights = fusion.read_bin(args.index)
    unit = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    words = np.array([t.isalpha() and not t.startswith("[") for t in tokens])
    for word in args.words:
        ids = tokenizer.encode(word, add_special_tokens=False).ids
        v = unit[ids].sum(0)
        cosines = np.where(words, unit @ (v / np.linalg.norm(v)), -2)
        cosines[ids] = -2
        best = np.argsort(-cosines)[:8]
        print(f"{word} ({' '.join(tokens[i] for i in ids)}): " + ", ".join(f"{tokens[i]} {cosines[i]:.2f}" for i in best))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("encode", "train", "neighbours"))
    parser.add_argument("index", help="the index (encode, train) or the token-vectors.bin (neighbours)")
    parser.add_argument("words", nargs="*")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "skill-distil"))
    parser.add_argument("--w0")
    parser.add_argument("--out")
    parser.add_argument("--method", choices=("ridge", "context"), default="ridge")
    parser.add_argument("--lam", type=float, default=0.01)
    parser.add_argument("--align", action="store_true", help="ridge toward W0 mapped affinely onto the entry vectors")
    parser.add_argument("--train-half", type=int, choices=(0, 1))
    parser.add_argument("--dims", type=int, default=128)
    args = parser.parse_args()
    if args.command == "encode":
        encode(args)
    elif args.command == "neighbours":
        neighbours(args)
    else:
        if not (args.w0 and args.out):
            parser.error("train needs --w0 and --out")
        train(args)


if __name__ == "__main__":
    main()
