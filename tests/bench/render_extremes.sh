#!/usr/bin/env bash
# render_extremes.sh — every `poslab render VIEW` at the largest values its options accept, one
# process each: wall time, CPU time and peak resident memory per view, as a Markdown table.
#   tests/bench/render_extremes.sh [path/to/poslab] [png|svg|pdf]   (VIEWS="a b": only those)
# Views and options come from `poslab render --help`: an option whose help gives a range
# "A..B" gets B; list options get their longest accepted list from the table below. A new
# view is measured without editing this file. Goal (issue 29): <= 2 s and <= 1 GiB each.
set -euo pipefail
POSLAB=${1:-build/poslab}
FORMAT=${2:-png}
[ -x "$POSLAB" ] || { echo "render_extremes.sh: no poslab at $POSLAB (build it first)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$POSLAB" render --help > "$OUT/help.txt"

python3 - "$POSLAB" "$OUT" "$FORMAT" "$(cd "$(dirname "$0")/../data/configs" && pwd)" <<'PYTHON'
import os, re, subprocess, sys, time

poslab, out, fmt = sys.argv[1], sys.argv[2], sys.argv[3]
help_text = open(os.path.join(out, "help.txt")).read()

def counting(n):
    return ",".join(str(i) for i in range(n))

def repeated(n, value):
    return ",".join([value] * n)

# Values a range in the help cannot give: lists at their longest, files, choices that cost most.
# Keys are option names; a (view, option) key applies to one view only; None leaves it out.
CONFIGS = sys.argv[4]  # tests/data/configs
OVERRIDES = {
    ("sinusoidal-curves", "dims"): counting(8),
    ("sinusoidal-curves", "seq-len"): None,  # --positions sets the curves' length
    "pairs": counting(256),
    "q": repeated(8192, "1e154"),
    "k": repeated(8192, "-1e154"),
    "biases": repeated(512, "1.7e308") + "," + repeated(512, "-1.7e308"),
    "formats": "float32,bfloat16,float16",
    ("rope-layers", "config"): os.path.join(CONFIGS, "gemma-3-4b-it.json"),
    ("mrope", "mrope-section"): "128,192,192",
    ("mrope", "prompt"): None,
    ("mrope", "merge-size"): None,
    ("learned-pca", "trajectory"): "3d",
    # The scan's cap is 2^25 angles: 64 pairs x 3 formats x 174762 positions (0..174761).
    ("rope-precision", "head-dim"): "128",
    ("rope-precision", "max-position"): "174761",
    ("extrapolation", "eval-length"): "262144",
    "sentence": None,
    "shuffled": None,
}
SKIP = {"out", "width", "height", "scale", "theme", "colormap", "help", "renderer",
        "from", "table", "tokens", "spec", "layer-type", "rope-info", "panel", "title"}
views, current = [], None
for line in help_text.splitlines():
    m = re.match(r"^([a-z0-9][a-z0-9-]*) — ", line)
    if m:
        current = {"name": m.group(1), "options": []}
        views.append(current)
        continue
    m = re.match(r"^\s+--([a-z0-9-]+)(?:\s+(\S+))?\s{2,}(.*)$", line)
    if m and current is not None:
        current["options"].append((m.group(1), m.group(2) or "", m.group(3)))
    elif current is not None and current["options"] and line.startswith(" " * 8):
        name, meta, text = current["options"][-1]
        current["options"][-1] = (name, meta, text + " " + line.strip())

def largest(view, name, meta, text):
    if (view, name) in OVERRIDES:
        return OVERRIDES[(view, name)]
    if name in OVERRIDES:
        return OVERRIDES[name]
    if name == "config":
        return None
    m = re.search(r"(-?[0-9][0-9.e+]*)\.\.(-?[0-9][0-9.e+]*)", text)
    if m and meta and meta.isupper():
        return m.group(2)
    return None

def run(arguments, target):
    start = time.monotonic()
    with open(os.path.join(out, "stderr.txt"), "w+") as stderr:
        child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=stderr,
                                 env=dict(os.environ, DISPLAY="", WAYLAND_DISPLAY=""))
        _, status, usage = os.wait4(child.pid, 0)  # this process's own CPU time and peak
        stderr.seek(0)
        error_lines = stderr.read().strip().splitlines()
    if os.path.exists(target):
        os.remove(target)
    return (time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status), error_lines[-1] if error_lines else "")

rows = []
only = os.environ.get("VIEWS", "").split()  # VIEWS="alibi t5": just these
for view in views:
    name = view["name"]
    if only and name not in only:
        continue
    chosen = {}
    for option, meta, text in view["options"]:
        if option in SKIP or not meta:
            continue
        value = largest(name, option, meta, text)
        if value is not None:
            chosen[option] = value
    target = os.path.join(out, f"{name}.{fmt}")
    # A combination the view refuses is moved toward what it accepts, as its message says:
    # an option that does not apply is dropped, a range it names is met at its top, and a
    # table over the memory cap is halved in length.
    for attempt in range(12):
        arguments = [poslab, "render", name]
        for option, value in chosen.items():
            arguments += ["--" + option, value]
        seconds, cpu, peak, code, error = run(arguments + ["--out", target], target)
        if code != 2:
            break
        m = re.search(r"--([a-z0-9-]+) (?:has no effect|does not apply|is for .*drop it)", error)
        r = re.search(r"--([a-z0-9-]+) must be (-?[0-9.e+]+)\.\.(-?[0-9.e+]+)", error)
        if m and m.group(1) in chosen:
            del chosen[m.group(1)]
        elif r:
            chosen[r.group(1)] = r.group(3)
        elif ("exceeds the memory cap" in error or "structure analysis cap" in error) \
                and "seq-len" in chosen:
            chosen["seq-len"] = str(int(chosen["seq-len"]) // 2)
        else:
            break
    used = [f"--{o} {v if len(v) <= 12 else v[:9] + '…'}" for o, v in chosen.items()]
    rows.append((name, seconds, cpu, peak, code, error if code else "", used))

print(f"| view | wall s | CPU s | peak MiB | exit | options at their largest |")
print(f"|---|---:|---:|---:|---:|---|")
for name, seconds, cpu, peak, code, error, used in rows:
    note = ", ".join(used) if code == 0 else error
    print(f"| {name} | {seconds:.2f} | {cpu:.2f} | {peak:.0f} | {code} | {note} |")
worst_time = max(r[1] for r in rows)
worst_rss = max(r[3] for r in rows)
print()
print(f"slowest {worst_time:.2f} s, largest peak {worst_rss:.0f} MiB (goal: 2 s, 1024 MiB)")
failed = [r[0] for r in rows if r[4] != 0]
if failed:
    print("refused or failed: " + ", ".join(failed))
PYTHON
