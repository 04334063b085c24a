"""Serve a built site on 127.0.0.1 in a process of its own, for the browser tests.

    python tests/browser/siteserver.py SITE_DIR

prints the port it listens on, then serves until it is terminated. The server runs apart from
pytest so that its answers do not wait for the Python threads of the tests (the crawl's lanes
and the interactive tests each drive a Chromium from pytest's process, and share one GIL)."""

from __future__ import annotations

import functools
import http.server
import sys


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        # LinkChecker only goes above 10 requests a second to a server that sends this header.
        self.send_header("LinkChecker", "allow")
        # The build does not change during the session: let Chromium cache the assets (Material's
        # search worker fetches the index and the lunr languages on every page).
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: siteserver.py SITE_DIR", file=sys.stderr)
        return 2
    handler = functools.partial(QuietHandler, directory=argv[0])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
