#!/usr/bin/env python3
"""The browser build in headless Chromium: every view, lesson and presentation drawn as the
desktop draws them, in both builds, with the page's files, downloads and clipboard.

Serves build-web/ (serve.py), drives Debian's `chromium` over its DevTools pipe
(--remote-debugging-pipe: requestAnimationFrame runs for real, unlike --virtual-time-budget) in a
1024x768 viewport, opens each figure through its link (#view=NAME, #lesson=N), waits until frames
are drawn with no figure still computing, and reads the page back (Page.captureScreenshot).
A figure passes when
  - the canvas is drawn: at least 2 % of its pixels differ from the window background and it
    holds at least 32 distinct colours, and
  - its probe pixels match the desktop: the desktop app (`poslab --window-size 1024x768 --view
    NAME --screenshot`, or --lesson N, or --presentation, under Xvfb) is the independent
    reference; the probes are the pixels of its screenshot that are saturated colour (heatmap
    cells, curves: not the grey interface), and at least 90 % of them must equal the page's
    within 3 per channel.
A blank-canvas page (index.html?nostart: the page without the program) must fail the same
check (the negative case), so a check that passes everything cannot go unnoticed.

Served with the isolation headers the page must run its threaded build (crossOriginIsolated,
poslabHasThreads() == 1): every view, F5 presentation (a real key press), the first step of every
lesson, then
  - File > Open file…: a small .npy set on the page's <input type=file> (DOM.setFileInputFiles)
    opens in the Learned view ("loaded picked.npy"); one dropped on the canvas (a DragEvent
    carrying a File) takes the same path ("loaded dropped.npy");
  - downloads (Browser.setDownloadBehavior into a temporary folder): the numbers as CSV and NPY
    equal the values of the .npy that was opened; the figure PNG has the size of the page's
    figure area (not the window) and its pixels equal the page's screenshot there; the session
    is a PosLab session naming the opened file;
  - clipboard: a paste event's text is what ImGui pastes; what ImGui copies is the page's.
Served without the headers the page must run its single-threaded build (poslabHasThreads() ==
0, "(single-threaded)" in the title): every view again against the desktop, and the .npy picked
(its reading is a background job: here it runs between frames).

Also measured and printed (README: Browser, budgets): the gzip'd download of each build, the
time from navigation to the first figure in each, and the sinusoidal base-slider benchmark's
median frame in the page (the desktop's scenario code, ui/bench_scenarios.cpp).

Usage: check_web.py [--build build-web] [--desktop build/poslab] [--views a,b] [--no-bench]
                    [--no-lessons] [--keep DIR]
Exit 0 when every check passes, 1 otherwise.
"""
import argparse
import base64
import fcntl
import gzip
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve  # noqa: E402

VIEWS = ["Sinusoidal", "RoPE", "Vision RoPE", "ALiBi", "T5", "Relative", "Learned", "Similarity",
         "Meaning", "Intuitions", "Extrapolation", "Compare", "Context"]
WIDTH, HEIGHT = 1024, 768
BUDGET_DOWNLOAD_BYTES = 3 * 1024 * 1024
BUDGET_FIRST_FIGURE_S = 3.0


