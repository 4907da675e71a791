"""``catalogue-desktop doctor``: the path to the service walked step by step (``core.service.diagnosis``),
as text or ``--json``; exit 0 when no step failed, 1 otherwise."""

from __future__ import annotations

import argparse
import json
import sys

from catalogue_desktop.cli import connection
from catalogue_desktop.cli.output import say


def run(args: argparse.Namespace) -> int:
    import asyncio

    from catalogue_desktop.core.service.diagnosis import run_doctor

    with connection.service(args) as (base_url, connection_of, _profile):
        report = asyncio.run(run_doctor(base_url, connection_of, timeout=args.timeout))
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        say(report.text())
    return 0 if report.ok else 1
