"""The command line's words: every command, its options and their help (argparse)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import catalogue_desktop
from catalogue_desktop.cli import connection
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.formats.drawn_text import terminal_text
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

KIND_NAMES = [k.value for k in Kind]
CACHE_HELP = (
    "the service's cache directory (default: the platform's cache dir, on Linux "
    "~/.cache/catalogue-desktop, or $CATALOGUE_DESKTOP_CACHE_DIR)"
)
DEMO_CACHE_HELP = (
    "read the demo catalogue's cache, the one the window fills when no service is set "
    "(the demo/ folder of the cache directory)"
)
SERVICE_HELP = "(or --profile NAME; without either: the catalogue the window showed last, said on stderr)"
READS_HELP = (
    "Reads the cache of the catalogue the window showed last (its Catalogue menu, the demo "
    "included), and says which on stderr; --profile NAME, --demo or --cache-dir DIR reads another."
)


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (docs/decisions.md, "Start-up and Qt")."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: object = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=default,
            help=help or "show program's version number and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        say(f"catalogue-desktop {catalogue_desktop.__version__}")
        parser.exit()


_DASH_HINT = (
    "a query that starts with '-' goes after '--' (catalogue-desktop find -- -cle:yes), "
    "or after '=' (--query=-cle:yes)"
)


# The commands (``build_parser`` adds each; tests/cli/test_parser.py checks the two agree).
COMMANDS = (
    "sync",
    "check",
    "doctor",
    "profile",
    "export",
    "find",
    "history",
    "watch",
    "offers",
    "serve-demo",
)


class _WindowOnly(Exception):
    """The window's parser (no commands) cannot take this command line: the whole parser will."""