# ---- PNG (8-bit RGB/RGBA, not interlaced: what Chromium and PosLab write) -----------------
def read_png(data):
    """Returns (width, height, rows) with rows[y] a bytes of RGB triples."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, width = 8, [], 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        previous = line
        if channels == 4:
            line = bytes(b for j in range(0, stride, 4) for b in line[j:j + 3])
        rows.append(bytes(line))
    return width, height, rows


# ---- The checks -------------------------------------------------------------------------
def drawn(image):
    """(passes, what): the canvas holds a figure, not a blank or a bare interface."""
    width, height, rows = image
    background = rows[height - 1][0:3]
    differing, colours = 0, set()
    for y in range(0, height, 2):
        row = rows[y]
        for x in range(0, width * 3, 6):
            pixel = row[x:x + 3]
            if pixel != background:
                differing += 1
            if len(colours) < 4096:
                colours.add(pixel)
    share = differing / ((height // 2) * (width // 2))
    ok = share >= 0.02 and len(colours) >= 32
    return ok, f"{share * 100:.1f}% drawn, {len(colours)}{'+' if len(colours) >= 4096 else ''} colours"


def saturated(pixel):
    return max(pixel) - min(pixel) >= 60


def probes_match(page, desktop):
    """(passes, what): the desktop's coloured pixels equal the page's."""
    _, height, page_rows = page
    width, dheight, desktop_rows = desktop
    if (width, dheight) != (page[0], height):
        return False, f"sizes differ: page {page[0]}x{height}, desktop {width}x{dheight}"
    probes = matched = 0
    for y in range(0, height, 3):
        drow, prow = desktop_rows[y], page_rows[y]
        for x in range(0, width * 3, 9):
            d = drow[x:x + 3]
            if not saturated(d):
                continue
            probes += 1
            p = prow[x:x + 3]
            if all(abs(a - b) <= 3 for a, b in zip(d, p)):
                matched += 1
    if probes < 50:
        return False, f"only {probes} coloured probe pixels in the desktop's screenshot"
    share = matched / probes
    return share >= 0.9, f"{matched}/{probes} probes ({share * 100:.0f}%) equal the desktop's"


# ---- Chromium over its DevTools pipe ------------------------------------------------------
class Chromium:
    def __init__(self, profile):
        to_chrome_read, self._write = os.pipe()
        self._read, from_chrome_write = os.pipe()
        # Chromium reads fd 3 and writes fd 4 (--remote-debugging-pipe). The child's ends are
        # first moved above 4, so putting them in place cannot overwrite one with the other.
        child_read = fcntl.fcntl(to_chrome_read, fcntl.F_DUPFD, 10)
        child_write = fcntl.fcntl(from_chrome_write, fcntl.F_DUPFD, 10)
        os.close(to_chrome_read)
        os.close(from_chrome_write)

        def fds():
            os.dup2(child_read, 3)
            os.dup2(child_write, 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless", "--remote-debugging-pipe", "--no-sandbox",
             "--no-first-run", "--no-default-browser-check", "--disable-gpu-sandbox",
             "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows", f"--user-data-dir={profile}",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            preexec_fn=fds, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile, "chromium.log"), "wb"),
            pass_fds=(3, 4, child_read, child_write))
        os.close(child_read)
        os.close(child_write)
        self._next, self._buffer, self.console = 0, b"", []
        self._results = {}
        self.session = None

    def _send(self, method, params=None, session=True):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        return self._next

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=True, timeout=60):
        ident = self._send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline)
            if message.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", "")) for a in message["params"]["args"]))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def open_tab(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expression, timeout=60):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            return None
        return result["result"].get("value")

    def screenshot(self):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        return base64.b64decode(data)

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


STATUS = """(() => {
  if (typeof Module === 'undefined' || !Module.ccall || !Module.calledRun) return null;
  return {frames: Module.ccall('poslabFramesDrawn', 'number'),
          waiting: Module.ccall('poslabWaitingForWork', 'number'),
          view: Module.ccall('poslabCurrentView', 'string'),
          status: Module.ccall('poslabStatus', 'string'),
          threads: Module.ccall('poslabHasThreads', 'number'),
          presentation: Module.ccall('poslabPresentationOn', 'number'),
          isolated: self.crossOriginIsolated === true,
          title: document.title};
})()"""


def page_status(chrome):
    return chrome.evaluate(STATUS)


def wait_for(chrome, what, predicate, timeout=60):
    """Polls the page's status until predicate(status) holds; returns that status."""
    start, status = time.monotonic(), None
    while time.monotonic() - start < timeout:
        status = page_status(chrome)
        if status and predicate(status):
            return status
        time.sleep(0.05)
    raise TimeoutError(f"{what}: not within {timeout} s (last status {status})")


def settle(chrome, view, start, timeout=60):
    """Waits until `view` is shown with nothing computing for a few frames (ImGui's layout
    settles over a couple); returns the seconds since `start`."""
    seen_at = None
    while time.monotonic() - start < timeout:
        status = page_status(chrome)
        if status and status["view"].lower() == view.lower() and not status["waiting"]:
            if seen_at is None:
                seen_at = status["frames"]
            elif status["frames"] >= seen_at + 3:
                return time.monotonic() - start
        elif status:
            seen_at = None
        time.sleep(0.05)
    raise TimeoutError(f"{view}: no settled frame within {timeout} s (last status {page_status(chrome)})")


