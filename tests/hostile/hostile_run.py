#!/usr/bin/env python3
"""Hostile run (issue #32): generate hostile inputs across PosLab's surfaces, run each case
as a real process and classify what went wrong.

Surfaces: numeric and text options of export kinds and render views (the relative family and
the Context plug-in included), .npy tables, .safetensors headers, config.json, spec batches,
FIFOs and devices as inputs, output targets, big buffers under a lowered cap, kills part way
through an export (the old file or a complete new one must remain), and with --gui (under
xvfb-run) session and lesson files and the GUI's FILE argument.

Classes (a case can fall in several):
  crash     killed by a signal or exit code other than 0/2 (abort, segfault)
  hang      still running after --timeout seconds (killed)
  partial   a failed run left its output or a temporary (.NAME.poslab-tmp.*, .NAME.tmp*)
  nan       exit 0 with nan or inf in a CSV written from finite input
  rss       peak RSS above POSLAB_MEMORY_CAP_MIB + --slack MiB
  message   exit 2 with stderr not exactly one line, raw control bytes or invalid UTF-8 in any
            output, or an empty stderr

Usage: tests/hostile/hostile_run.py BINARY [--cases N] [--cap MIB] [--timeout S] [--gui]
Prints one line per problem and a table surfaces x classes; exit 1 if any problem.
"""
import argparse
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

CLASSES = ["crash", "hang", "partial", "nan", "rss", "message", "harness"]

NUMBERS = ["0", "-1", "1", "2", "7", "1e400", "-1e400", "1.7e308", "-1.7e308", "5e-324", "1e-320",
           "nan", "inf", "-inf", "0x10", "+4", " 4", "4abc", "", "1e", ".", "-", "99999999999999999999",
           "2147483648", "-2147483649", "1048577", "8193", "65536", "1e9", "3.5", "1e-9", "\x1b[31m",
           "\udcff\udcfe", "1,2", "4xx4", "4x4x5", "\n", "0.0000001"]
TEXTS = ["\x1b[2Jx", "a\nb", "\udcff\udcfe", "x" * 5000, "", "..", "/", "\u009b31m"]


