"""One vocabulary for a record's fields: the registry (``core.records.field_registry``) and its
readers agree — the listing columns (keys, headers, kinds), the facts written for the demo and a
synthetic catalogue, the finder's fields (names, aliases, types, facts' keys) and the occasions'
keys (the offerings' columns, an offer's JSON and CSV) — and a change made in the registry reaches
every reader (or stops the import, naming the field)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from functools import cache
from typing import Any

import pytest

from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType, column_index
from catalogue_desktop.core.offers import occasions
from catalogue_desktop.core.query import offerings
from catalogue_desktop.core.query.fields import FIELDS, SCHEMA
from catalogue_desktop.core.records.field_registry import (
    CHILD_KEYS,
    RECORD_FIELDS,
    FieldType,
    column_keys,
    fact_keys,
    named,
    offer_keys,
)
from catalogue_desktop.core.records.kinds import ALL_KINDS, OCCASIONS, Kind
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


@pytest.mark.parametrize("kind", [*ALL_KINDS, OCCASIONS], ids=lambda k: k.value)
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
    for kind in [*ALL_KINDS, OCCASIONS]:
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
    assert set(written) == {scope for (t, scope) in RECORD_FIELDS if t == table}


def test_the_occasions_facts_are_registry_keys() -> None:
    declared = set(fact_keys("offerings").values())
    for catalogue in catalogues():
        for facts in catalogue["offerings"]:
            assert {k for k in facts if not k.startswith("@")} <= declared


def test_the_start_date_is_one_field_whose_spellings_the_registry_declares() -> None:
    """The start date is ``starts`` in code; the spec's ``startDate``, the column ``start``, the
    aliases and an offer's ``start`` are declared once, beside it, and each reader takes them."""
    starts = named("offerings", "record", "starts")
    assert (starts.spec, starts.fact, starts.column, starts.aliases, starts.offer) == (
        "startDate",
        "startDate",
        "start",
        ("start", "date"),
        "start",
    )
    assert (starts.type, starts.label) == (FieldType.DATE, "Start")
    assert {SCHEMA.canonical(n) for n in ("starts", "startDate", "start", "date")} == {"starts"}
    column = COLUMNS[OCCASIONS][column_index(OCCASIONS, "start")]
    assert (column.header, column.type) == ("Start", ColumnType.DATE)
    assert "startDate" in offerings.KEYS and "start" in occasions.JSON_KEYS
    made = occasions.occasions(
        {"kind": ["course"], "id": [7], "startDate": ["2027-03-09T08:30:00-05:00"]}, [0]
    )
    assert occasions.json_rows(made)[0]["start"] == "2027-03-09T08:30:00-05:00"


@pytest.mark.parametrize("table", [*TABLES, "offerings"])
def test_the_finder_s_field_types_are_the_registry_s(table: str) -> None:
    for f in FIELDS[table]:
        assert f.type is named(table, f.scope, f.name).type, (table, f.name)


@pytest.mark.parametrize("kind", [*ALL_KINDS, OCCASIONS], ids=lambda k: k.value)
def test_a_column_s_header_and_kind_are_its_field_s_in_the_registry(kind: Any) -> None:
    by_type = {
        FieldType.NAMES: ColumnType.TEXT,
        FieldType.ID: ColumnType.INT,
        FieldType.NUMBER: ColumnType.INT,
    }
    for column in COLUMNS[kind]:
        entry = named(kind.value, "record", column_keys(kind.value)[column.key])
        assert column.header == entry.label, (kind, column.key)
        assert entry.type is not None
        expected = by_type.get(entry.type) or ColumnType(entry.type.value)
        if (kind, column.key) == (Kind.COURSES, "fee"):  # its locations' lowest and highest
            expected = ColumnType.MONEY_RANGE
        assert column.type is expected, (kind, column.key)


def test_the_occasions_keys_are_the_registry_s() -> None:
    assert tuple(fact_keys("offerings").values()) == offerings.KEYS
    assert tuple(offer_keys().values()) == occasions.JSON_KEYS
    made = occasions.occasions({"kind": ["webinar"], "id": [3], "title": ["T"]}, [0])
    assert tuple(occasions.json_rows(made)[0]) == occasions.JSON_KEYS