def open_view(chrome, url, view, timeout=60):
    """Navigates and waits until `view` is shown, settled, with nothing computing.
    Returns the seconds from navigation to that first settled figure."""
    start = time.monotonic()
    chrome.call("Page.navigate", {"url": url})
    return settle(chrome, view, start, timeout)


def desktop_screenshot(desktop, name, options, folder):
    path = os.path.join(folder, f"desktop-{name.replace(' ', '_')}.png")
    if not os.path.exists(path):
        subprocess.run(["xvfb-run", "-a", "-s", "-noreset -screen 0 1280x1024x24", desktop, "--fresh",
                        "--window-size", f"{WIDTH}x{HEIGHT}", *options, "--screenshot", path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    with open(path, "rb") as f:
        return read_png(f.read())


def gzip_size(folder, names):
    total = 0
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            total += len(gzip.compress(f.read(), 9))
    return total


# ---- .npy (2-D float64, C order: what the check writes and PosLab exports) ----------------
def npy_bytes(rows):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), len(rows[0]))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    data = b"".join(struct.pack("<%dd" % len(row), *row) for row in rows)
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def read_npy(data):
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    major = data[6]
    length, offset = (struct.unpack("<H", data[8:10])[0], 10) if major == 1 else (struct.unpack("<I", data[8:12])[0], 12)
    header = data[offset:offset + length].decode()
    import ast
    info = ast.literal_eval(header)
    assert info["descr"] in ("<f8", "<f4") and not info["fortran_order"], f"unexpected header {header}"
    rows, cols = info["shape"]
    size = 8 if info["descr"] == "<f8" else 4
    values = struct.unpack("<%d%s" % (rows * cols, "d" if size == 8 else "f"),
                           data[offset + length:offset + length + rows * cols * size])
    return [list(values[r * cols:(r + 1) * cols]) for r in range(rows)]


def table(seed, rows=48, cols=12):
    """A small position table with exact binary fractions (no rounding anywhere)."""
    return [[((r * 7 + c * 3 + seed) % 17 - 8) / 8.0 for c in range(cols)] for r in range(rows)]


def same_table(got, want):
    """The exported table is the opened one: its rows, then NaN rows for positions shown past
    its end (the Learned view shows some), or a leading part of it."""
    if not got or len(got[0]) != len(want[0]):
        return False
    for r, row in enumerate(got):
        if r < len(want):
            if row != want[r]:
                return False
        elif not all(math.isnan(v) for v in row):
            return False
    return True


def same_values(a, b):
    """Equal tables, NaN equal to NaN."""
    return len(a) == len(b) and all(
        len(x) == len(y) and all(p == q or (math.isnan(p) and math.isnan(q)) for p, q in zip(x, y))
        for x, y in zip(a, b))


