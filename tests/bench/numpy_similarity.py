#!/usr/bin/python3
"""The numpy baseline for PosLab's similarity matrix (see similarity_bench.cpp).

Builds the interleaved sinusoidal table PE (L x d, float64, as the paper and `poslab export
sinusoidal` define it), then the cosine similarity between every pair of positions the way
one writes it in numpy: normalise the rows and multiply, (PE / |PE|) @ (PE / |PE|).T. The
matrix product goes to whatever BLAS numpy is linked with (Debian: the libblas.so.3
alternative; install libopenblas0-pthread for OpenBLAS). Prints the time of each stage.

    python3 tests/bench/numpy_similarity.py [--seq-len 4096] [--d-model 1024]
                                            [--metric cosine|dot] [--repeat 3] [--out FILE.npy]

With --out the matrix is written with np.save (the whole-process comparison with
`poslab export similarity`, timed from the shell with `time`).
"""
import argparse
import time

import numpy as np


def sinusoidal_table(length, d, base=10000.0):
    position = np.arange(length, dtype=np.float64)[:, None]
    index = np.arange(d)
    angle = position / np.power(base, 2 * (index // 2) / d)[None, :]
    table = np.empty((length, d))
    table[:, 0::2] = np.sin(angle[:, 0::2])
    table[:, 1::2] = np.cos(angle[:, 1::2])
    return table


def similarity(table, metric):
    if metric == "dot":
        return table @ table.T
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    return unit @ unit.T


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq-len", type=int, default=4096)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--metric", choices=["cosine", "dot"], default="cosine")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()

    if args.out:  # one pass, as a user's script would do it
        np.save(args.out, similarity(sinusoidal_table(args.seq_len, args.d_model), args.metric))
        return

    try:
        blas = np.__config__.blas_opt_info.get("libraries")  # numpy < 2
    except AttributeError:
        blas = "?"
    print(f"numpy {np.__version__}, blas libraries {blas}")
    table_times, product_times = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        table = sinusoidal_table(args.seq_len, args.d_model)
        middle = time.perf_counter()
        result = similarity(table, args.metric)
        end = time.perf_counter()
        table_times.append(middle - start)
        product_times.append(end - middle)
        del result
    print(f"L={args.seq_len} d={args.d_model} {args.metric}: "
          f"table {min(table_times) * 1e3:.1f} ms, "
          f"normalise + matmul {min(product_times) * 1e3:.1f} ms (best of {args.repeat})")


if __name__ == "__main__":
    main()