def _with_registry(change: str, then: str) -> dict[str, Any]:
    """What ``then`` prints (JSON) in a fresh process where the registry was changed by ``change``
    (``r``: the registry module; ``add(table, entry)``, ``put(table, name, **fields)``) before any
    reader was imported; ``{"error": ...}`` if importing a reader raised."""
    script = textwrap.dedent(
        """
        import json
        from catalogue_desktop.core.records import field_registry as r

        def add(table, entry):
            r.RECORD_FIELDS[(table, "record")] += (entry,)
            r._BY_NAME = dict(r._lookups())

        def put(table, name, **fields):
            r.RECORD_FIELDS[(table, "record")] = tuple(
                e._replace(**fields) if e.name == name else e for e in r.RECORD_FIELDS[(table, "record")]
            )
            r._BY_NAME = dict(r._lookups())

        CHANGE
        try:
            THEN
        except ValueError as error:
            print(json.dumps({"error": str(error)}))
        """
    )
    script = script.replace("CHANGE", change).replace("THEN", then)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_name_type_or_label_changed_in_the_registry_reaches_every_reader() -> None:
    found = _with_registry(
        'put("offerings", "starts", aliases=("start", "date", "when"), label="Begins")\n'
        'put("offerings", "kind", type=r.FieldType.TEXT)',
        "from catalogue_desktop.core.listing.rows import COLUMNS, column_index\n    "
        "from catalogue_desktop.core.query.fields import SCHEMA\n    "
        "from catalogue_desktop.core.records.kinds import OCCASIONS as O\n    "
        'print(json.dumps({"when": SCHEMA.canonical("when"), '
        '"header": COLUMNS[O][column_index(O, "start")].header, '
        '"kind": SCHEMA.field("offerings", "kind").type.value, '
        '"kind_column": COLUMNS[O][column_index(O, "kind")].type.value}))',
    )
    assert found == {"when": "starts", "header": "Begins", "kind": "text", "kind_column": "text"}


def test_where_the_registry_keeps_a_field_is_where_a_query_finds_it() -> None:
    """A query's field is in the record when the record's facts hold it, else in each location
    (a course's fee: the record's is derived for the listing); with no fact, the engine derives
    it (``@name``). Kept in the record instead, in the registry alone, both follow."""
    courses = {f.name: f for f in FIELDS["courses"]}
    assert (courses["fee"].scope, courses["fee"].key) == ("location", "fee")
    assert (courses["url"].scope, courses["certificate"].key) == ("record", "@certificate")
    assert {f.name: f.scope for f in FIELDS["series"]}["type"] == "session"
    found = _with_registry(
        'put("courses", "fee", fact="feeRange")\nput("courses", "certificate", fact="certificateTitles")',
        "from catalogue_desktop.core.query.fields import SCHEMA\n    "
        'fee, certificate = SCHEMA.field("courses", "fee"), SCHEMA.field("courses", "certificate")\n    '
        'print(json.dumps({"fee": [fee.scope, fee.key], "certificate": certificate.key}))',
    )
    assert found == {"fee": ["record", "feeRange"], "certificate": "certificateTitles"}


def test_a_field_added_to_the_registry_reaches_every_reader_or_stops_the_import() -> None:
    """Added with a facts' key, an offer key and a column, the occasions' new field is one more
    column of the offerings; an offer cannot leave it out (no writer: the import stops), nor the
    Dates list (no place for its column: the import stops), each naming it."""
    rating = (
        'add("offerings", r.FieldEntry("rating", "rating", "rating", None, (), r.FieldType.NUMBER, "Rating"))'
    )
    found = _with_registry(
        rating,
        "from catalogue_desktop.core.query.offerings import KEYS\n"
        "    print(json.dumps({'keys': list(KEYS)}))",
    )
    assert found["keys"][-1] == "rating"
    offered = rating.replace('"Rating")', '"Rating", "rating")')
    found = _with_registry(offered, "import catalogue_desktop.core.offers.occasions")
    assert "offer keys" in found["error"] and "rating" in found["error"]
    shown = rating.replace('"rating", None,', '"rating", "rating",')
    found = _with_registry(shown, "import catalogue_desktop.core.listing.rows")
    assert "rating" in found["error"] and "offerings" in found["error"]


def test_the_facets_are_registry_fields_titled_by_their_labels() -> None:
    from catalogue_desktop.core.query import facets
    from catalogue_desktop.core.records.field_registry import FACETS

    assert facets.FACETS is FACETS
    for name, title in FACETS:
        entries = [e for (_t, _s), es in RECORD_FIELDS.items() for e in es if e.name == name]
        assert entries and all(e.type not in (None, FieldType.PRESENCE) for e in entries), name
        assert title == ("Start month" if name == "starts" else entries[0].label), name
