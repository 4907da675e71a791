"""What several commands share: the cache they read, the service client they make, whole-file
writes and ``--query``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from catalogue_desktop.cli.output import say

if TYPE_CHECKING:
    from catalogue_desktop.cli.connection import ConnectionOf
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.core.service.client import CatalogueClient


def open_store(cache_dir: str | None, demo: bool = False, *, reading: bool = False) -> Store:
    """The cache's store; with ``reading`` (find, export), one this process may not write is
    opened read-only, with a note, rather than blamed as unusable."""
    import os

    from catalogue_desktop.core.cache.location import store_file
    from catalogue_desktop.core.cache.store import Store

    path = store_file(cache_dir, demo=demo)
    if reading and path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        say(
            f"catalogue-desktop: the cache {path} cannot be written here: read as it is (read-only)",
            sys.stderr,
        )
        return Store(path, read_only=True)
    store = Store(path)
    if store.recovered:
        say(f"catalogue-desktop: {store.recovered}", sys.stderr)
    return store


def service_client(args: argparse.Namespace, base_url: str, connection_of: ConnectionOf) -> CatalogueClient:
    """The client of ``sync`` and ``check``, over ``connection_of(base_url)`` (``cli.connection``)."""
    from catalogue_desktop.cli.connection import say_connection
    from catalogue_desktop.core.service.client import CatalogueClient
    from catalogue_desktop.core.service.failures import normalise_base_url

    if args.max_size < 1:
        raise SystemExit("catalogue-desktop: --max-size must be at least 1 (MiB)")
    connection = connection_of(normalise_base_url(base_url))
    say_connection(connection)
    return CatalogueClient(
        base_url, max_bytes=args.max_size * 1024 * 1024, deadline=args.timeout, connection=connection
    )


def query_of(args: argparse.Namespace) -> tuple[bool, Parsed | None]:
    """(whether it parsed, the query) of ``--query`` (None without one); an error is said on
    stderr, with where it is."""
    if args.query is None:
        return True, None
    query = parse_or_report(args.query, sys.stderr)
    return query is not None, query


def read_query(store: Store, args: argparse.Namespace, table: str, query: Parsed | None) -> Parsed | None:
    """``--query`` read in the store's vocabulary for ``table`` (``core.query.reading``: plain
    words become conditions; ``--words``: nothing is read), said on stderr when the words were
    read as something else; None without a query."""
    if query is None or getattr(args, "words", False):
        return query
    from catalogue_desktop.core.query.syntax import parse
    from catalogue_desktop.core.searches import stored as finding

    (reading,) = finding.read_all(store, [args.query], finding.local_now(), table=table)
    if reading.query == query.text:
        return query
    note(f"--query read as: {reading.query}")
    if reading.table is not None and reading.table != table:
        note(f"the query names {reading.table}: exporting {table} (none match it)")
    return parse(reading.query)


def note(text: str) -> None:
    """A remark of a command's on stderr, named as the command's."""
    say(f"catalogue-desktop: {text}", sys.stderr)


def parse_or_report(text: str, err: TextIO) -> Parsed | None:
    """``text`` parsed, or None after writing why it does not parse to ``err``."""
    from catalogue_desktop.cli import find_output
    from catalogue_desktop.core.query.syntax import parse

    parsed = parse(text)
    if parsed.error is None:
        return parsed
    say(find_output.error_text(text, parsed.error, 1), err)
    return None
