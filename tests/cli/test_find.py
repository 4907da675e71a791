"""``catalogue-desktop find`` and ``export --query`` as a user runs them: subprocesses over real
stores (the demo sample ingested by ``core.sync.ingest``, or synced from the demo service on
loopback), checked against the plain record-by-record evaluation of ``tests/core/query``."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.fields import FIELDS, OFFERINGS, TABLES
from catalogue_desktop.core.query.syntax import parse
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches import stored as finding
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import DemoServer, load_sample
from tests.cli_process import run_cli
from tests.core.query.catalogues import Facts, demo_facts, facts_of, with_offerings
from tests.core.query.reference import Reference

SAMPLE = load_sample()
ZONE = timezone(timedelta(hours=-8))  # the subprocesses run with TZ=UTC+8 (POSIX: 8 hours west)
AT = "2026-11-24T12:00:00Z"

# Words, fields of every type, dates relative to now, same-location groups, derived fields.
QUERIES = [
    "",
    "tax",
    "TAX muller",
    '"estate planning"',
    "fee:<300",
    "fee:<300 cle:yes",
    "starts:next30d cle:yes",
    "NOT lease",
    "-tax",
    "topic:tax -expert:okafor",
    "(fee:<200 OR fee:>400) cle:yes",
    "city:dallas starts:2027-04 fee:<1300",
    "city:dallas -city:boston",
    "starts:2027-03",
    "today",
    "this-month",
    "next3m",
    "past",
    "future",
    "has:description",
    "no:experts",
    "type:live",
    "type:1",
    "level:2",
    "ondemand:yes",
    "series:ethics",
    "certificate:forensic",
    "course:lease",
    "webinars:>2",
    "courses:0",
    "sessions:>=3",
    "kind:session",
    "state:IL fee:1000..1500",
    "id:50007",
    "expert:(okafor OR finnegan)",
    'role:="In-House Counsel"',
    "fee:<1,000.50",
    "fee:..999",
    "starts:2026-12..2027-02",
]


def _now() -> datetime:
    return datetime.now(ZONE)


@pytest.fixture(scope="module")
def demo_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache with the demo sample in it."""
    cache = tmp_path_factory.mktemp("demo-cache")
    for kind in Kind:
        report = ingest(str(cache / FILE_NAME), kind.value, SAMPLE[kind], None, None, AT)
        assert report.status == "updated", report
    return cache


@pytest.fixture
def env(env: dict[str, str]) -> dict[str, str]:
    """The command's environment (``conftest``) in a zone that is not UTC."""
    return {**env, "TZ": "UTC+8"}


@pytest.fixture
def cli(env: dict[str, str], tmp_path: Path) -> Any:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, env=env, cwd=tmp_path)

    return run


def find_json(
    cli: Any, cache: Path, queries: list[str], *options: str
) -> tuple[subprocess.CompletedProcess[str], list[Any]]:
    result = cli("find", "--cache-dir", str(cache), "--json", *options, "--", *queries)
    return result, [json.loads(line) for line in result.stdout.splitlines()]


def record_ids(facts: Facts, table: str, rows: list[int]) -> list[Any]:
    """What ``find`` prints for these rows of the reference's facts."""
    out = []
    for row in rows:
        rec = facts[table][row]
        if table != OFFERINGS:
            out.append(rec["id"])
        elif rec["kind"] == "course":
            out.append(f"course:{rec['id']}@{rec['locationId']}")
        elif rec["kind"] == "session":
            out.append(f"session:{rec['seriesId']}@{rec['id']}")
        else:
            out.append(f"webinar:{rec['id']}")
    return out


def expected(facts: Facts, query: str, table: str, before: datetime, after: datetime) -> Any:
    """(count, ids) as the reference finds them at ``before`` and ``after`` (the run was
    in between): "either" when a relative date's window moved over a record meanwhile."""
    found = [Reference(facts, now).ids(query, table) for now in (before, after)]
    if found[0] != found[1]:
        return "either"
    rows = found[0]
    return (None, []) if rows is None else (len(rows), record_ids(facts, table, rows))


