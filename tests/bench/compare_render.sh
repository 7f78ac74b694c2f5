#!/usr/bin/env bash
# Whole-process time to draw the same heatmap figure (1200 x 600 PNG, sinusoidal d_model 128,
# 512 positions, title, axes, colour bar) with `poslab render` and with matplotlib
# (tests/bench/matplotlib_heatmap.py, Debian's python3-matplotlib). Also times poslab's SVG and
# PDF output, and a --spec batch of ten PNGs (one EGL start-up for all of them).
#
#   tests/bench/compare_render.sh [POSLAB_BINARY] [RUNS]     (defaults: build/poslab, 10)
#
# Uses hyperfine when it is installed; otherwise a bash loop timed with `date +%s.%N`, printing
# the mean and the fastest run. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

POSLAB=${1:-build/poslab}
RUNS=${2:-10}
PYTHON=/usr/bin/python3
SCRIPT=tests/bench/matplotlib_heatmap.py
[ -x "$POSLAB" ] || { echo "no poslab binary at $POSLAB (build first, or pass its path)" >&2; exit 2; }
"$PYTHON" -c 'import matplotlib, numpy' 2>/dev/null || { echo "needs python3-matplotlib and python3-numpy" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
VIEW=(render sinusoidal --d-model 128 --seq-len 512 --width 1200 --height 600)

# A spec with ten figures, to show what a batch costs per figure.
{
  echo '['
  for i in $(seq 1 10); do
    sep=$([ "$i" -lt 10 ] && echo ',' || echo '')
    echo "  {\"view\": \"sinusoidal\", \"d_model\": 128, \"seq_len\": 512, \"base\": $((10000 * i)), \"width\": 1200, \"height\": 600, \"out\": \"batch$i.png\"}$sep"
  done
  echo ']'
} > "$WORK/batch.json"

declare -A COMMANDS=(
  [poslab-png]="$POSLAB ${VIEW[*]} --out $WORK/poslab.png"
  [poslab-svg]="$POSLAB ${VIEW[*]} --out $WORK/poslab.svg"
  [poslab-pdf]="$POSLAB ${VIEW[*]} --out $WORK/poslab.pdf"
  [poslab-spec-10-png]="$POSLAB render --spec $WORK/batch.json"
  [matplotlib-png]="$PYTHON $SCRIPT $WORK/matplotlib.png 128 512"
)
ORDER=(poslab-png poslab-svg poslab-pdf poslab-spec-10-png matplotlib-png)

if command -v hyperfine >/dev/null; then
  args=()
  for name in "${ORDER[@]}"; do args+=(-n "$name" "${COMMANDS[$name]}"); done
  hyperfine --warmup 2 --runs "$RUNS" --style basic "${args[@]}"
  exit 0
fi

calc() { awk "BEGIN { printf \"%.6f\", $* }"; }  # arithmetic without bc (awk is always there)

declare -A MEAN
for name in "${ORDER[@]}"; do
  command=${COMMANDS[$name]}
  $command >/dev/null 2>&1 || { echo "$name failed: $command" >&2; exit 1; }  # warm-up
  total=0
  best=999999
  for _ in $(seq 1 "$RUNS"); do
    start=$(date +%s.%N)
    $command >/dev/null 2>&1
    end=$(date +%s.%N)
    t=$(calc "$end - $start")
    total=$(calc "$total + $t")
    best=$(calc "($t < $best) ? $t : $best")
  done
  MEAN[$name]=$(calc "$total / $RUNS")
  printf '%-20s mean %7.1f ms   fastest %7.1f ms   (%s runs)\n' "$name" \
    "$(calc "${MEAN[$name]} * 1000")" "$(calc "$best * 1000")" "$RUNS"
done
echo
printf 'matplotlib / poslab, PNG (mean):               %5.1fx\n' "$(calc "${MEAN[matplotlib-png]} / ${MEAN[poslab-png]}")"
printf 'matplotlib / poslab, SVG (mean):               %5.1fx\n' "$(calc "${MEAN[matplotlib-png]} / ${MEAN[poslab-svg]}")"
printf 'matplotlib / poslab, PDF (mean):               %5.1fx\n' "$(calc "${MEAN[matplotlib-png]} / ${MEAN[poslab-pdf]}")"
printf 'matplotlib / poslab, PNG per figure in a spec: %5.1fx\n' "$(calc "${MEAN[matplotlib-png]} * 10 / ${MEAN[poslab-spec-10-png]}")"
