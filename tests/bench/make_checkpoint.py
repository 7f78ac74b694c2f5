#!/usr/bin/env python3
"""Writes a synthetic checkpoint shaped like Llama-3-8B's attention (only the q and k projections):
32 layers, q_proj [32 x 128, 4096] and k_proj [8 x 128, 4096] in BF16, ~1.3 GB, plus config.json.

Usage: make_checkpoint.py DIR [layers]
The weights repeat one 4 MiB block of finite BF16 values (random mantissas, exponents of numbers
near 0.02): the reader's work does not depend on the values, and nothing here needs numpy.
"""
import array
import json
import os
import random
import struct
import sys

out = sys.argv[1]
layers = int(sys.argv[2]) if len(sys.argv) > 2 else 32
heads, kv_heads, head_dim, hidden = 32, 8, 128, 4096
os.makedirs(out, exist_ok=True)

rng = random.Random(0)
block = array.array("H", (((rng.getrandbits(1) << 15) | ((118 + rng.getrandbits(3)) << 7)
                           | rng.getrandbits(7)) for _ in range(2 << 20)))
block_bytes = block.tobytes()  # 4 MiB, little-endian on the machines this runs on

tensors, offset = {}, 0
for layer in range(layers):
    for name, rows in (("q_proj", heads * head_dim), ("k_proj", kv_heads * head_dim)):
        size = rows * hidden * 2
        tensors[f"model.layers.{layer}.self_attn.{name}.weight"] = {
            "dtype": "BF16", "shape": [rows, hidden], "data_offsets": [offset, offset + size]}
        offset += size
header = json.dumps(tensors).encode()
header += b" " * (-(8 + len(header)) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(header)))
    f.write(header)
    left = offset
    while left > 0:
        chunk = block_bytes[: min(left, len(block_bytes))]
        f.write(chunk)
        left -= len(chunk)
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump({"model_type": "llama", "hidden_size": hidden, "num_attention_heads": heads,
               "num_key_value_heads": kv_heads, "num_hidden_layers": layers,
               "max_position_embeddings": 8192, "rope_theta": 500000.0}, f)
print(f"{out}: {offset / 1e9:.2f} GB of q/k bytes in {layers} layers")
