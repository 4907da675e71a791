"""The ``catalogue-desktop`` command: the window by default, and sync/check/export/find/serve-demo.

Heavy imports (Qt, httpx, pydantic) happen inside the command that needs them, so ``--version``
and ``export`` start fast. Expected failures print one clear line to stderr, never a traceback.
Exit status: 0 success, 1 a collection partial/failed or an operation failed, 2 usage errors.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

import catalogue_desktop
from catalogue_desktop.core.errors import CatalogueError
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.qt_compat.fast_exit import leave  # imports no Qt

KIND_NAMES = [k.value for k in Kind]
CACHE_HELP = (
    "the service's cache directory (default: the platform's cache dir, on Linux "
    "~/.cache/catalogue-desktop, or $CATALOGUE_DESKTOP_CACHE_DIR)"
)
DEMO_CACHE_HELP = (
    "read the demo catalogue's cache, the one the window fills when no service is set "
    "(the demo/ folder of the cache directory)"
)


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (it costs ~35 ms)."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: Any = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=default,
            help=help or "show program's version number and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        sys.stdout.write(f"catalogue-desktop {catalogue_desktop.__version__}\n")
        parser.exit()


_DASH_HINT = (
    "a query that starts with '-' goes after '--' (catalogue-desktop find -- -cle:yes), "
    "or after '=' (--query=-cle:yes)"
)


class _Parser(argparse.ArgumentParser):
    """argparse, with a hint when a query that starts with '-' was taken for an option."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        argv = getattr(self, "_argv", [])
        querying = self.prog.endswith((" find", " export")) or {"find", "--query"} & set(argv)
        if (
            querying
            and any(a.startswith("-") and not a.startswith("--") for a in argv)
            and (
                message.startswith(("unrecognized arguments", "the following arguments are required"))
                or "expected one argument" in message
            )
        ):
            message += f"; {_DASH_HINT}"
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="catalogue-desktop",
        description="Browse the seminar catalogue, online or from the local cache. "
        "Without a command, opens the window (on the bundled demo catalogue when no "
        "service is configured).",
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("--base-url", help="service address, the part before /v1 (remembered)")
    parser.add_argument("--demo", action="store_true", help="use the bundled demo catalogue")
    parser.add_argument("--offline", action="store_true", help="never contact the service")
    parser.add_argument("--cache-dir", help=CACHE_HELP + "; the demo catalogue's data is in its demo/ folder")
    parser.add_argument("--open", metavar="KIND:ID", help="select a record on start, e.g. webinar:50007")
    parser.add_argument("--currency", help="currency for fees, e.g. USD (default: plain numbers)")
    parser.add_argument(
        "--query",
        metavar="Q",
        help="open the window with this query, e.g. "
        '"city:dallas starts:2027-03 fee:<1300" (Help > Query language)',
    )
    _add_max_size(parser)
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="open the window, load the catalogue, check every tab, exit 0 or 1",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("sync", help="refresh the local cache from the service")
    p.add_argument("--base-url", required=True, dest="sync_base_url", metavar="URL")
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_max_size(p)
    _add_timeout(p)

    p = sub.add_parser("check", help="report how the service's data conforms to the spec")
    p.add_argument("--base-url", required=True, dest="sync_base_url", metavar="URL")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_max_size(p)
    _add_timeout(p)

    p = sub.add_parser(
        "export",
        help="write a cached collection as CSV or JSON, or the occasions "
        "(offerings) as CSV, JSON, a calendar file or an offer sheet (offline)",
    )
    p.add_argument(
        "kind",
        choices=[*KIND_NAMES, "offerings"],
        metavar="KIND",
        help=" | ".join(KIND_NAMES) + " | offerings (one row per course location, series "
        "session or other webinar: the window's Dates)",
    )
    p.add_argument(
        "--format",
        choices=["csv", "json", "ics", "pdf"],
        default="csv",
        help="csv | json; for offerings also ics (a calendar file) | pdf (the offer sheet)",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="default: standard output")
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    p.add_argument("--query", metavar="QUERY", help="only the records matching QUERY (see find)")
    offer = p.add_argument_group("offerings")
    offer.add_argument(
        "--include-past",
        action="store_true",
        help="also occasions that have ended (left out unless the query has a date)",
    )
    offer.add_argument("--title", default="Offer", help='the offer sheet\'s title (default "Offer")')
    offer.add_argument(
        "--group",
        choices=["course", "month"],
        default="course",
        help="the offer sheet's occasions grouped by course or by month",
    )
    offer.add_argument(
        "--paper",
        choices=["a4", "letter"],
        type=str.lower,
        help="the offer sheet's paper, a4 | letter (default: the locale's)",
    )

    p = sub.add_parser(
        "find",
        help="find records in the cached catalogue (offline)",
        description="Evaluate each QUERY on the cached catalogue, offline (README: Query language).",
        epilog=f"Exit status 0 when every query parsed, 2 when one did not. Note: {_DASH_HINT}.",
    )
    p.add_argument("queries", nargs="+", metavar="QUERY")
    p.add_argument(
        "--kind",
        action="append",
        dest="find_kinds",
        type=_table_name,
        metavar="KIND",
        help="search this kind only (repeatable): "
        + " | ".join([*KIND_NAMES, "offerings"])
        + " (default: all of them)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per query, one per line")
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)

    p = sub.add_parser("serve-demo", help="serve the demo catalogue over HTTP")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--size", type=int, help="generate a synthetic catalogue with N webinars")
    p.add_argument("--seed", type=int, default=0)
    return parser


