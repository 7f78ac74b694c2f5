#!/usr/bin/env python3
"""The browser build in headless Chromium: every view drawn, as the desktop draws it.

Serves build-web/ with the isolation headers (serve.py), drives Debian's `chromium` over its
DevTools pipe (--remote-debugging-pipe: requestAnimationFrame runs for real, unlike
--virtual-time-budget), and for every view opens the page through its link (#view=NAME) in a
1024x768 viewport, waits until frames are drawn with no figure still computing, and reads the
page back (Page.captureScreenshot). A view passes when
  - the canvas is drawn: at least 2 % of its pixels differ from the window background and it
    holds at least 32 distinct colours, and
  - its probe pixels match the desktop: the desktop app (`poslab --window-size 1024x768 --view
    NAME --screenshot`, under Xvfb) is the independent reference; the probes are the pixels of
    its screenshot that are saturated colour (heatmap cells, curves: not the grey interface), and
    at least 90 % of them must equal the page's within 3 per channel.
A blank-canvas page (index.html?nostart: the page without the program) must fail the same
check (the negative case), so a check that passes everything cannot go unnoticed.

Also measured and printed (README: Browser, budgets): the gzip'd download, the time from
navigation to the first figure, and the sinusoidal base-slider benchmark's median frame in the
page (the desktop's scenario code, ui/bench_scenarios.cpp).

Usage: check_web.py [--build build-web] [--desktop build/poslab] [--views a,b] [--no-bench]
Exit 0 when every check passes, 1 otherwise.
"""
import argparse
import base64
import fcntl
import gzip
import json
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
          view: Module.ccall('poslabCurrentView', 'string')};
})()"""


def open_view(chrome, url, view, timeout=60):
    """Navigates and waits until `view` is shown, settled, with nothing computing.
    Returns the seconds from navigation to that first settled figure."""
    start = time.monotonic()
    chrome.call("Page.navigate", {"url": url})
    seen_at = None
    while time.monotonic() - start < timeout:
        status = chrome.evaluate(STATUS)
        if status and status["view"].lower() == view.lower() and not status["waiting"]:
            if seen_at is None:
                seen_at = status["frames"]
            elif status["frames"] >= seen_at + 3:  # a few frames for ImGui's layout to settle
                return time.monotonic() - start
        time.sleep(0.05)
    raise TimeoutError(f"{view}: no settled frame within {timeout} s (last status {status})")


def desktop_screenshot(desktop, view, folder):
    path = os.path.join(folder, f"desktop-{view.replace(' ', '_')}.png")
    if not os.path.exists(path):
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", desktop, "--fresh",
                        "--window-size", f"{WIDTH}x{HEIGHT}", "--view", view, "--screenshot", path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    with open(path, "rb") as f:
        return read_png(f.read())


def gzip_size(folder):
    total = 0
    for name in sorted(os.listdir(folder)):
        if name.endswith((".html", ".js", ".wasm", ".ttf")):
            with open(os.path.join(folder, name), "rb") as f:
                total += len(gzip.compress(f.read(), 9))
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build-web")
    parser.add_argument("--desktop", default="build/poslab")
    parser.add_argument("--views", default=",".join(VIEWS))
    parser.add_argument("--no-bench", action="store_true")
    parser.add_argument("--keep", help="folder for the screenshots (default: a temporary one)")
    args = parser.parse_args()
    for needed in (os.path.join(args.build, "poslab.wasm"), args.desktop):
        if not os.path.exists(needed):
            print(f"check_web: {needed} is missing (./dev web; ./dev build)", file=sys.stderr)
            return 1
    folder = args.keep or tempfile.mkdtemp(prefix="poslab-web-")
    os.makedirs(folder, exist_ok=True)
    server = serve.make_server(args.build, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    profile = tempfile.mkdtemp(prefix="poslab-chromium-")
    chrome = Chromium(profile)
    failures = []
    try:
        chrome.open_tab()
        download = gzip_size(args.build)
        print(f"download (gzip -9): {download / 1e6:.2f} MB (budget 3 MB)"
              + ("" if download <= BUDGET_DOWNLOAD_BYTES else "  OVER BUDGET"))
        # The negative case: a page with no program must fail the drawn-canvas check.
        chrome.call("Page.navigate", {"url": base + "?nostart"})
        time.sleep(1.0)
        blank_ok, blank_what = drawn(read_png(chrome.screenshot()))
        print(f"negative case (blank page): {'WRONGLY PASSES' if blank_ok else 'fails as it must'} ({blank_what})")
        if blank_ok:
            failures.append("the blank page passes the drawn-canvas check")
        first = None
        for view in [v for v in args.views.split(",") if v]:
            try:
                seconds = open_view(chrome, f"{base}#view={view}", view)
            except TimeoutError as error:
                failures.append(str(error))
                print(f"{view}: FAIL {error}")
                continue
            first = seconds if first is None else first
            png = chrome.screenshot()
            with open(os.path.join(folder, f"page-{view.replace(' ', '_')}.png"), "wb") as f:
                f.write(png)
            page = read_png(png)
            ok_drawn, what_drawn = drawn(page)
            ok_probes, what_probes = probes_match(page, desktop_screenshot(args.desktop, view, folder))
            ok = ok_drawn and ok_probes
            print(f"{view}: {'ok' if ok else 'FAIL'}  settled in {seconds:.2f} s; {what_drawn}; {what_probes}")
            if not ok:
                failures.append(f"{view}: {what_drawn}; {what_probes}")
        if first is not None:
            print(f"first figure: {first:.2f} s after navigation (budget {BUDGET_FIRST_FIGURE_S:.0f} s)")
        if not args.no_bench:
            open_view(chrome, f"{base}#view=Sinusoidal", "Sinusoidal")
            chrome.console.clear()
            chrome.evaluate("Module.ccall('poslabRunBenchmark', 'number', ['string', 'number'], ['slider', 300])",
                            timeout=600)
            chrome.evaluate("1")  # collect the console lines the benchmark printed
            for line in chrome.console:
                if line.startswith(("scenario", "frames")):
                    print(f"page benchmark: {line}")
    finally:
        chrome.close()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if args.keep:
        print(f"screenshots in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    print("web check: " + ("ok" if not failures else f"{len(failures)} failures"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
