"""``catalogue-desktop serve-demo``: the demo catalogue over HTTP."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.demo import server

    def ready(url: str) -> None:
        print(f"Serving demo catalogue on {url}/v1 (Ctrl+C to stop)", flush=True)

    try:
        server.serve(args.host, args.port, args.size, args.seed, ready=ready)
    except OSError as exc:
        print(f"catalogue-desktop: cannot serve on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0