# -- find --json ----------------------------------------------------------------------------------


def test_find_json_gives_each_querys_counts_and_ids_on_every_table(cli: Any, demo_cache: Path) -> None:
    before = _now()
    result, lines = find_json(cli, demo_cache, QUERIES)
    after = _now()
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert [line["query"] for line in lines] == QUERIES  # one line per query, in order
    facts = demo_facts()
    checked = 0
    for line in lines:
        assert set(line) == {"query", "understood", "words", "counts", "ids"}
        assert list(line["counts"]) == list(TABLES) == list(line["ids"])
        for table in TABLES:
            want = expected(facts, line["understood"], table, before, after)
            if want == "either":
                continue
            assert (line["counts"][table], line["ids"][table]) == want, (line["query"], table)
            checked += want[0] is not None and want[0] > 0
    assert checked > 100  # most answers are not empty: the comparison means something
    by_query = {line["query"]: line for line in lines}
    assert by_query["city:dallas starts:2027-04 fee:<1300"]["counts"]["webinars"] is None  # no city
    assert by_query["city:dallas starts:2027-04 fee:<1300"]["ids"]["webinars"] == []
    assert by_query[""]["counts"] == {t: len(facts[t]) for t in TABLES}


def test_find_kind_offerings_names_each_occasion(cli: Any, demo_cache: Path) -> None:
    result, lines = find_json(cli, demo_cache, ["fee:<400", "city:dallas", ""], "--kind", "offering")
    assert result.returncode == 0, result.stderr
    facts = demo_facts()
    assert [list(line["counts"]) for line in lines] == [["offerings"]] * 3
    everything = lines[2]["ids"]["offerings"]
    assert len(everything) == len(set(everything)) == len(facts[OFFERINGS])  # each id says which one
    assert {i.split(":")[0] for i in everything} == {"course", "session", "webinar"}
    series_of = {s["id"]: [k["id"] for k in s["sessions"]] for s in facts["series"]}
    for text in everything:
        kind, _, rest = text.partition(":")
        if kind == "session":
            series, webinar = map(int, rest.split("@"))
            assert webinar in series_of[series]
    for line in lines:
        now = _now()
        assert line["ids"]["offerings"] == record_ids(
            facts, OFFERINGS, Reference(facts, now).ids(line["query"], OFFERINGS) or []
        )


def test_find_kind_reads_only_what_the_queries_need(cli: Any, demo_cache: Path) -> None:
    result, lines = find_json(
        cli, demo_cache, ["series:ethics", "webinars:>2", "tax"], "--kind", "Webinar", "--kind", "experts"
    )
    assert result.returncode == 0, result.stderr
    assert [list(line["counts"]) for line in lines] == [["webinars", "experts"]] * 3
    facts = demo_facts()
    now = _now()
    for line in lines:
        for table in ("webinars", "experts"):
            rows = Reference(facts, now).ids(line["understood"], table)
            assert line["counts"][table] == (None if rows is None else len(rows))
    assert lines[0]["counts"]["webinars"] > 0 and lines[1]["counts"]["experts"] > 0


def test_an_unparsable_query_is_reported_and_the_others_still_answered(cli: Any, demo_cache: Path) -> None:
    result, lines = find_json(
        cli, demo_cache, ["tax", "fe:<300", "cle:yes (tax", "fee:<300"], "--kind", "webinars"
    )
    assert result.returncode == 2
    assert [line["query"] for line in lines] == ["tax", "fe:<300", "cle:yes (tax", "fee:<300"]
    assert lines[1] == {
        "query": "fe:<300",
        "error": {"position": 0, "message": "unknown field 'fe' — did you mean 'fee'?"},
    }
    assert lines[2]["error"]["position"] == 8 and "not closed" in lines[2]["error"]["message"]
    assert lines[0]["counts"]["webinars"] > 0 and lines[3]["counts"]["webinars"] > 0

    text = cli(
        "find", "--cache-dir", str(demo_cache), "--kind", "webinars", "tax", "topic:(tax", "fee:>10000"
    )
    assert text.returncode == 2
    assert "Query 1: tax" in text.stdout and "Query 3: fee:>10000" in text.stdout
    assert "Query 2" not in text.stdout
    lines = text.stderr.splitlines()
    assert lines == [
        "catalogue-desktop: query 2 does not parse: ')' missing: this '(' is not closed",
        "  topic:(tax",
        "        ^",
    ]

    only_bad = cli("find", "--cache-dir", str(demo_cache), "--json", "a OR")
    assert only_bad.returncode == 2
    assert json.loads(only_bad.stdout)["error"]["position"] == 2


