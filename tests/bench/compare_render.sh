#!/usr/bin/env bash
# Whole-process time to draw the same heatmap figure (1200 x 600 PNG, sinusoidal d_model 128,
# 512 positions, title, axes, colour bar) with `poslab render` and with matplotlib
# (tests/bench/matplotlib_heatmap.py: imshow, colorbar, savefig; Debian's python3-matplotlib).
# poslab's PNG is timed with both renderers: --renderer cairo (the default: Cairo, no GL) and
# --renderer gl (the screen's Dear ImGui renderer on EGL/llvmpipe). Also times SVG and PDF, and
# --spec batches of ten PNGs (start-up paid once for all ten).
#
#   tests/bench/compare_render.sh [POSLAB_BINARY] [RUNS]     (defaults: build/poslab, 10)
#
# Prints, for each command, the mean and the fastest of RUNS runs (after one warm-up run), then
# matplotlib's mean over poslab's. The goal (issue #6): the default PNG at least 10 times faster
# than matplotlib. Uses hyperfine when it is installed; otherwise a bash loop timed with
# `date +%s.%N`. Run it on an otherwise idle machine.
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

# Specs with ten figures, to show what a batch costs per figure.
for renderer in cairo gl; do
  {
    echo '['
    for i in $(seq 1 10); do
      sep=$([ "$i" -lt 10 ] && echo ',' || echo '')
      echo "  {\"view\": \"sinusoidal\", \"d_model\": 128, \"seq_len\": 512, \"base\": $((10000 * i)), \"width\": 1200, \"height\": 600, \"renderer\": \"$renderer\", \"out\": \"batch-$renderer-$i.png\"}$sep"
    done
    echo ']'
  } > "$WORK/batch-$renderer.json"
done

declare -A COMMANDS=(
  [poslab-png-cairo]="$POSLAB ${VIEW[*]} --out $WORK/poslab-cairo.png"
  [poslab-png-gl]="$POSLAB ${VIEW[*]} --renderer gl --out $WORK/poslab-gl.png"
  [poslab-svg]="$POSLAB ${VIEW[*]} --out $WORK/poslab.svg"
  [poslab-pdf]="$POSLAB ${VIEW[*]} --out $WORK/poslab.pdf"
  [poslab-spec10-cairo]="$POSLAB render --spec $WORK/batch-cairo.json"
  [poslab-spec10-gl]="$POSLAB render --spec $WORK/batch-gl.json"
  [matplotlib-png]="$PYTHON $SCRIPT $WORK/matplotlib.png 128 512"
)
ORDER=(poslab-png-cairo poslab-png-gl poslab-svg poslab-pdf poslab-spec10-cairo poslab-spec10-gl
       matplotlib-png)

if command -v hyperfine >/dev/null; then
  args=()
  for name in "${ORDER[@]}"; do args+=(-n "$name" "${COMMANDS[$name]}"); done
  hyperfine --warmup 1 --runs "$RUNS" --style basic "${args[@]}"
  exit 0
fi

calc() { awk "BEGIN { printf \"%.6f\", $* }"; }  # arithmetic without bc (awk is always there)

declare -A MEAN BEST
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
  BEST[$name]=$best
  printf '%-20s mean %7.1f ms   fastest %7.1f ms   (%s runs)\n' "$name" \
    "$(calc "${MEAN[$name]} * 1000")" "$(calc "$best * 1000")" "$RUNS"
done
echo
ratio() {  # matplotlib's time over $1's (times $2 figures), mean and fastest
  printf '%5.1fx mean, %5.1fx fastest' \
    "$(calc "${MEAN[matplotlib-png]} * $2 / ${MEAN[$1]}")" "$(calc "${BEST[matplotlib-png]} * $2 / ${BEST[$1]}")"
}
echo "matplotlib / poslab:"
echo "  PNG, --renderer cairo (default):  $(ratio poslab-png-cairo 1)"
echo "  PNG, --renderer gl:               $(ratio poslab-png-gl 1)"
echo "  SVG:                              $(ratio poslab-svg 1)"
echo "  PDF:                              $(ratio poslab-pdf 1)"
echo "  PNG per figure in a spec, cairo:  $(ratio poslab-spec10-cairo 10)"
echo "  PNG per figure in a spec, gl:     $(ratio poslab-spec10-gl 10)"
goal=$(calc "(${MEAN[matplotlib-png]} >= 10 * ${MEAN[poslab-png-cairo]}) ? 1 : 0")
if [ "${goal%%.*}" = 1 ]; then
  echo "goal met: the default PNG is at least 10x faster than matplotlib (mean)"
else
  echo "goal NOT met: the default PNG is under 10x faster than matplotlib (mean)"
fi