def npy_bytes(rows, cols, values=None, dtype="<f8", fortran=False, header_extra=""):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), %s}" % (
        dtype, "True" if fortran else "False", rows, cols, header_extra)
    header = header.ljust(((len(header) + 10 + 63) // 64) * 64 - 10 - 1) + "\n"
    out = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1")
    n = rows * cols
    if values is None:
        values = [float((i * 7919) % 13) / 7 for i in range(n)]
    fmt = {"<f8": "d", "<f4": "f"}.get(dtype, "d")
    return out + struct.pack("<%d%s" % (n, fmt), *values[:n])  # one pack: += per value was quadratic


def safetensors_bytes(header_text, data=b""):
    h = header_text.encode("utf-8", "surrogatepass") if isinstance(header_text, str) else header_text
    return struct.pack("<Q", len(h)) + h + data


_MEMO = {}


def memo(key, make):
    """The big hostile texts are built once per run (building them per case took minutes)."""
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]


class Case:
    def __init__(self, surface, args, files=None, finite=True, out=None, gui=False, env=None):
        self.surface, self.args, self.files, self.finite = surface, args, files or {}, finite
        self.out, self.gui, self.env = out, gui, env or {}


def generate(rng, count, gui):
    cases = []
    exports = {
        "sinusoidal": ["--seq-len", "--d-model", "--base"],
        "rope-freqs": ["--head-dim", "--base", "--rotary-fraction", "--factor", "--seq-len"],
        "rope-rotate": ["--head-dim", "--base"],
        "similarity": ["--seq-len", "--d-model", "--base", "--std"],
        "alibi-slopes": ["--heads"],
        "alibi-bias": ["--heads", "--seq-len"],
        "t5-buckets": ["--num-buckets", "--max-distance", "--seq-len"],
        "learned": ["--seq-len", "--d-model", "--std", "--seed"],
        "axial-rope": ["--grid", "--head-dim", "--base"],
        # The relative family and the Context plug-in (#25).
        "kerple": ["--seq-len", "--r1", "--r2", "--kernel"],
        "xpos": ["--seq-len", "--head-dim", "--gamma", "--scale-base"],
        "sandwich": ["--seq-len", "--head-dim", "--heads", "--head"],
        "fire": ["--seq-len", "--c", "--threshold", "--mlp-width"],
        "deberta": ["--seq-len", "--position-buckets", "--max-relative-positions", "--head-dim"],
        "deberta-buckets": ["--seq-len", "--position-buckets", "--max-relative-positions"],
        "cope": ["--sentence", "--seed", "--head-dim"],
        "nope": ["--seq-len"],
        "irope-mask": ["--seq-len", "--chunk-size"],
        "randomized-positions": ["--seq-len", "--max-position", "--draws"],
        "rope-scores": ["--seq-len", "--head-dim"],
    }
    renders = {
        "rope-rotation": ["--head-dim", "--base"], "sinusoidal": ["--seq-len", "--d-model"],
        "similarity": ["--seq-len", "--d-model"], "meaning": ["--d-model", "--seq-len"],
        "axial-rope": ["--grid"], "mrope": ["--prompt"], "rope-decay": ["--max-distance"],
        "extrapolation": ["--training-length", "--set", "--eval-length"], "rope-scores": ["--seq-len"],
        "compare": ["--bias-a", "--bias-b", "--seq-len", "--d-model"],
        "relative-family": ["--seq-len", "--training-length"], "kerple": ["--r1", "--r2"],
        "fire": ["--c", "--threshold"], "deberta": ["--position-buckets", "--seq-len"],
        "cope": ["--sentence"], "irope": ["--chunk-size"],
    }
    names = ["relative", "textbook", "kerple-log", "deberta", "fire", "xpos", "sandwich", "alibi"]
    # ---- CLI options
    for _ in range(count // 3):
        kind = rng.choice(list(exports))
        option = rng.choice(exports[kind])
        args = ["export", kind, option, rng.choice(NUMBERS)]
        if kind == "rope-scores" and rng.random() < 0.5:
            big = rng.choice(["1.7e308", "1e308", "1e200", "-1.7e308", "1e150"])
            args = ["export", kind, "--seq-len", rng.choice(["4", "64"]), "--q", big + ",1," + big + ",2",
                    "--k", big + ",0.5,1," + big]
        if kind == "rope-rotate":
            args += ["--vector", rng.choice(["1,2", "1.7e308,1.7e308", "1e300,1e300", "nan,1", "1,2,3"]),
                     "--positions", rng.choice(["0,1", "1e9", "-1", "0"])]
        cases.append(Case("cli-export", args + ["--out", "OUT.csv"], out="OUT.csv"))
    for _ in range(count // 6):
        view = rng.choice(list(renders))
        option = rng.choice(renders[view])
        value = rng.choice(NUMBERS + ["video:2x4x4@0x10", "image:1x4x4,text:3", "4x4"] + names)
        cases.append(Case("cli-render", ["render", view, option, value, "--out", "OUT.svg"], out="OUT.svg"))
    for _ in range(count // 40):
        big = rng.choice(["1.7e308", "1e308", "1e160", "1e150"])
        cases.append(Case("cli-render", ["render", "rope-scores", "--seq-len", "16", "--q", big + "," + big,
                                         "--k", big + "," + big, "--out", "OUT.svg"], out="OUT.svg"))
    for _ in range(count // 20):
        text = rng.choice(TEXTS)
        which = rng.choice([["export", text], ["render", text], ["render", "sinusoidal", "--renderer", text, "--out", "OUT.png"],
                            ["export", "sinusoidal", "--seq-len", "4", "--d-model", "4", "--out", "o" + text + ".csv"],
                            ["export"], ["render"], ["--lesson", text], ["--lesson", "0"], ["--view", text]])
        cases.append(Case("cli-text", which, out=None))
    # ---- .npy tables
    for _ in range(count // 8):
        rows, cols = rng.choice([(4, 4), (1, 1), (8, 8193), (3, 2)])
        vals = [rng.choice([0.0, 1.0, 1.7e308, -1.7e308, 1e-320, 3.0, float("nan"), float("inf")]) for _ in range(rows * cols)]
        finite = all(abs(v) < float("inf") for v in vals)
        data = npy_bytes(rows, cols, vals)
        if rng.random() < 0.2:
            data = data[: rng.randrange(len(data))]
        kind = rng.choice([["export", "learned-pca", "--from", "T.npy", "--out", "OUT.csv"],
                           ["export", "similarity", "--encoding", "learned", "--table", "T.npy", "--out", "OUT.csv"],
                           ["render", "meaning", "--tokens", "T.npy", "--out", "OUT.svg"],
                           ["export", "learned", "--from", "T.npy", "--out", "OUT.csv"]])
        cases.append(Case("npy", kind, {"T.npy": data}, finite=finite, out=kind[-1]))
    # ---- .safetensors
    for _ in range(count // 8):
        choice = rng.randrange(6)
        if choice == 0:
            d = rng.choice([100, 1000, 100000])
            header = memo(("meta-deep", d), lambda: '{"__metadata__":' + "[" * d + "]" * d + "}")
        elif choice == 1:
            n = rng.choice([1000, 70000, 200000])
            header = memo(("meta-keys", n), lambda: '{"__metadata__":{' + ",".join('"k%d":"v"' % i for i in range(n)) + "}}")
        elif choice == 2:
            n = rng.choice([1000, 100000])
            header = memo(("tensors", n), lambda: "{" + ",".join('"t%d":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}' % i for i in range(n)) + "}")
        elif choice == 3:
            header = '{"wpe.weight":{"dtype":"F32","shape":[4,2],"data_offsets":[0,32]},"x":1e400}'
        elif choice == 4:
            header = '{"wpe.weight":{"dtype":"F32","shape":[4,2],"data_offsets":[0,32]},"\x1b[2J":{}}'
        else:
            header = '{"wpe.weight":{"dtype":"F32","shape":[4,2],"data_offsets":[0,32]}}'
        data = struct.pack("<8f", *[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]) if "0,32" in header else b""
        kind = rng.choice([["export", "tensors", "--from", "M.safetensors", "--out", "OUT.csv"],
                           ["export", "learned-pca", "--from", "M.safetensors", "--out", "OUT.csv"]])
        cases.append(Case("safetensors", kind, {"M.safetensors": memo(("st", header), lambda: safetensors_bytes(header, data))}, out="OUT.csv"))
    # ---- config.json
    for _ in range(count // 10):
        choice = rng.randrange(7)
        if choice == 0:
            d = rng.choice([1000, 200000])
            text = memo(("cfg-deep", d), lambda: '{"model_type":"gemma3_text","x":' + "[" * d + "]" * d + "}")
        elif choice == 1:
            text = '{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"rope_theta":1e400}'
        elif choice == 2:
            text = json.dumps({"model_type": "phi3", "hidden_size": 64, "num_attention_heads": 2,
                               "max_position_embeddings": 4096,
                               "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 16,
                                                "long_factor": [5e-324] + [1.0] * 15,
                                                "original_max_position_embeddings": 1024}})
        elif choice == 3:
            text = json.dumps({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 2,
                               "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "attention_factor": 5e-324,
                                                "original_max_position_embeddings": 1024}})
        elif choice == 4:
            text = json.dumps({"model_type": "gemma3_text", "layer_types": ["a\x1b[2J", "sliding_attention"] * 2,
                               "num_hidden_layers": 4})
        elif choice == 5:
            text = '{"model_type":"llama","hidden_size":' + rng.choice(NUMBERS[:12]).replace("nan", "0") + "}"
        else:
            text = "\xff\xfe{"
        kind = rng.choice([["export", "rope-freqs", "--config", "C.json", "--out", "OUT.csv"],
                           ["export", "rope-info", "--config", "C.json", "--out", "OUT.json"],
                           ["export", "similarity", "--encoding", "rope", "--config", "C.json", "--seq-len", "16", "--out", "OUT.csv"]])
        cases.append(Case("config", kind, {"C.json": memo(("enc", text), lambda: text.encode("utf-8", "surrogateescape"))}, out=kind[-1]))
    # ---- spec batches
    for _ in range(count // 10):
        choice = rng.randrange(6)
        if choice == 0:
            d = rng.choice([100, 100000])
            text = memo(("spec-deep", d), lambda: "[" + "[" * d + "]" * d + "]")
        elif choice == 1:
            n = rng.choice([10, 10001, 320000])
            text = memo(("spec-many", n), lambda: "[" + ",".join(["{}"] * n) + "]")
        elif choice == 2:
            text = '[{"view":"axial-rope","grid":"4xx4","out":"a.svg"},{"view":"sinusoidal","out":"b.svg"}]'
        elif choice == 3:
            text = '[{"view":"rope-rotation","base":1e400,"out":"a.svg"}]'
        elif choice == 4:
            text = '[{"view":"\x1b[2J","out":"a.svg"},{"view":"sinusoidal","out":"c\x1b[1m.svg"}]'
        else:
            text = '[{"view":"sinusoidal","seq-len":' + rng.choice(NUMBERS[:10]).replace("nan", "0") + ',"out":"d.svg"}]'
        cases.append(Case("spec", ["render", "--spec", "S.json"], {"S.json": memo(("enc", text), lambda: text.encode("utf-8", "surrogateescape"))}))
    # ---- FIFOs and devices as inputs
    for target in [["render", "--spec", "FIFO"], ["export", "rope-freqs", "--config", "FIFO", "--out", "OUT.csv"],
                   ["export", "learned-pca", "--from", "FIFO", "--out", "OUT.csv"],
                   ["export", "learned-pca", "--from", "/dev/zero", "--out", "OUT.csv"],
                   ["render", "--spec", "/dev/zero"], ["export", "rope-freqs", "--config", "/dev/urandom", "--out", "OUT.csv"]]:
        for _ in range(3):
            cases.append(Case("fifo", target, {"FIFO": None}, out=None))
    # ---- output targets
    for target in ["/dev/full", "/nonexistent/x.csv", "RO/x.csv", "dir/", "FIFO"]:
        for _ in range(3):
            cases.append(Case("output", ["export", "sinusoidal", "--seq-len", "8", "--d-model", "8", "--out", target],
                              {"FIFO": None} if target == "FIFO" else {}, out=None))
    # ---- big buffers under a lowered cap
    for _ in range(count // 40):
        cases.append(Case("memory", ["export", "learned-pca", "--from", "BIG.npy", "--out", "OUT.csv"],
                          {"BIG.npy": ("big", 4096, 1024)}, out="OUT.csv", env={"POSLAB_MEMORY_CAP_MIB": "32"}))
        cases.append(Case("memory", ["export", "similarity", "--encoding", "learned", "--table", "BIG.npy",
                                     "--seq-len", "4096", "--out", "OUT.npy"],
                          {"BIG.npy": ("big", 4096, 256)}, out="OUT.npy", env={"POSLAB_MEMORY_CAP_MIB": "32"}))
    # ---- kills: an export killed part way must leave the old file or none, never a partial one
    for _ in range(max(6, count // 60)):
        kind = rng.choice([["export", "sinusoidal", "--seq-len", "65536", "--d-model", "512", "--out", "OUT.csv"],
                           ["export", "similarity", "--seq-len", "4096", "--d-model", "64", "--out", "OUT.npy"],
                           ["render", "sinusoidal", "--seq-len", "65536", "--d-model", "1024", "--out", "OUT.png"]])
        cases.append(Case("kill", kind, {}, out=kind[-1], env={"HOSTILE_KILL_AFTER": str(rng.choice([0.05, 0.2, 0.5]))}))
    # ---- sessions and lessons (GUI)
    if gui:
        for _ in range(max(10, count // 50)):
            choice = rng.randrange(5)
            deep = "[" * 100000 + "]" * 100000
            if choice == 0:
                f = ("--session", '{"format":"poslab-session","view":' + deep + "}")
            elif choice == 1:
                f = ("--session", '{"format":"poslab-session","view":"' + "\x1b[2J" + "v" * 100000 + '"}')
            elif choice == 2:
                f = ("--lessons", '{"lessons":[{"title":"t","text":"x","view":"RoPE","n":1e400}]}')
            elif choice == 3:
                f = ("--lessons", '{"lessons":[{"title":"t","view":"RoPE","text":"' + "a" * (3 << 20) + '"}]}')
            else:
                f = ("--lessons", '{"lessons":[{"title":"t","text":"x","view":"RoPE","state":' + "{\"a\":" * 50000 + "1" + "}" * 50000 + "}]}")
            cases.append(Case("gui", [f[0], "F.json", "--fresh", "--screenshot", "SHOT.png"],
                              {"F.json": f[1].encode()}, gui=True))
        # The GUI's FILE argument: whatever a user drops or names is opened by the right view.
        for _ in range(max(6, count // 100)):
            name, content = rng.choice(memo("gui-files", lambda: [
                ("F.npy", npy_bytes(4, 4, [1.7e308] * 16)),
                ("F.npy", npy_bytes(8, 8193)[:100]),
                ("F.safetensors", safetensors_bytes('{"__metadata__":' + "[" * 100000 + "]" * 100000 + "}")),
                ("F.safetensors", safetensors_bytes("{" + ",".join('"t%d":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}' % i for i in range(100000)) + "}")),
                ("F.json", '{"model_type":"llama","rope_theta":1e400}'.encode()),
                ("F.json", ("[" * 200000 + "]" * 200000).encode()),
                ("F\x1b[2J.json", b"{}"),
                ("FIFO", None)]))
            cases.append(Case("gui-file", [name, "--fresh", "--screenshot", "SHOT.png"], {name: content}, gui=True))
    rng.shuffle(cases)
    return cases


def materialise(case, folder, rng):
    for name, content in case.files.items():
        path = os.path.join(folder, name)
        if content is None:
            os.mkfifo(path)
        elif isinstance(content, tuple):
            _, rows, cols = content
            with open(path, "wb") as f:
                f.write(npy_bytes(rows, cols, [float(i % 17) for i in range(rows * cols)]))
        else:
            with open(path, "wb") as f:
                f.write(content)
    os.makedirs(os.path.join(folder, "RO"), exist_ok=True)
    os.chmod(os.path.join(folder, "RO"), 0o555)
    os.makedirs(os.path.join(folder, "dir"), exist_ok=True)


def run_case(binary, case, folder, cap, timeout):
    args = []
    for a in case.args:
        if a in case.files or a in ("OUT.csv", "OUT.svg", "OUT.png", "OUT.npy", "OUT.json", "RO/x.csv", "dir/", "FIFO", "SHOT.png", "F.json"):
            args.append(os.path.join(folder, a))
        else:
            args.append(a)
    env = dict(os.environ)
    env["POSLAB_MEMORY_CAP_MIB"] = str(cap)
    env.update(case.env)
    env.pop("DISPLAY", None) if not case.gui else None
    command = [binary] + args
    if case.gui:
        command = ["xvfb-run", "-a", "-s", "-noreset -screen 0 1024x768x24"] + command
    start = time.time()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder, env=env,
                            start_new_session=True)
    hung = False
    kill_after = case.env.get("HOSTILE_KILL_AFTER")
    if kill_after:
        if os.path.exists(os.path.join(folder, case.out)) is False:
            with open(os.path.join(folder, case.out), "wb") as f:
                f.write(b"OLD")  # the previous file, which a killed export must leave whole
        time.sleep(float(kill_after))
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return None, out, err, False, time.time() - start, usage.ru_maxrss
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc.returncode, out, err, hung, time.time() - start, usage.ru_maxrss


def valid_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def classify(case, code, out, err, hung, folder, rss_kib, cap, slack):
    problems = []
    if case.env.get("HOSTILE_KILL_AFTER"):
        # Killed on purpose: the target must be the old file or a complete new one, no temporary.
        for name in os.listdir(folder):
            if ".poslab-tmp." in name or (".tmp" in name and name.startswith(".")):
                problems.append(("partial", name))
        path = os.path.join(folder, case.out)
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
            complete = data == b"OLD" or (case.out.endswith(".csv") and data.endswith(b"\n")) or \
                (case.out.endswith(".png") and data.endswith(b"IEND\xaeB`\x82")) or \
                (case.out.endswith(".npy") and len(data) >= 4096 * 4096 * 8 + 64)
            if not complete:
                problems.append(("partial", "%s of %d bytes" % (case.out, len(data))))
        return problems
    if hung:
        problems.append(("hang", ""))
        return problems
    if code is not None and code not in (0, 1, 2):
        problems.append(("crash", "exit %s" % code))
    if case.gui:
        if code not in (0, 1, 2):
            pass
    else:
        if code == 2:
            lines = err.count(b"\n")
            # A spec batch reports each failed figure and a summary: every line "poslab: ...".
            batch = case.surface == "spec" and all(l.startswith(b"poslab: ") for l in err.splitlines())
            if lines != 1 and not batch and not (case.args[:1] in (["export"], ["render"]) and len(case.args) == 1):
                problems.append(("message", "%d lines" % lines))
            if not err:
                problems.append(("message", "empty stderr"))
    for stream in (out, err):
        bad = [b for b in stream if b < 0x20 and b not in (0x0A,)] + [0x1B] * stream.count(b"\x1b")
        if bad or not valid_utf8(stream) or b"\xc2\x9b" in stream:
            problems.append(("message", "raw control bytes or invalid UTF-8"))
            break
    # Leftovers: temporaries always; the output itself when the run failed.
    for name in os.listdir(folder):
        if ".poslab-tmp." in name or (".tmp" in name and name.startswith(".")):
            problems.append(("partial", name))
    if code != 0 and case.out and os.path.exists(os.path.join(folder, case.out)):
        problems.append(("partial", case.out))
    if code == 0 and case.finite and case.out and case.out.endswith(".csv"):
        path = os.path.join(folder, case.out)
        if os.path.exists(path):
            with open(path, "rb") as f:
                text = f.read(50 << 20).lower()
            finite_args = not any(x in " ".join(case.args).lower() for x in ("inf", "nan"))
            masked = ("similarity", "alibi-bias", "rope-decay")  # -inf marks masked cells by design
            if finite_args and (b"nan" in text or b"inf" in text) and not any(m in case.args for m in masked):
                problems.append(("nan", ""))
    limit = int(case.env.get("POSLAB_MEMORY_CAP_MIB", cap)) + slack
    if rss_kib > limit * 1024:
        problems.append(("rss", "%d MiB" % (rss_kib // 1024)))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--cases", type=int, default=1200)
    parser.add_argument("--cap", type=int, default=256)
    parser.add_argument("--slack", type=int, default=96)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--gui", action="store_true")
    parser.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    rng = random.Random(args.seed)
    cases = generate(rng, args.cases, args.gui and shutil.which("xvfb-run"))
    table = {}
    total = {}
    problems_seen = 0
    # A time budget (--budget seconds, or SIGTERM) stops early and still prints the table.
    deadline = time.time() + args.budget if args.budget else None
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        run_all = enumerate(cases)
        for i, case in run_all:
            if deadline and time.time() > deadline:
                print("budget reached after %d cases" % i)
                break
            problems_seen += run_one(args, case, rng, table, total)
    except KeyboardInterrupt:
        print("stopped early")
    print_table(table, total)
    return 1 if problems_seen else 0


def run_one(args, case, rng, table, total):
    problems_seen = 0
    if True:
        folder = tempfile.mkdtemp(prefix="poslab-hostile-")
        try:
            materialise(case, folder, rng)
            # Each case in its own child so that RUSAGE_CHILDREN is that case's peak.
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                try:
                    result = run_case(args.binary, case, folder, args.cap, args.timeout)
                    code, out, err, hung, seconds, rss = result
                    problems = classify(case, code, out, err, hung, folder, rss, args.cap, args.slack)
                    report = [problems, seconds, err[:300].decode("utf-8", "backslashreplace")]
                except Exception as error:  # the harness's own fault: shown, never silent
                    report = [[["harness", repr(error)]], 0, ""]
                os.write(w, json.dumps(report).encode())
                os._exit(0)
            os.close(w)
            data = b""
            while True:
                chunk = os.read(r, 65536)
                if not chunk:
                    break
                data += chunk
            os.close(r)
            os.waitpid(pid, 0)
            problems, seconds, err = json.loads(data)
        finally:
            os.chmod(os.path.join(folder, "RO"), 0o755) if os.path.isdir(os.path.join(folder, "RO")) else None
            shutil.rmtree(folder, ignore_errors=True)
        total[case.surface] = total.get(case.surface, 0) + 1
        seen = set()
        for kind, detail in problems:
            if kind in seen:
                continue
            seen.add(kind)
            table.setdefault(case.surface, {}).setdefault(kind, 0)
            table[case.surface][kind] += 1
            problems_seen += 1
            shown = " ".join(a[:40].encode("unicode_escape").decode() for a in case.args)
            print("%-12s %-8s %s | %s | %s" % (case.surface, kind, detail, shown, err.strip()[:160]))
    return problems_seen


def print_table(table, total):
    print("\n%-12s %6s " % ("surface", "cases") + " ".join("%8s" % c for c in CLASSES))
    for surface in sorted(total):
        print("%-12s %6d " % (surface, total[surface]) +
              " ".join("%8d" % table.get(surface, {}).get(c, 0) for c in CLASSES))
    print("%-12s %6d " % ("all", sum(total.values())) +
          " ".join("%8d" % sum(table.get(s, {}).get(c, 0) for s in total) for c in CLASSES))


if __name__ == "__main__":
    sys.exit(main())