def test_find_text_lists_counts_reasons_and_the_first_matches(cli: Any, demo_cache: Path) -> None:
    result = cli("find", "--cache-dir", str(demo_cache), "fee:<300")
    assert result.returncode == 0, result.stderr
    facts = demo_facts()
    now = _now()
    rows = Reference(facts, now).ids("fee:<300", "webinars") or []
    assert len(rows) > 12
    out = result.stdout
    assert out.startswith("Query: fee:<300\n")
    assert f"  webinars      {len(rows):>9,}\n" in out
    assert "  experts       skipped: experts have no field 'fee'\n" in out
    block = out.split(f"  webinars ({len(rows):,}):\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(block) == 11 and block[-1] == f"    ... and {len(rows) - 10:,} more"
    for line, row in zip(block[:10], rows, strict=False):
        rec = facts["webinars"][row]
        assert line.split(None, 1) == [str(rec["id"]), rec["title"]]


def test_nothing_synced_is_a_clear_error(cli: Any, tmp_path: Path, demo_cache: Path) -> None:
    result = cli("find", "--cache-dir", str(tmp_path / "empty"), "tax")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("catalogue-desktop: nothing was ever synced into ")
    assert "catalogue-desktop sync" in result.stderr and len(result.stderr.splitlines()) == 1

    partial = tmp_path / "partial"
    ingest(str(partial / FILE_NAME), "topics", SAMPLE[Kind.TOPICS], None, None, AT)
    one = cli("find", "--cache-dir", str(partial), "--kind", "series", "tax")
    assert one.returncode == 1 and one.stdout == ""
    assert one.stderr.startswith(f"catalogue-desktop: series were never synced into {partial / FILE_NAME}")
    some = cli("find", "--cache-dir", str(partial), "--json", "--words", "tax")
    assert some.returncode == 0
    assert "webinars were never synced into this cache" in some.stderr
    line = json.loads(some.stdout)
    assert line["counts"]["webinars"] == 0 and line["counts"]["topics"] > 0


def test_find_after_a_sync_from_the_demo_service(cli: Any, demo_server: DemoServer, tmp_path: Path) -> None:
    cache = tmp_path / "synced"
    assert cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache)).returncode == 0
    result, (line,) = find_json(cli, cache, ["city:dallas"], "--kind", "courses")
    assert result.returncode == 0
    dallas = [
        c["courseId"]
        for c in json.loads(SAMPLE[Kind.COURSES])
        if any((loc.get("city") or "").lower() == "dallas" for loc in c["locations"] or [])
    ]
    assert line["ids"] == {"courses": dallas} and dallas


