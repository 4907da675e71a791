"""One vocabulary for a record's fields: the registry (``core.records.field_names``) and its three
readers agree — the listing columns, the facts written for the demo and a synthetic catalogue, and
the finder's fields (names, aliases, facts' keys)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from catalogue_desktop.core.listing.rows import COLUMNS, DATES, column_index
from catalogue_desktop.core.query.fields import FIELDS, SCHEMA
from catalogue_desktop.core.records.field_names import (
    CHILD_KEYS,
    FIELD_NAMES,
    column_keys,
    fact_keys,
    named,
)
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from tests.core.query.catalogues import Facts, demo_facts, synthetic_facts

TABLES = [kind.value for kind in ALL_KINDS]


@cache
def catalogues() -> tuple[Facts, ...]:
    return (demo_facts(), synthetic_facts())


def test_the_issue_s_field_has_one_name_and_its_spellings_declared_once() -> None:
    produced = named("webinars", "record", "produced")
    assert (produced.spec, produced.fact, produced.column, produced.aliases) == (
        "productionDate",
        "productionDate",
        "produced",
        ("production",),
    )
    assert {SCHEMA.canonical(n) for n in ("produced", "production", "productionDate")} == {"produced"}
    assert COLUMNS[Kind.WEBINARS][column_index(Kind.WEBINARS, "produced")].header == "Produced"


@pytest.mark.parametrize("kind", [*ALL_KINDS, DATES], ids=lambda k: k.value)
def test_every_listing_column_is_a_field_of_the_registry(kind: Any) -> None:
    keys = [c.key for c in COLUMNS[kind]]
    assert sorted(keys) == sorted(column_keys(kind.value))


@pytest.mark.parametrize("table", [*TABLES, "offerings"])
def test_the_finder_s_fields_take_their_names_from_the_registry(table: str) -> None:
    for f in FIELDS[table]:
        entry = named(table, f.scope, f.name)
        assert (f.spec, f.aliases) == (entry.spec, entry.aliases), f.name
        assert f.key == entry.fact if entry.fact is not None else f.key.startswith("@"), f.name
        for name in f.names:  # each accepted spelling leads to this field
            assert SCHEMA.field(table, name) is f, (table, name)


def test_a_column_s_key_names_its_field_in_a_query_but_for_the_dates_row_number() -> None:
    """Where a column shows a field the finder has, a query takes the column's key for it; the
    Dates tab's columns ``id`` (the row's number) and ``record`` (the course's or webinar's id,
    the query's ``id``) are the one exception, declared in the registry."""
    astray = []
    for kind in [*ALL_KINDS, DATES]:
        table = kind.value
        for key, name in column_keys(table).items():
            field = SCHEMA.field(table, name)
            if field is not None and field.scope == "record" and SCHEMA.field(table, key) is not field:
                astray.append((table, key, name))
    assert astray == [("offerings", "record", "id")]
    assert column_keys("offerings")["id"] == "row"


@pytest.mark.parametrize("table", TABLES)
def test_every_fact_written_is_a_registry_key_and_every_registry_key_is_written(table: str) -> None:
    written: dict[str, set[str]] = {"record": set()}
    children = {scope: key for (t, scope), key in CHILD_KEYS.items() if t == table}
    for catalogue in catalogues():
        for facts in catalogue[table]:
            written["record"] |= set(facts) - set(children.values())
            for scope, key in children.items():
                for child in facts.get(key, ()):
                    written.setdefault(scope, set()).update(child)
    for scope, keys in written.items():
        assert keys == set(fact_keys(table, scope).values()), (table, scope)
    assert set(written) == {scope for (t, scope) in FIELD_NAMES if t == table}


def test_the_occasions_facts_are_registry_keys() -> None:
    declared = set(fact_keys("offerings").values())
    for catalogue in catalogues():
        for facts in catalogue["offerings"]:
            assert {k for k in facts if not k.startswith("@")} <= declared
