"""``catalogue-desktop serve-demo``: the demo catalogue over HTTP."""

from __future__ import annotations

import argparse
import sys

from catalogue_desktop.cli.output import say


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.demo import server

    def ready(url: str) -> None:
        say(f"Serving demo catalogue on {url}/v1 (Ctrl+C to stop)")
        sys.stdout.flush()

    try:
        server.serve(args.host, args.port, args.size, args.seed, ready=ready)
    except OSError as exc:
        say(f"catalogue-desktop: cannot serve on {args.host}:{args.port}: {exc.strerror}", sys.stderr)
        return 1
    return 0