def test_a_cache_listed_by_an_older_version_is_listed_again_first(
    cli: Any, demo_cache: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old"
    old.mkdir()
    with sqlite3.connect(demo_cache / FILE_NAME) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (old / FILE_NAME).write_bytes((demo_cache / FILE_NAME).read_bytes())
    db = sqlite3.connect(old / FILE_NAME)
    db.execute("UPDATE snapshots SET listing = 1")
    db.execute("UPDATE rows SET facts = NULL")
    db.execute("DELETE FROM fact_pages")
    db.commit()
    db.close()
    result, (line,) = find_json(cli, old, ["tax"], "--kind", "webinars")
    assert result.returncode == 0
    assert "listing webinars again" in result.stderr
    want = Reference(demo_facts(), _now()).ids("tax", "webinars")
    assert line["counts"]["webinars"] == len(want or []) > 0
    again, _ = find_json(cli, old, ["tax"], "--kind", "webinars")
    assert again.stderr == ""  # once only


@pytest.mark.parametrize(
    "args",
    [
        ["find"],
        ["find", "--kind", "nonsense", "tax"],
        ["find", "tax", "-cle:yes"],
        ["export", "webinars", "--query"],
    ],
)
def test_find_usage_errors_exit_2(cli: Any, args: list[str]) -> None:
    result = cli(*args)
    assert result.returncode == 2 and "usage:" in result.stderr
    if "-cle:yes" in args:
        assert "goes after '--'" in result.stderr


def test_a_query_starting_with_a_dash_after_double_dash(cli: Any, demo_cache: Path) -> None:
    result = cli("find", "--cache-dir", str(demo_cache), "--json", "--kind", "webinars", "--", "-cle:yes")
    assert result.returncode == 0
    want = Reference(demo_facts(), _now()).ids("-cle:yes", "webinars") or []
    assert json.loads(result.stdout)["counts"]["webinars"] == len(want) > 0


# -- export --query --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def partial_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Facts]:
    """The demo sample, its first webinar and second course rejected: stored positions skip them."""
    cache = tmp_path_factory.mktemp("partial-cache")
    payloads = dict(SAMPLE)
    webinars = json.loads(SAMPLE[Kind.WEBINARS])
    webinars[0]["webinarId"] = "not a number"
    courses = json.loads(SAMPLE[Kind.COURSES])
    courses[1]["courseId"] = None
    payloads[Kind.WEBINARS] = json.dumps(webinars).encode()
    payloads[Kind.COURSES] = json.dumps(courses).encode()
    for kind in Kind:
        ingest(str(cache / FILE_NAME), kind.value, payloads[kind], None, None, AT)
    with Store(cache / FILE_NAME) as store:
        assert store.state(Kind.WEBINARS).rejected == 1 and store.state(Kind.COURSES).rejected == 1
    return cache, with_offerings(facts_of(payloads))


@pytest.mark.parametrize(
    ("kind", "query"),
    [
        ("webinars", "tax"),
        ("webinars", "fee:<300 cle:yes"),
        ("webinars", "-topic:ethics starts:2027"),
        ("courses", "city:dallas"),
        ("courses", "fee:>1000 -cle:yes"),
        ("experts", "cpa"),
    ],
)
def test_export_query_writes_exactly_the_matching_records(
    cli: Any, partial_cache: tuple[Path, Facts], kind: str, query: str
) -> None:
    cache, facts = partial_cache
    now = _now()
    rows = Reference(facts, now).ids(query, kind)
    assert rows, "the query matches something"
    want = [facts[kind][r]["id"] for r in rows]
    id_field = Kind(kind).id_field
    as_csv = cli("export", kind, "--cache-dir", str(cache), "--query", query, "--words")
    assert as_csv.returncode == 0, as_csv.stderr
    got = [int(r[id_field]) for r in csv.DictReader(io.StringIO(as_csv.stdout))]
    assert got == want

    as_json = cli(
        "export", kind, "--cache-dir", str(cache), "--format", "json", f"--query={query}", "--words"
    )
    assert as_json.returncode == 0, as_json.stderr
    everything = cli("export", kind, "--cache-dir", str(cache), "--format", "json")
    stored = {r[id_field]: r for r in json.loads(everything.stdout)}
    assert json.loads(as_json.stdout) == [stored[i] for i in want]  # as stored, in the store's order


def test_export_query_errors_and_a_kind_lacking_a_field(
    cli: Any, partial_cache: tuple[Path, Facts], tmp_path: Path
) -> None:
    cache, _facts = partial_cache
    bad = cli("export", "webinars", "--cache-dir", str(cache), "--query", "fee:<300 OR")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == [
        "catalogue-desktop: query 1 does not parse: nothing after OR: write a OR b",
        "  fee:<300 OR",
        "           ^^",
    ]
    target = tmp_path / "out.csv"
    lacking = cli(
        "export", "webinars", "--cache-dir", str(cache), "--query", "city:dallas", "-o", str(target)
    )
    assert lacking.returncode == 0
    assert "webinars have no field 'city': no records match" in lacking.stderr
    assert "Wrote 0 webinars" in lacking.stderr
    header = target.read_text(encoding="utf-8").splitlines()
    assert len(header) == 1 and header[0].startswith("webinarId,")
    as_json = cli("export", "webinars", "--cache-dir", str(cache), "--format", "json", "--query", "city:x")
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == []
    never = cli("export", "series", "--cache-dir", str(tmp_path / "empty"), "--query", "tax")
    assert never.returncode == 1 and "never synced" in never.stderr


def test_export_query_reads_plain_words_as_find_does(cli: Any, partial_cache: tuple[Path, Facts]) -> None:
    cache, facts = partial_cache
    rows = Reference(facts, _now()).ids("state:TX fee:<1500", "courses")
    assert rows
    result = cli("export", "courses", "--cache-dir", str(cache), "--query", "texas courses under 1500")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "catalogue-desktop: --query read as: state:TX kind:courses fee:<1500\n"
    got = [int(r["courseId"]) for r in csv.DictReader(io.StringIO(result.stdout))]
    assert got == [facts["courses"][r]["id"] for r in rows]
    other = cli("export", "courses", "--cache-dir", str(cache), "--query", "webinars under 200")
    assert other.returncode == 0 and "the query names webinars: exporting courses" in other.stderr
    occasions = cli(
        "export", "offerings", "--cache-dir", str(cache), "--format", "json", "--query", "chicago cpe"
    )
    assert occasions.returncode == 0, occasions.stderr
    assert "read as: city:Chicago cpe:yes" in occasions.stderr
    found = json.loads(occasions.stdout)
    assert found and all(o.get("city") == "Chicago" for o in found)


# -- in process: what is read ----------------------------------------------------------------------


def test_every_derived_field_names_its_sources() -> None:
    keys = {f.key for fields in FIELDS.values() for f in fields if f.key.startswith("@")}
    assert keys == set(finding.SOURCES)


@pytest.mark.parametrize(
    ("tables", "query", "kinds"),
    [
        (["webinars"], "tax fee:<300", ["webinars"]),
        (["webinars"], "series:ethics", ["webinars", "series"]),
        (["webinars"], "ondemand:yes", ["webinars"]),
        (["experts"], "webinars:>1 OR courses:0", ["webinars", "courses", "experts"]),
        (["certificates"], "course:lease", ["courses", "certificates"]),
        (["courses"], "certificate:x", ["courses", "certificates"]),
        (["offerings"], "tax", ["webinars", "series", "courses"]),
        (["topics"], "series:x", ["topics"]),  # topics have no series field: nothing to read for it
    ],
)
def test_only_the_kinds_a_query_needs_are_read(tables: list[str], query: str, kinds: list[str]) -> None:
    got = finding.kinds_needed(tables, [parse(query)])
    assert sorted(k.value for k in got) == sorted(kinds)


def test_a_finder_of_the_needed_kinds_answers_as_one_of_every_kind(demo_cache: Path) -> None:
    now = _now()
    with Store(demo_cache / FILE_NAME) as store:
        full = finding.load(store, list(Kind), [OFFERINGS])
        for table in TABLES:
            for f in FIELDS[table]:
                query = parse(
                    f"has:{f.name}"
                    if not f.key.startswith("@")
                    else f"{f.name}:>0"
                    if f.type.value == "number"
                    else f"{f.name}:e"
                )
                part = finding.load(store, finding.kinds_needed([table], [query]), [table])
                assert isinstance(part.finder, Finder)
                got = part.finder.evaluate(query, table, now)
                want = full.finder.evaluate(query, table, now)
                assert (got.bits, got.missing) == (want.bits, want.missing), (table, query.text)


def test_table_names_as_the_command_line_takes_them() -> None:
    assert finding.table_name("Webinar") == "webinars"
    assert finding.table_name("series") == "series"
    assert finding.table_name(" offering ") == OFFERINGS  # (the older name, in saved searches)
    assert finding.table_name("Dates") == OFFERINGS  # the name people read
    with pytest.raises(ValueError, match="dates"):
        finding.table_name("sessions")


def test_local_now_is_aware() -> None:
    assert finding.local_now().tzinfo is not None


# -- plain words (issue 36) -----------------------------------------------------------------------


def test_find_reads_plain_words_and_shows_the_kind_they_name(cli: Any, demo_cache: Path) -> None:
    result, lines = find_json(cli, demo_cache, ["texas courses under 1500", "illinois cpe", "hipaa"])
    assert result.returncode == 0, result.stderr
    texas, illinois, hipaa = lines
    assert texas["understood"] == "state:TX kind:courses fee:<1500" and texas["words"] == []
    assert list(texas["counts"]) == ["courses"]  # the kind the words name
    facts, now = demo_facts(), _now()
    rows = Reference(facts, now).ids("state:TX fee:<1500", "courses") or []
    assert rows and texas["ids"]["courses"] == record_ids(facts, "courses", rows)
    assert illinois["understood"] == "state:IL cpe:yes"
    assert illinois["counts"]["offerings"] > 0 and illinois["counts"]["experts"] is None  # no state
    assert hipaa["understood"] == "hipaa" and hipaa["words"] == ["hipaa"]

    literal, (words,) = find_json(cli, demo_cache, ["illinois cpe"], "--words")
    assert literal.returncode == 0 and words["understood"] == "illinois cpe"
    assert words["counts"]["offerings"] == 0 and words["words"] == ["illinois", "cpe"]


def test_find_orders_rows_as_the_words_ask(cli: Any, demo_cache: Path) -> None:
    _, (cheap, dear) = find_json(cli, demo_cache, ["cheapest cpe courses", "most expensive cle webinars"])
    facts = demo_facts()
    by_id = {c["id"]: min(loc["fee"] for loc in c["locations"]) for c in facts["courses"]}
    fees = [by_id[i] for i in cheap["ids"]["courses"]]
    assert len(fees) > 3 and fees == sorted(fees)
    webinar_fee = {w["id"]: w["fee"] for w in facts["webinars"]}
    dear_fees = [webinar_fee[i] for i in dear["ids"]["webinars"]]
    assert len(dear_fees) > 3 and dear_fees == sorted(dear_fees, reverse=True)


def test_find_explain_says_what_the_words_were_read_as(cli: Any, demo_cache: Path) -> None:
    result = cli("find", "--cache-dir", str(demo_cache), "--explain", "chicgo cpe courses hipaa")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Reading: chicgo cpe courses hipaa\n")
    assert "  Chicago" in out and "city:Chicago  (or chicgo)" in out
    assert "  CPE credit" in out and "cpe:yes" in out
    assert "  query: city:Chicago cpe:yes kind:courses hipaa\n" in out
    assert "  free words: hipaa\n" in out and "  Did you mean Chicago?\n" in out
    assert "Query: chicgo cpe courses hipaa\n  read as: city:Chicago cpe:yes kind:courses hipaa\n" in out


def test_export_query_writes_the_records_in_the_order_asked(
    cli: Any, partial_cache: tuple[Path, Facts]
) -> None:
    cache, facts = partial_cache
    result = cli(
        "export", "courses", "--cache-dir", str(cache), "--format", "json", "--query", "cheapest cle courses"
    )
    assert result.returncode == 0, result.stderr
    fees = [min(loc["fee"] for loc in c["locations"]) for c in json.loads(result.stdout)]
    assert len(fees) > 2 and fees == sorted(fees) and fees != sorted(fees, reverse=True)
    rows = Reference(facts, _now()).ids("cle:yes", "courses") or []
    assert len(fees) == len(rows)