# ---- The groups of checks ---------------------------------------------------------------
class Run:
    def __init__(self, chrome, args, folder):
        self.chrome, self.args, self.folder = chrome, args, folder
        self.failures = []

    def check(self, ok, name, what):
        print(f"{name}: {'ok' if ok else 'FAIL'}  {what}")
        if not ok:
            self.failures.append(f"{name}: {what}")
        return ok

    def compare(self, name, desktop_name, desktop_options, seconds):
        """The page as it is now against the desktop's screenshot of the same figure."""
        png = self.chrome.screenshot()
        with open(os.path.join(self.folder, f"page-{name.replace(' ', '_')}.png"), "wb") as f:
            f.write(png)
        page = read_png(png)
        ok_drawn, what_drawn = drawn(page)
        reference = desktop_screenshot(self.args.desktop, desktop_name, desktop_options, self.folder)
        ok_probes, what_probes = probes_match(page, reference)
        self.check(ok_drawn and ok_probes, name, f"settled in {seconds:.2f} s; {what_drawn}; {what_probes}")
        return page

    def views(self, base, label):
        """Every view through its link; returns the seconds to the first settled figure."""
        first = None
        for view in [v for v in self.args.views.split(",") if v]:
            try:
                seconds = open_view(self.chrome, f"{base}#view={view}", view)
            except TimeoutError as error:
                self.check(False, f"{label} {view}", str(error))
                continue
            first = seconds if first is None else first
            self.compare(f"{label} {view}", view, ["--view", view], seconds)
        return first

    def presentation(self, base):
        """F5 (a real key press) in the page: presentation mode, drawn as the desktop's."""
        open_view(self.chrome, f"{base}?fresh=presentation#view=Sinusoidal", "Sinusoidal")
        self.chrome.call("Page.bringToFront")
        self.chrome.evaluate("document.getElementById('canvas').focus()")
        for kind in ("rawKeyDown", "keyUp"):
            self.chrome.call("Input.dispatchKeyEvent", {"type": kind, "key": "F5", "code": "F5",
                                                        "windowsVirtualKeyCode": 116,
                                                        "nativeVirtualKeyCode": 116})
            # Dear ImGui 1.86 reads key states once a frame (no event queue): a press and a
            # release between two frames would never be seen.
            time.sleep(0.3)
        try:
            start = time.monotonic()
            wait_for(self.chrome, "presentation mode after F5", lambda s: s["presentation"], 10)
            seconds = settle(self.chrome, "Sinusoidal", start)
        except TimeoutError as error:
            self.check(False, "presentation (F5)", str(error))
            return
        self.compare("presentation (F5)", "presentation-Sinusoidal",
                     ["--view", "Sinusoidal", "--presentation"], seconds)

    def lessons(self, base):
        """The first step of every lesson (#lesson=N), against the desktop's --lesson N."""
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        with open(os.path.join(root, "assets", "lessons.json")) as f:
            lessons = json.load(f)["lessons"]
        for number, lesson in enumerate(lessons, 1):
            name = f"lesson {number} ({lesson['title']})"
            try:
                # A fresh page each: a lesson's settings stay with the page, as on the desktop.
                seconds = open_view(self.chrome, f"{base}?fresh=lesson{number}#lesson={number}",
                                    lesson["view"])
            except TimeoutError as error:
                self.check(False, name, str(error))
                continue
            self.compare(name, f"lesson-{number}", ["--lesson", str(number)], seconds)

    def pick(self, label, path, name):
        """File > Open file…'s <input type=file> given `path`: the Learned view loads it."""
        document = self.chrome.call("DOM.getDocument")
        node = self.chrome.call("DOM.querySelector", {"nodeId": document["root"]["nodeId"],
                                                      "selector": "#file-picker"})["nodeId"]
        start = time.monotonic()
        self.chrome.call("DOM.setFileInputFiles", {"files": [path], "nodeId": node})
        try:
            wait_for(self.chrome, f"opening {name}", lambda s: s["status"] == f"loaded {name}", 30)
            seconds = settle(self.chrome, "Learned", start)
        except TimeoutError as error:
            return self.check(False, f"{label} open file (picker)", str(error))
        ok, what = drawn(read_png(self.chrome.screenshot()))
        return self.check(ok, f"{label} open file (picker)",
                          f"{name} loaded in the Learned view in {seconds:.2f} s; {what}")

    def drop(self, data, name):
        """A file dropped on the canvas (the browser's DragEvent with a File in it)."""
        encoded = base64.b64encode(data).decode()
        self.chrome.evaluate(f"""(() => {{
          const bytes = Uint8Array.from(atob('{encoded}'), c => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], '{name}'));
          document.getElementById('canvas').dispatchEvent(
              new DragEvent('drop', {{dataTransfer: transfer, bubbles: true, cancelable: true}}));
        }})()""")
        try:
            wait_for(self.chrome, f"dropping {name}", lambda s: s["status"] == f"loaded {name}", 30)
            settle(self.chrome, "Learned", time.monotonic())
        except TimeoutError as error:
            return self.check(False, "drop", str(error))
        return self.check(True, "drop", f"{name} dropped on the canvas loaded in the Learned view")

    def downloaded(self, folder, name, timeout=30):
        path = os.path.join(folder, name)
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
                with open(path, "rb") as f:
                    return f.read()
            time.sleep(0.1)
        raise TimeoutError(f"{name} was not downloaded within {timeout} s "
                           f"(folder holds {sorted(os.listdir(folder))})")

    def downloads(self, folder, opened, opened_name):
        """CSV and NPY of the visible view, the figure PNG and the session, as downloads."""
        chrome = self.chrome
        try:
            chrome.evaluate("Module.ccall('poslabExportNumbers', 'number', ['string', 'string'], "
                            "['/downloads', 'numbers'])")
            exported = read_npy(self.downloaded(folder, "numbers.npy"))
            self.check(same_table(exported, opened), "download NPY",
                       f"{len(exported)}x{len(exported[0]) if exported else 0} values, equal to the opened file's")
            csv = self.downloaded(folder, "numbers.csv").decode()
            rows = [[float(v) if v.strip() else math.nan for v in line.split(",")]
                    for line in csv.splitlines() if line and not line.startswith("#")]
            self.check(same_values(rows, exported) and len(rows) > 0, "download CSV",
                       f"{len(rows)} rows of numbers, equal to the NPY's")
        except (TimeoutError, AssertionError, ValueError, IndexError) as error:
            self.check(False, "download CSV/NPY", str(error))
        try:
            wait_for(chrome, "the figure area", lambda s: not s["waiting"], 30)
            chrome.evaluate("Module.ccall('poslabDownloadFigurePng', null, ['string'], "
                            "['/downloads/figure.png'])")
            figure = read_png(self.downloaded(folder, "figure.png"))
            x, y, w, h = [float(v) for v in chrome.evaluate(
                "Module.ccall('poslabFigureArea', 'string')").split()]
            screen = read_png(chrome.screenshot())
            x0, y0 = int(x), int(y)
            size_ok = abs(figure[0] - w) <= 2 and abs(figure[1] - h) <= 2 and figure[0] < WIDTH
            equal = total = 0
            for row in range(0, figure[1], 4):
                for col in range(0, figure[0], 4):
                    total += 1
                    a = figure[2][row][col * 3:col * 3 + 3]
                    b = screen[2][y0 + row][(x0 + col) * 3:(x0 + col) * 3 + 3]
                    equal += all(abs(p - q) <= 3 for p, q in zip(a, b))
            self.check(size_ok and equal >= 0.95 * total, "download figure PNG",
                       f"{figure[0]}x{figure[1]} (figure area {w:g}x{h:g} at {x:g},{y:g} of the "
                       f"{WIDTH}x{HEIGHT} page); {equal}/{total} pixels equal the screen's")
        except (TimeoutError, AssertionError, ValueError, IndexError) as error:
            self.check(False, "download figure PNG", str(error))
        try:
            chrome.evaluate("Module.ccall('poslabSaveSession', 'number', ['string'], "
                            "['/downloads/session.json'])")
            session = json.loads(self.downloaded(folder, "session.json"))
            text = json.dumps(session)
            self.check(session.get("format") == "poslab-session" and opened_name in text,
                       "download session", f"format {session.get('format')!r}, names {opened_name}")
        except (TimeoutError, ValueError) as error:
            self.check(False, "download session", str(error))

    def clipboard(self):
        chrome = self.chrome
        chrome.evaluate("""(() => {
          const transfer = new DataTransfer();
          transfer.setData('text/plain', 'pasted from elsewhere');
          document.dispatchEvent(new ClipboardEvent('paste', {clipboardData: transfer}));
        })()""")
        pasted = chrome.evaluate("Module.ccall('poslabImGuiClipboard', 'string')")
        chrome.evaluate("Module.ccall('poslabImGuiCopy', null, ['string'], ['copied in PosLab'])")
        copied = chrome.evaluate("Module.poslabClipboard")
        self.check(pasted == "pasted from elsewhere" and copied == "copied in PosLab", "clipboard",
                   f"ImGui pastes {pasted!r} after a paste event; the page holds {copied!r} after ImGui copies")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build-web")
    parser.add_argument("--desktop", default="build/poslab")
    parser.add_argument("--views", default=",".join(VIEWS))
    parser.add_argument("--no-bench", action="store_true")
    parser.add_argument("--no-lessons", action="store_true")
    parser.add_argument("--keep", help="folder for the screenshots (default: a temporary one)")
    args = parser.parse_args()
    for needed in (os.path.join(args.build, "poslab.wasm"), os.path.join(args.build, "poslab-st.wasm"),
                   args.desktop):
        if not os.path.exists(needed):
            print(f"check_web: {needed} is missing (./dev web; ./dev build)", file=sys.stderr)
            return 1
    folder = args.keep or tempfile.mkdtemp(prefix="poslab-web-")
    os.makedirs(folder, exist_ok=True)
    downloads = tempfile.mkdtemp(prefix="poslab-downloads-")
    isolated = serve.make_server(args.build, 0)
    plain = serve.make_server(args.build, 0, isolated=False)
    for server in (isolated, plain):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{isolated.server_address[1]}/index.html"
    plain_base = f"http://127.0.0.1:{plain.server_address[1]}/index.html"
    picked = table(1)
    picked_path = os.path.abspath(os.path.join(folder, "picked.npy"))
    with open(picked_path, "wb") as f:
        f.write(npy_bytes(picked))
    profile = tempfile.mkdtemp(prefix="poslab-chromium-")
    chrome = Chromium(profile)
    run = Run(chrome, args, folder)
    started = time.monotonic()
    try:
        chrome.open_tab()
        chrome.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads},
                    session=False)
        for label, names in (("threads", ["index.html", "poslab.js", "poslab.wasm", "poslab.worker.js",
                                          "DejaVuSans.ttf"]),
                             ("single-threaded", ["index.html", "poslab-st.js", "poslab-st.wasm",
                                                  "DejaVuSans.ttf"])):
            size = gzip_size(args.build, names)
            run.check(size <= BUDGET_DOWNLOAD_BYTES, f"download, {label} (gzip -9)",
                      f"{size / 1e6:.2f} MB (budget 3 MB)")
        # The negative case: a page with no program must fail the drawn-canvas check.
        chrome.call("Page.navigate", {"url": base + "?nostart"})
        time.sleep(1.0)
        blank_ok, blank_what = drawn(read_png(chrome.screenshot()))
        run.check(not blank_ok, "negative case (blank page)",
                  f"{'WRONGLY PASSES' if blank_ok else 'fails as it must'} ({blank_what})")

        # ---- Isolated: the threaded build
        first = run.views(base, "threads")
        status = page_status(chrome)
        run.check(bool(status) and status["isolated"] and status["threads"] == 1, "threads build",
                  f"crossOriginIsolated {status and status['isolated']}, poslabHasThreads {status and status['threads']}")
        if first is not None:
            print(f"first figure (threads): {first:.2f} s after navigation (budget {BUDGET_FIRST_FIGURE_S:.0f} s)")
        run.presentation(base)
        open_view(chrome, f"{base}?fresh=files#view=Sinusoidal", "Sinusoidal")
        if run.pick("threads", picked_path, "picked.npy"):
            run.downloads(downloads, picked, "picked.npy")
        run.drop(npy_bytes(table(2)), "dropped.npy")
        run.clipboard()
        if not args.no_lessons:
            run.lessons(base)

        # ---- Without the isolation headers: the single-threaded build
        first = run.views(plain_base, "single")
        status = page_status(chrome)
        run.check(bool(status) and not status["isolated"] and status["threads"] == 0
                  and "single-threaded" in status["title"], "single-threaded build",
                  f"crossOriginIsolated {status and status['isolated']}, poslabHasThreads "
                  f"{status and status['threads']}, title {status and status['title']!r}")
        if first is not None:
            print(f"first figure (single-threaded): {first:.2f} s after navigation (budget {BUDGET_FIRST_FIGURE_S:.0f} s)")
        open_view(chrome, f"{plain_base}?fresh=files#view=Sinusoidal", "Sinusoidal")
        run.pick("single", picked_path, "picked.npy")

        if not args.no_bench:
            open_view(chrome, f"{base}?fresh=bench#view=Sinusoidal", "Sinusoidal")
            chrome.console.clear()
            chrome.evaluate("Module.ccall('poslabRunBenchmark', 'number', ['string', 'number'], ['slider', 300])",
                            timeout=600)
            chrome.evaluate("1")  # collect the console lines the benchmark printed
            for line in chrome.console:
                if line.startswith(("scenario", "frames")):
                    print(f"page benchmark: {line}")
    finally:
        chrome.close()
        for server in (isolated, plain):
            server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(downloads, ignore_errors=True)
    print(f"web check took {time.monotonic() - started:.0f} s")
    if args.keep:
        print(f"screenshots in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    for failure in run.failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    print("web check: " + ("ok" if not run.failures else f"{len(run.failures)} failures"))
    return 0 if not run.failures else 1


if __name__ == "__main__":
    sys.exit(main())
