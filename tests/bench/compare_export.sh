#!/usr/bin/env bash
# Whole-process export of the 8192 x 1024 sinusoidal table: poslab vs numpy (+ np.save).
# Usage: tests/bench/compare_export.sh [build-dir]   (prints the best of 5 runs of each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() {
  local best=999999
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null; end=$(date +%s.%N)
    best=$(echo "$best $start $end" | awk '{t = $3 - $2; print (t < $1 ? t : $1)}')
  done
  echo "$best"
}
poslab=$(best "$build/poslab" export sinusoidal --d-model 1024 --seq-len 8192 --out "$out/poslab.npy")
numpy=$(best /usr/bin/python3 "$here/numpy_sinusoidal.py" save 1024 8192 "$out/numpy.npy")
/usr/bin/python3 -c "import numpy as np, sys; a=np.load(sys.argv[1]); b=np.load(sys.argv[2]); print('max |poslab - numpy| =', abs(a-b).max())" "$out/poslab.npy" "$out/numpy.npy"
echo "poslab export: ${poslab} s   numpy + np.save: ${numpy} s   speed-up: $(echo "$numpy $poslab" | awk '{printf "%.1fx", $1/$2}')"
/usr/bin/python3 "$here/numpy_sinusoidal.py" time 1024 8192