def _add_max_size(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-size",
        type=int,
        default=256,
        metavar="MB",
        help="largest response accepted per collection, in MiB (default 256)",
    )


def _add_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="give up on a collection after this long in all, retries included (default 60)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def _table_name(text: str) -> str:
    from catalogue_desktop.core.finding import table_name

    try:
        return table_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _client(args: argparse.Namespace) -> Any:
    from catalogue_desktop.core.client import CatalogueClient

    if args.max_size < 1:
        raise SystemExit("catalogue-desktop: --max-size must be at least 1 (MiB)")
    return CatalogueClient(args.sync_base_url, max_bytes=args.max_size * 1024 * 1024, deadline=args.timeout)


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: worker processes start here too
        import multiprocessing

        multiprocessing.freeze_support()
    args = build_parser().parse_args(argv)
    try:
        commands = {"sync": _sync, "check": _check, "export": _export, "find": _find}
        commands["serve-demo"] = _serve_demo
        if args.command in commands:
            return _run(args, commands[args.command])
        import gc

        from catalogue_desktop.qt_compat import platform_check

        try:  # no display, missing libraries: one paragraph and exit 2, not Qt's abort
            platform_check.check_window_platform()
            gc.disable()  # while the window starts: ``ui.shell.app.run`` turns it on again once ready
            from catalogue_desktop.ui.shell.app import run
        except (platform_check.PlatformMissing, ImportError) as exc:
            text = platform_check.explain(exc)
            if text is None:
                raise
            print(text, file=sys.stderr)
            return platform_check.EXIT_CODE
        return run(args)
    except CatalogueError as exc:
        print(f"catalogue-desktop: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # a closed pipe (`| head`), a full disk (`> /dev/full`): one line, exit 1
        if exc.errno not in _STDOUT_ERRORS:
            raise
        return _stdout_failed(exc)


_STDOUT_ERRORS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF})


def _run(args: argparse.Namespace, command: Callable[[argparse.Namespace], int]) -> int:
    """A command, then its standard output flushed (so that a full or closed one is said here)."""
    code = command(args)
    sys.stdout.flush()
    return code


def _stdout_failed(exc: OSError) -> int:
    """Say that standard output failed, once, and make later flushes harmless; exit status 1."""
    import os

    from catalogue_desktop.core.output_file import stdout_failed

    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    print(stdout_failed(exc), file=sys.stderr)
    return 1


def entry() -> NoReturn:
    """The ``catalogue-desktop`` command, ``python -m catalogue_desktop`` and the bundle's
    launcher: :func:`main`, then ``qt_compat.fast_exit.leave`` (no interpreter teardown)."""
    leave(main())


def _open_store(cache_dir: str | None, *, demo: bool = False, reading: bool = False) -> Any:
    """The cache's store; with ``reading`` (find, export), one this process may not write is
    opened read-only, with a note, rather than blamed as unusable."""
    import os

    from catalogue_desktop.core.caches import store_file
    from catalogue_desktop.core.store import Store

    path = store_file(cache_dir, demo=demo)
    if reading and path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        print(
            f"catalogue-desktop: the cache {path} cannot be written here: read as it is (read-only)",
            file=sys.stderr,
        )
        return Store(path, read_only=True)
    store = Store(path)
    if store.recovered:
        print(f"catalogue-desktop: {store.recovered}", file=sys.stderr)
    return store


def _sync(args: argparse.Namespace) -> int:
    import asyncio

    from catalogue_desktop.core.sync import sync_catalogue

    with _open_store(args.sync_cache_dir) as store:
        path = store.path

    async def run() -> Any:
        async with _client(args) as client:
            return await sync_catalogue(client, path)

    report = asyncio.run(run())
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(_sync_text(report))
        print(f"Cache: {path}")
    return 0 if report.ok else 1


