#!/usr/bin/env python3
"""Serves a folder on 127.0.0.1 with the two headers that make a page cross-origin isolated.

PosLab's page runs its heavy figures on threads (SharedArrayBuffer), which browsers allow only
when the page is served with Cross-Origin-Opener-Policy: same-origin and
Cross-Origin-Embedder-Policy: require-corp. Without them (--no-isolation: a host that cannot
send headers) the page loads its single-threaded build instead.
Usage: serve.py [--no-isolation] FOLDER [PORT] (./dev serve-web).
"""
import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    isolated = True

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):  # quiet: the check prints what matters
        pass


class PlainHandler(IsolatedHandler):
    isolated = False


def make_server(folder, port, isolated=True):
    handler = functools.partial(IsolatedHandler if isolated else PlainHandler, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    isolated = "--no-isolation" not in arguments
    arguments = [a for a in arguments if a != "--no-isolation"]
    folder = arguments[0] if arguments else "build-web"
    port = int(arguments[1]) if len(arguments) > 1 else 8030
    server = make_server(folder, port, isolated)
    print(f"Serving {folder} at http://127.0.0.1:{server.server_address[1]}/"
          f"{'' if isolated else ' without the isolation headers (single-threaded page)'} (Ctrl+C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
