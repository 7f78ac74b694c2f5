#!/usr/bin/python3
"""The sinusoidal table in numpy, as a reader of the paper would write it.

  numpy_sinusoidal.py time D L      prints seconds per table (best of 5) and ns per value
  numpy_sinusoidal.py save D L OUT  builds the table and np.save()s it (for whole-process timing)
"""
import sys
import time

import numpy as np


def table(d, length, base=10000.0):
    position = np.arange(length, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float64) * -(np.log(base) / d))
    pe = np.empty((length, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term[: d // 2])
    return pe


if __name__ == "__main__":
    mode, d, length = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if mode == "time":
        best = min(
            (lambda t0: (table(d, length), time.perf_counter() - t0)[1])(time.perf_counter())
            for _ in range(5))
        print(f"numpy table {length}x{d}: {best * 1e3:.1f} ms, {best * 1e9 / (d * length):.2f} ns/value")
    else:
        np.save(sys.argv[4], table(d, length))
