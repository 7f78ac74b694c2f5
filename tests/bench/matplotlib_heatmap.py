#!/usr/bin/python3
"""The matplotlib equivalent of

    poslab render sinusoidal --d-model 128 --seq-len 512 --width 1200 --height 600 --out x.png

for tests/bench/compare_render.sh: the same table (the paper's interleaved sinusoidal encoding,
base 10000), a 1200 x 600 pixel figure with a title, axis labels, a diverging colormap centred
at zero and a colour bar, saved as PNG. Debian's python3-matplotlib and python3-numpy.

Usage: /usr/bin/python3 matplotlib_heatmap.py OUT.png [D_MODEL SEQ_LEN]
"""
import sys

import matplotlib

matplotlib.use("Agg")  # no display, like `poslab render`
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "matplotlib_heatmap.png"
d_model = int(sys.argv[2]) if len(sys.argv) > 2 else 128
seq_len = int(sys.argv[3]) if len(sys.argv) > 3 else 512

position = np.arange(seq_len)[:, None]
column = np.arange(d_model)[None, :]
angle = position / np.power(10000.0, 2 * (column // 2) / d_model)
table = np.where(column % 2 == 0, np.sin(angle), np.cos(angle))

fig, ax = plt.subplots(figsize=(12, 6), dpi=100)
image = ax.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
fig.colorbar(image, ax=ax, label="value")
ax.set_title(f"Sinusoidal encoding (interleaved), d_model = {d_model}, base = 10000, {seq_len} positions")
ax.set_xlabel("dimension")
ax.set_ylabel("position")
fig.savefig(out)