class _Parser(argparse.ArgumentParser):
    """argparse, with a hint when a query that starts with '-' was taken for an option."""

    window_only = False  # made without its commands (``parse_command_line``): errors are the whole parser's

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> Any:
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Usage and errors, made safe for a terminal (an argument quoted may hold escapes)."""
        super()._print_message(terminal_text(message) if message else message, file)

    def error(self, message: str) -> NoReturn:
        if self.window_only:
            raise _WindowOnly(message)
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


def parse_command_line(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``build_parser().parse_args(argv)``. A command line that names no command (the window's)
    is read by the parser without its commands first: making theirs, ~100 options, took 5 ms of
    a 180 ms start-up (docs/decisions.md, "Start-up and Qt"). Anything that parser does not take
    (a command, --help, a mistake) is read by the whole one, which says what it says."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not set(args) & {*COMMANDS, "-h", "--help"}:
        parser = build_parser(commands=False)
        try:
            return parser.parse_args(args)
        except _WindowOnly:
            pass
    return build_parser().parse_args(args)


def build_parser(commands: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; without ``commands``, the window's options only (its errors
    raise ``_WindowOnly``: see ``parse_command_line``)."""
    parser = _Parser(
        prog="catalogue-desktop",
        description="Browse the seminar catalogue, online or from the local cache. "
        "Without a command, opens the window (on the bundled demo catalogue when no "
        "service is configured).",
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("--base-url", help="service address, the part before /v1 (remembered)")
    parser.add_argument("--demo", action="store_true", help="use the bundled demo catalogue")
    parser.add_argument(
        "--offline",
        action="store_true",
        help="never contact the service: the catalogue shown last (or --profile's, --demo), from its cache",
    )
    parser.add_argument("--cache-dir", help=CACHE_HELP + "; the demo catalogue's data is in its demo/ folder")
    parser.add_argument("--open", metavar="KIND:ID", help="select a record on start, e.g. webinar:50007")
    parser.add_argument(
        "--currency",
        type=currency_code,
        help="currency for fees, an ISO 4217 code, e.g. USD (default: plain numbers)",
    )
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
    connection.add_connection(parser)
    if not commands:
        parser.window_only = True
        parser.set_defaults(command=None)
        return parser
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("sync", help="refresh the local cache from the service")
    p.add_argument("--base-url", dest="sync_base_url", metavar="URL", help=SERVICE_HELP)
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_max_size(p)
    _add_timeout(p)
    connection.add_connection(p)
    p.set_defaults(command_parser=p)

    p = sub.add_parser("check", help="report how the service's data conforms to the spec")
    p.add_argument("--base-url", dest="sync_base_url", metavar="URL", help=SERVICE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_max_size(p)
    _add_timeout(p)
    connection.add_connection(p)
    p.set_defaults(command_parser=p)

    p = sub.add_parser(
        "doctor",
        help="walk the path to the service step by step and say what is wrong (README: At work)",
    )
    p.add_argument("--base-url", dest="sync_base_url", metavar="URL", help=SERVICE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--timeout", type=_seconds, default=20.0, metavar="SECONDS", help="per step (default 20)")
    connection.add_connection(p)
    p.set_defaults(command_parser=p)

    p = sub.add_parser(
        "profile",
        help="list the catalogues (profiles), or add or change one (README: At work)",
        description="Without NAME, list the catalogues; with NAME, add it (with --base-url) or change it.",
    )
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("--base-url", metavar="URL", help="the service's address, the part before /v1")
    p.add_argument("--proxy", metavar="URL", help="a proxy URL, 'none', or 'system' (the default)")
    p.add_argument("--ca-file", metavar="FILE", help="an extra CA file (PEM) to trust; '' for none")
    p.add_argument("--auth", choices=["none", "bearer", "basic", "header"], help="the credentials to send")
    p.add_argument("--user", metavar="NAME", help="basic authentication's user name")
    p.add_argument("--auth-header", metavar="NAME", help="the header of --auth header (e.g. X-Api-Key)")
    p.add_argument("--secret-env", metavar="VAR", type=connection.variable_name,
                   help="read the secret from the environment variable VAR (before the keyring)")  # fmt: skip
    p.add_argument("--secret-stdin", action="store_true",
                   help="read the secret from standard input into the keyring (not an argument)")  # fmt: skip

    p = sub.add_parser(
        "export",
        help="write a cached collection as CSV, JSON or a spreadsheet, or the dates (the window's "
        "Dates) as CSV, JSON, a spreadsheet, a calendar file or an offer sheet (offline)",
        epilog=READS_HELP,
    )
    p.add_argument(
        "kind",
        choices=[*KIND_NAMES, "offerings"],
        type=_export_kind,
        metavar="KIND",
        help=" | ".join(KIND_NAMES) + " | dates (one row per course location, series "
        "session or other webinar: the window's Dates; 'offerings' still works)",
    )
    p.add_argument(
        "--format",
        choices=["csv", "json", "xlsx", "ics", "pdf", "email"],
        default="csv",
        help="csv | json | xlsx (a spreadsheet: typed cells); for dates also ics (a calendar "
        "file) | pdf (the offer sheet) | email (the e-mail text)",
    )
    p.add_argument(
        "--excel",
        action="store_true",
        help="CSV for Excel: a UTF-8 byte-order mark first (else Excel on Windows misreads accented letters)",
    )
    p.add_argument(
        "--currency",
        dest="export_currency",
        metavar="CODE",
        type=currency_code,
        help="the fees' currency, an ISO 4217 code, e.g. USD, in a spreadsheet, the offer sheet and the "
        "calendar (default: the one the window remembers, else plain numbers)",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="default: standard output")
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    connection.add_profile(p)
    p.add_argument("--query", metavar="QUERY", help="only the records matching QUERY (see find)")
    p.add_argument("--words", action="store_true", help="read nothing in --query: the query language alone")
    offer = p.add_argument_group("dates")
    offer.add_argument(
        "--include-past",
        action="store_true",
        help="also dates that have ended (left out unless the query has a date)",
    )
    offer.add_argument(
        "--title",
        help='the offer\'s title, "Offer for CUSTOMER" (default "Offer"); an offer with a title is '
        "logged (see offers)",
    )
    offer.add_argument("--note", default="", help="a short personal note, printed under the title")
    offer.add_argument(
        "--times",
        choices=["clock", "instant"],
        help="a course time written in an offset that is not its venue's zone's on that date: "
        "give the clock time as written, or the instant (default: as chosen in the window, else clock)",
    )
    offer.add_argument(
        "--group",
        choices=["course", "month"],
        default="course",
        help="the offer sheet's dates grouped by course or by month",
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
        epilog=f"{READS_HELP} Exit status 0 when every query parsed, 2 when one did not. Note: {_DASH_HINT}.",
    )
    p.add_argument("queries", nargs="+", metavar="QUERY")
    p.add_argument(
        "--kind",
        action="append",
        dest="find_kinds",
        type=_table_name,
        metavar="KIND",
        help="search this kind only (repeatable): "
        + " | ".join([*KIND_NAMES, "dates"])
        + " (default: all of them)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per query, one per line")
    p.add_argument(
        "--explain",
        action="store_true",
        help="say what the words were read as (conditions, query, free words)",
    )
    p.add_argument(
        "--words",
        action="store_true",
        help="read nothing: the query language alone (every other word is a word to find)",
    )
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    connection.add_profile(p)

    p = sub.add_parser(
        "history",
        help="what the syncs changed in one record (offline)",
        description="Every change the syncs recorded in one record, oldest first: added, withdrawn, "
        "and each changed field with its old and new value (nested ones by path, e.g. "
        "locations/7114/fee). History is kept for the span set in the cache (default 400 days).",
        epilog=READS_HELP,
    )
    p.add_argument("history_kind", metavar="KIND", type=_kind_name, help=" | ".join(KIND_NAMES))
    p.add_argument("record_id", metavar="ID", type=int, help="the record's id, e.g. 6101")
    p.add_argument(
        "--json",
        action="store_true",
        help='a JSON list of {"at", "change": added|removed|changed, "fields": {NAME: [old, new]}}',
    )
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    connection.add_profile(p)

    p = sub.add_parser(
        "watch",
        help="watched searches: what newly matches, changed or went since you last looked (offline)",
        description="catalogue-desktop watch [--json] [--mark-seen]: per watched search, the records "
        "that newly match, changed in a shown field (fee, dates, place) or no longer match (or were "
        "withdrawn) since it was last marked seen. 'watch add NAME QUERY [--kind KIND]' watches a "
        "search from now on, 'watch list' lists them, 'watch remove NAME' forgets one. The window's "
        "saved searches are the same ones (per catalogue).",
        epilog=READS_HELP,
    )
    p.add_argument("action", nargs="?", choices=["add", "list", "remove"], help="add | list | remove")
    p.add_argument("words", nargs="*", metavar="NAME [QUERY]", help="add: NAME QUERY; remove: NAME")
    p.add_argument("--kind", dest="watch_kind", type=_kind_name, metavar="KIND", help="add: this kind only")
    p.add_argument("--json", action="store_true", help="one JSON list of {name, query, new, changed, gone}")
    p.add_argument("--mark-seen", action="store_true", help="then make what matches now the baseline")
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    connection.add_profile(p)

    p = sub.add_parser(
        "offers",
        help="the offers made, each checked against the cached catalogue (offline)",
        description="catalogue-desktop offers [--json]: every offer made (the window's offer actions, "
        "'export dates --title'), newest first, each checked against the cached catalogue: current, "
        "changed (a fee, date or place), withdrawn, past or superseded (re-issued). 'offers show ID' "
        "gives each date's quoted values and its values now; 'offers check' exits 1 when an open "
        "offer no longer matches the catalogue, 0 otherwise. Kept per catalogue, for the history's span.",
        epilog=READS_HELP,
    )
    p.add_argument("action", nargs="?", choices=["show", "check"], help="show ID | check")
    p.add_argument("offer_id", nargs="?", type=int, metavar="ID", help="show: the offer's id")
    p.add_argument(
        "--json",
        action="store_true",
        help='a JSON list of offers: {"id", "title", "made", "status", "items": [{"occasion", ...}], ...}',
    )
    p.add_argument("--cache-dir", dest="sync_cache_dir", metavar="DIR", help=CACHE_HELP)
    p.add_argument("--demo", action="store_true", dest="cache_demo", help=DEMO_CACHE_HELP)
    connection.add_profile(p)

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


def currency_code(text: str) -> str:
    """``--currency``: an ISO 4217 code ("usd", "euro" read as USD, EUR:
    ``core.formats.currencies``); "" for none; anything else refused, with the codes it may mean."""
    from catalogue_desktop.core.formats import currencies

    reading = currencies.read(text)
    if reading.code is None and reading.problem:
        raise argparse.ArgumentTypeError(reading.problem)
    return reading.code or ""


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def _kind_name(text: str) -> str:
    try:
        return Kind.parse(text.strip().lower()).value
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown kind {text!r}: expected one of {', '.join(KIND_NAMES)}"
        ) from None


def _export_kind(text: str) -> str:
    """``export``'s KIND as typed: "dates" (or its older name "offerings") is the Dates' table."""
    key = text.strip().lower()
    return "offerings" if key in ("dates", "date", "offerings", "offering") else key


def _table_name(text: str) -> str:
    from catalogue_desktop.core.searches.stored import table_name

    try:
        return table_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
