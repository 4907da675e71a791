"""The schema's expected tables (``schema.TABLES``, written out so that no start derives them)
are what its statements make: each table with its columns."""

from __future__ import annotations

from catalogue_desktop.core.cache import schema
from catalogue_desktop.core.cache.guarded import layout


def test_the_written_out_tables_are_what_the_statements_make() -> None:
    assert layout(schema.STATEMENTS) == schema.TABLES
