#!/usr/bin/env bash
# `poslab export rope-usage` over a synthetic Llama-3-8B-shaped checkpoint (32 layers, 32 heads x
# 128, 8 KV heads, BF16: 1.34 GB of q/k bytes, generated into a temporary folder and removed):
# whole-process time against `cat` of the same file from a warm page cache, and peak RSS.
# Usage: tests/bench/rope_usage_bench.sh [build-dir]   (best of 3 runs each)
# Goals (issue 27): time <= 1.5 x cat, peak RSS < 512 MiB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
dir=$(mktemp -d /tmp/poslab-usage-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 "$here/make_checkpoint.py" "$dir/ckpt"
file="$dir/ckpt/model.safetensors"
cat "$file" >/dev/null; cat "$file" >/dev/null  # warm the page cache
best() {
  local best=999999
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N)
    best=$(echo "$best $start $end" | awk '{t = $3 - $2; print (t < $1 ? t : $1)}')
  done
  echo "$best"
}
catTime=$(best sh -c "cat '$file' > /dev/null")
poslabTime=$(best "$build/poslab" export rope-usage --from "$dir/ckpt" --out "$dir/usage.npy")
rss=$(/usr/bin/time -f %M "$build/poslab" export rope-usage --from "$dir/ckpt" --out "$dir/usage.npy" 2>&1 >/dev/null | tail -1)
echo "cat: ${catTime} s   poslab export rope-usage: ${poslabTime} s   ratio: $(echo "$poslabTime $catTime" | awk '{printf "%.2f", $1/$2}')x   peak RSS: $((rss / 1024)) MiB"