def _sync_text(report: Any) -> str:
    from catalogue_desktop.core.diff import describe_fields

    lines = []
    for kind, o in report.collections.items():
        line = f"{kind.value:13} {o.status:9} {o.records:>7} records"
        if o.rejected:
            line += f", {o.rejected} rejected"
        if o.error:
            line += f" - {o.error}"
            if o.fetched_at:
                line += f" (kept the copy of {o.fetched_at})"
        lines.append(line)
    for kind, o in report.collections.items():
        c = o.changes
        if c and (c["added"] or c["removed"] or c["changed"]):
            lines.append(
                f"\nChanges in {kind.value}: {len(c['added'])} added, "
                f"{len(c['removed'])} removed, {len(c['changed'])} changed"
            )
            for entry in c["changed"][:20]:
                lines.append(f"  {entry['id']}: {describe_fields(entry['fields'])}")
    problems = [p for o in report.collections.values() for p in o.problems]
    if problems:
        lines.append(f"\nProblems ({len(problems)}):")
        from catalogue_desktop.core.problems import Problem

        lines += [f"  {Problem.from_json(p)}" for p in problems[:30]]
        if len(problems) > 30:
            lines.append(f"  ... and {len(problems) - 30} more (use --json for all)")
    return "\n".join(lines)


def _check(args: argparse.Namespace) -> int:
    import asyncio

    from catalogue_desktop.core.conformance import check_service, format_report

    async def run() -> dict[str, Any]:
        async with _client(args) as client:
            return await check_service(client)

    report = asyncio.run(run())
    print(json.dumps(report, indent=2, default=str) if args.json else format_report(report))
    return 0 if report["conformant"] else 1


def _find(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.finding import find

    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    with _open_store(args.sync_cache_dir, demo=args.cache_demo, reading=True) as store:
        return find(store, args.queries, args.find_kinds, as_json=args.json, out=sys.stdout, err=sys.stderr)


def _export(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.export import export_collection

    if args.kind == "offerings":
        return _export_offerings(args)
    if (
        args.format not in ("csv", "json")
        or args.include_past
        or args.paper
        or args.title != "Offer"
        or args.group != "course"
    ):
        print(
            "catalogue-desktop export: --format ics and pdf, --include-past, --title, --group and "
            "--paper are for offerings only",
            file=sys.stderr,
        )
        return 2
    parsed, query = _query_of(args)
    if not parsed:
        return 2
    with _open_store(args.sync_cache_dir, demo=args.cache_demo, reading=True) as store:
        positions = None
        if query is not None:
            from catalogue_desktop.core import finding

            positions = finding.select(store, Kind(args.kind), query, sys.stderr)
        if args.output:
            from catalogue_desktop.core.output_file import text_writer, write_output

            counted: list[int] = []

            def write(out: TextIO) -> None:
                kind = Kind(args.kind)
                counted.append(
                    export_collection(store, kind, args.format, out, positions, demo=args.cache_demo)
                )

            target = write_output(args.output, text_writer(write))
            if target is not None:
                print(f"Wrote {counted[0]} {args.kind} to {args.output}", file=sys.stderr)
        else:
            sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
            export_collection(
                store, Kind(args.kind), args.format, sys.stdout, positions, demo=args.cache_demo
            )
    return 0


def _export_offerings(args: argparse.Namespace) -> int:
    """``export offerings``: ``core.offers_export`` does the work; the PDF is drawn with Qt
    (``ui.offers.sheet_pdf``, imported for it alone: the other formats import no Qt)."""
    from catalogue_desktop.core import offers_export

    parsed, query = _query_of(args)
    if not parsed:
        return 2
    with _open_store(args.sync_cache_dir, demo=args.cache_demo, reading=True) as store:
        selection = offers_export.select(store, query, include_past=args.include_past, err=sys.stderr)
    render = paper = None
    if args.format == "pdf":
        from catalogue_desktop.ui.offers import sheet_pdf

        render = sheet_pdf.pdf_bytes
        paper = {"a4": "A4", "letter": "Letter"}.get(args.paper or "") or sheet_pdf.default_paper()
    data = offers_export.document(
        selection, args.format, title=args.title, group=args.group, paper=paper or "A4", render_pdf=render
    )
    if selection.empty_reason:
        print(f"catalogue-desktop: {selection.empty_reason}", file=sys.stderr)
    for note in offers_export.notes(selection, args.format):
        print(f"catalogue-desktop: {note}", file=sys.stderr)
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if not args.output:
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return 0
    from catalogue_desktop.core.output_file import write_output

    if write_output(args.output, lambda out: out.write(raw)) is not None:
        print(f"Wrote {offers_export.summary(selection, args.format)} to {args.output}", file=sys.stderr)
    return 0


def _query_of(args: argparse.Namespace) -> tuple[bool, Any]:
    """(whether it parsed, the query) of ``--query`` (None without one); an error is said on
    stderr, with where it is."""
    if args.query is None:
        return True, None
    from catalogue_desktop.core import finding

    query = finding.parse_or_report(args.query, sys.stderr)
    return query is not None, query


def _serve_demo(args: argparse.Namespace) -> int:
    from catalogue_desktop.demo import server

    def ready(url: str) -> None:
        print(f"Serving demo catalogue on {url}/v1 (Ctrl+C to stop)", flush=True)

    try:
        server.serve(args.host, args.port, args.size, args.seed, ready=ready)
    except OSError as exc:
        print(f"catalogue-desktop: cannot serve on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0
