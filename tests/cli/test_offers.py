"""``catalogue-desktop export offerings`` as a user runs it: subprocesses over a cache holding the
demo sample (one live webinar moved into the past), every format parsed (JSON, CSV, the .ics by
``icalendar``, the PDF's text by ``pypdf``) and checked against the sample's JSON itself: the
occasions are worked out here from the courses' locations, the series' sessions and the other
webinars, not from the app's code."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from datetime import UTC, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pypdf
import pytest

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR, FILE_NAME
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import short_url
from catalogue_desktop.core.records import zones
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.zones import clock
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample
from tests.cli_process import run_command

SAMPLE = load_sample()
AT = "2026-11-20T09:30:00Z"  # when the cache was "synced"
ZONE = timezone(timedelta(hours=-8))  # the subprocesses run with TZ=UTC+8 (POSIX: 8 hours west)
PAST_WEBINAR = 50035  # a live webinar that is no series' session, moved into 2025


def _raw() -> dict[Kind, Any]:
    raw = {kind: json.loads(payload) for kind, payload in SAMPLE.items()}
    for w in raw[Kind.WEBINARS]:
        if w["webinarId"] == PAST_WEBINAR:
            w["startDate"], w["endDate"] = "2025-05-06T13:00:00.000-05:00", "2025-05-06T14:30:00.000-05:00"
    return raw


RAW = _raw()


def catalogue_occasions(now: datetime, *, past: bool = False) -> dict[tuple[Any, ...], dict[str, Any]]:
    """(kind, id, locationId) -> what the sample says of it: the occasions worked out from the
    JSON (type 1 is on demand: no date, never past)."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for c in RAW[Kind.COURSES]:
        for loc in c["locations"]:
            out[("course", c["courseId"], loc["locationId"])] = {
                "title": c["title"],
                "start": loc["startDate"],
                "end": loc["endDate"],
                "fee": loc["fee"],
                "city": loc["city"],
                "venue": loc["venue"],
                "url": loc.get("detailUrl") or c["url"],
            }
    in_series = set()
    for s in RAW[Kind.SERIES]:
        for w in s["sessions"]:
            in_series.add(w["webinarId"])
            out[("session", w["webinarId"], None)] = _webinar(w, s)
    for w in RAW[Kind.WEBINARS]:
        if w["webinarId"] not in in_series:
            out[("webinar", w["webinarId"], None)] = _webinar(w, None)
    if not past:
        out = {
            k: v
            for k, v in out.items()
            if v["start"] is None or datetime.fromisoformat(v["end"] or v["start"]) >= now
        }
    return out


def _webinar(w: dict[str, Any], series: dict[str, Any] | None) -> dict[str, Any]:
    live = w["type"] != 1
    return {
        "title": w["title"] or (series or {}).get("title"),
        "start": w["startDate"] if live else None,
        "end": w["endDate"] if live else None,
        "city": None,
        "venue": None,
        "fee": w["fee"] if w.get("fee") is not None else (series or {}).get("fee"),
        "url": w.get("detailUrl") or (series or {}).get("detailUrl"),
    }


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("offers-cache")
    for kind in Kind:
        report = ingest(str(path / FILE_NAME), kind.value, json.dumps(RAW[kind]).encode(), None, None, AT)
        assert report.status == "updated", report
    return path


@pytest.fixture
def env(env: dict[str, str]) -> dict[str, str]:
    """The command's environment (``conftest``) in a zone that is not UTC, with no settings
    remembered by a window (``XDG_CONFIG_HOME``: an empty folder)."""
    return {**env, "TZ": "UTC+8", "XDG_CONFIG_HOME": str(Path(env[ENV_CACHE_DIR]).parent / "config")}


def run(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    result = run_command(*args, env=env, cwd=cwd)
    assert b"Traceback" not in result.stderr + result.stdout, result.stderr.decode()
    return result


def export(
    env: dict[str, str], cache: Path, tmp_path: Path, *args: str
) -> subprocess.CompletedProcess[bytes]:
    return run(env, "export", "dates", "--cache-dir", str(cache), *args, cwd=tmp_path)


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["kind"], row["id"], row["locationId"])


def age_text() -> str:
    """The data's time as the subprocess (TZ=UTC+8) writes it, with its zone: "Friday, November
    20, 2026 1:30 AM UTC−08:00"."""
    local = datetime.fromisoformat(AT).astimezone(ZONE)
    return f"{local:%A, %B} {local.day}, {local.year} {clock(local)} UTC−08:00"


def flat(text: str) -> str:
    return " ".join(text.split())


def squeeze(text: str) -> str:
    return "".join(text.split())


# -- JSON and CSV -----------------------------------------------------------------------------------


def test_json_rows_are_the_catalogues_upcoming_occasions_sorted_by_start(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    before = datetime.now(UTC)
    result = export(env, cache, tmp_path, "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    want = catalogue_occasions(before)
    assert {key(r) for r in rows} == set(want)  # every upcoming occasion, once
    assert ("webinar", PAST_WEBINAR, None) not in {key(r) for r in rows}  # over: left out
    for row in rows:
        assert set(offers.JSON_KEYS) <= set(row)
        expect = want[key(row)]
        for field in ("title", "start", "end", "fee", "city", "venue", "url"):
            assert row[field] == expect[field], (key(row), field)
    starts = [datetime.fromisoformat(r["start"]) for r in rows if r["start"]]
    assert starts == sorted(starts)
    dated = len(starts)
    assert all(r["start"] is None and r["onDemand"] for r in rows[dated:])  # on demand: last
    assert {r["kind"] for r in rows} == {"course", "session", "webinar"}


def test_include_past_and_date_clauses_bring_past_occasions_back(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    now = datetime.now(UTC)
    everything = json.loads(export(env, cache, tmp_path, "--format", "json", "--include-past").stdout)
    assert {key(r) for r in everything} == set(catalogue_occasions(now, past=True))
    dated = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", "starts:2025").stdout)
    assert [key(r) for r in dated] == [("webinar", PAST_WEBINAR, None)]  # a date clause asks for it


def test_csv_carries_the_json_rows(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    rows = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", "cle:yes").stdout)
    result = export(env, cache, tmp_path, "--format", "csv", "--query", "cle:yes")
    read = list(csv.DictReader(io.StringIO(result.stdout.decode("utf-8"))))
    assert list(read[0]) == list(offers.JSON_KEYS)
    assert len(read) == len(rows) > 10
    for r, j in zip(read, rows, strict=True):
        assert (r["kind"], r["title"], r["url"]) == (j["kind"], j["title"], j["url"])
        assert r["start"] == (j["start"] or "")
        assert r["fee"] == ("" if j["fee"] is None else str(j["fee"]))
        assert r["cle"] == "true" and r["experts"] == "; ".join(j["experts"])


def test_the_query_picks_occasions_as_the_finder_does(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    now = datetime.now(UTC)
    query = "city:dallas fee:<1500"
    rows = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", query).stdout)
    want = {k for k, v in catalogue_occasions(now).items() if v["city"] == "Dallas" and v["fee"] < 1500}
    assert {key(r) for r in rows} == want and want
    sessions = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", "kind:session").stdout)
    assert {r["kind"] for r in sessions} == {"session"} and all(r["series"] for r in sessions)


# -- the calendar file ----------------------------------------------------------------------------------


def test_ics_is_an_event_per_day_at_the_courses_schedule_and_its_uids_are_stable(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    """A course of several days: an event per day, that day's first start to last end in its
    schedule, at the venue, in its zone; any other dated occasion: one event, its exact instants."""
    out = tmp_path / "offer.ics"
    result = export(env, cache, tmp_path, "--format", "ics", "--output", str(out))
    assert result.returncode == 0, result.stderr
    rows = json.loads(export(env, cache, tmp_path, "--format", "json").stdout)
    dated = [r for r in rows if r["start"]]
    schedules = {c["courseId"]: c.get("schedule") or [] for c in RAW[Kind.COURSES]}
    expected = []
    for row in dated:
        start, end = datetime.fromisoformat(row["start"]), datetime.fromisoformat(row["end"])
        span = (end.date() - start.date()).days + 1
        # a course at its venue, in its zone: a time written in another offset is the clock time
        # as written (no choice remembered, no --times)
        found = zones.check(start, row["state"]) if row["kind"] == "course" else None
        zone = ZoneInfo(found.zone) if found is not None else start.tzinfo
        if span == 1:
            at = (start.replace(tzinfo=zone), end.replace(tzinfo=zone))
            expected.append((row, row["title"], *at))
            continue
        for n in range(1, span + 1):
            on = start.date() + timedelta(days=n - 1)
            day = [s for s in schedules[row["id"]] if s["day"] == n]
            first = min(time.fromisoformat(s["startTime"]) for s in day)
            last = max(time.fromisoformat(s["endTime"]) for s in day)
            title = f"{row['title']} (day {n} of {span})"
            expected.append((row, title, datetime.combine(on, first, zone), datetime.combine(on, last, zone)))
    said = result.stderr.decode()
    assert (
        f"Wrote {len(rows)} dates ({len(expected)} events: a day each for courses of several days; " in said
    )
    assert f"{len(rows) - len(dated)} on demand have no date)" in said
    events = icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")
    assert len(events) == len(expected) > len(dated)
    for event, (row, title, begin, finish) in zip(events, expected, strict=True):
        assert str(event["SUMMARY"]) == title
        # the instants (no demo course changes its offset between its days)
        assert (event.decoded("DTSTART"), event.decoded("DTEND")) == (begin, finish)
        description = flat(str(event["DESCRIPTION"]))
        assert f"Fee: {row['fee']:,}" in description and row["url"] in description
        assert f"Prices and dates as of {age_text()}" in description
        assert str(event["URL"]) == row["url"]
        if row["kind"] == "course":
            assert begin.date() == event.decoded("DTSTART").astimezone(begin.tzinfo).date()
            assert row["city"] in str(event["LOCATION"]) and row["venue"] in str(event["LOCATION"])
    again = icalendar.Calendar.from_ical(export(env, cache, tmp_path, "--format", "ics").stdout)
    assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(e["UID"]) for e in events]
    assert len({str(e["UID"]) for e in events}) == len(events)


def test_csv_for_excel_begins_with_a_byte_order_mark(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    plain = export(env, cache, tmp_path, "--format", "csv")
    excel = export(env, cache, tmp_path, "--format", "csv", "--excel")
    assert not plain.stdout.startswith(b"\xef\xbb\xbf") and excel.stdout[:3] == b"\xef\xbb\xbf"
    assert excel.stdout[3:] == plain.stdout
    out = tmp_path / "experts.csv"
    args = ("export", "experts", "--cache-dir", str(cache), "--excel", "-o", str(out))
    assert run(env, *args, cwd=tmp_path).returncode == 0
    data = out.read_bytes()
    assert data[:3] == b"\xef\xbb\xbf" and data.decode("utf-8-sig").startswith("expertId,")


# -- the offer sheet ----------------------------------------------------------------------------------


def test_pdf_names_every_occasion_its_date_fee_link_and_the_datas_age(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in env.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "offer.pdf"
    query = "city:chicago OR kind:session"
    result = export(
        env,
        cache,
        tmp_path,
        "--format",
        "pdf",
        "--output",
        str(out),
        "--query",
        query,
        "--title",
        "Offer for ACME & Co",
        "--paper",
        "letter",
    )
    assert result.returncode == 0, result.stderr  # no display needed
    rows = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", query).stdout)
    reader = pypdf.PdfReader(out)
    width, height = (float(x) for x in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)  # Letter, in points
    assert reader.metadata.title == "Offer for ACME & Co"
    pages = [page.extract_text() for page in reader.pages]
    text, packed = flat("\n".join(pages)), "".join("".join(pages).split())
    assert text.startswith("Offer for ACME & Co") and f"{len(rows)} dates" in text
    for row in rows:  # (compared without spaces: titles wrap at hyphens, links anywhere)
        assert packed.count(squeeze(row["title"])) >= 1
        if row["start"]:
            start = datetime.fromisoformat(row["start"])  # the date and time as written
            assert squeeze(f"{start:%A, %B} {start.day}, {start.year}") in packed
            assert squeeze(clock(start)) in packed
        # a session of a series offered whole is "Included" in the series' price
        assert f"{row['fee']:,}" in text or (row["kind"] == "session" and "Included" in text)
        assert short_url(row["url"]) in packed
    footer = f"Prices and dates as of {age_text()}; they may have changed since."
    assert all(flat(footer) in flat(page) for page in pages)  # on every page
    assert all(f"Page {i} of {len(pages)}" in flat(page) for i, page in enumerate(pages, 1))


def test_a_window_platform_that_cannot_start_here_does_not_stop_the_pdf(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    """The sheet is drawn offscreen: ``QT_QPA_PLATFORM=xcb`` without a display (set for windows)
    made Qt abort the export."""
    env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = export(
        {**env, "QT_QPA_PLATFORM": "xcb"},
        cache,
        tmp_path,
        "--format",
        "pdf",
        "--query",
        "kind:course",
        "--title",
        "Courses for ACME",
    )
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(io.BytesIO(result.stdout))
    assert reader.pages and flat(reader.pages[0].extract_text()).startswith("Courses for ACME")


def test_pdf_grouped_by_month(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    result = export(env, cache, tmp_path, "--format", "pdf", "--group", "month", "--query", "kind:course")
    text = flat("\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(result.stdout)).pages))
    rows = json.loads(export(env, cache, tmp_path, "--format", "json", "--query", "kind:course").stdout)
    months = list(dict.fromkeys(datetime.fromisoformat(r["start"]).strftime("%B %Y") for r in rows))
    assert len(months) > 3
    assert [text.index(m) for m in months] == sorted(text.index(m) for m in months)


# -- nothing to export -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "csv", "ics", "pdf"])
def test_nothing_matching_is_an_empty_document_and_a_word_on_stderr(
    env: dict[str, str], cache: Path, tmp_path: Path, fmt: str
) -> None:
    result = export(env, cache, tmp_path, "--format", fmt, "--query", "city:atlantis")
    assert result.returncode == 0
    assert "no dates match 'city:atlantis'" in result.stderr.decode()
    if fmt == "json":
        assert json.loads(result.stdout) == []
    elif fmt == "csv":
        assert result.stdout.decode().splitlines() == [",".join(offers.JSON_KEYS)]
    elif fmt == "ics":
        assert icalendar.Calendar.from_ical(result.stdout).walk("VEVENT") == []
    else:
        text = flat(pypdf.PdfReader(io.BytesIO(result.stdout)).pages[0].extract_text())
        assert "0 dates" in text and "Prices and dates as of" in text


def test_a_field_offerings_lack_matches_none(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    result = export(env, cache, tmp_path, "--format", "json", "--query", "bio:tax")
    assert result.returncode == 0 and json.loads(result.stdout) == []
    assert "no dates match" in result.stderr.decode() and "bio" in result.stderr.decode()


def test_never_synced_is_an_error(env: dict[str, str], tmp_path: Path) -> None:
    result = run(
        env, "export", "offerings", "--cache-dir", str(tmp_path / "empty"), "--format", "ics", cwd=tmp_path
    )
    assert result.returncode == 1 and result.stdout == b""
    assert "nothing was ever synced" in result.stderr.decode()


def test_a_bad_query_and_offer_options_on_a_collection_are_usage_errors(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    result = export(env, cache, tmp_path, "--format", "json", "--query", "fee:abc")
    assert result.returncode == 2 and result.stdout == b"" and "not a number" in result.stderr.decode()
    result = run(env, "export", "webinars", "--cache-dir", str(cache), "--format", "ics", cwd=tmp_path)
    assert result.returncode == 2 and b"for dates only" in result.stderr


def test_only_the_pdf_imports_qt(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    """A fresh process per group: json, csv and ics one after another in one (Qt never loaded
    after any of them), the pdf in another (Qt loaded)."""
    code = (
        "import sys; from catalogue_desktop.cli import main\n"
        f"cache = {str(cache)!r}\n"
        "for fmt in sys.argv[1:]:\n"
        "    main(['export', 'offerings', '--cache-dir', cache, '--format', fmt, '-o', 'x.' + fmt])\n"
        "    print(fmt, 'PySide6' in sys.modules, file=sys.stderr)\n"
    )
    for formats, qt in ((("json", "csv", "ics"), False), (("pdf",), True)):
        result = subprocess.run(
            [sys.executable, "-c", code, *formats],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        said = [line for line in result.stderr.splitlines() if line.split(" ")[0] in formats]
        assert said == [f"{fmt} {qt}" for fmt in formats], (formats, result.stderr)


# -- spreadsheets and the currency ----------------------------------------------------------------


def test_offerings_as_a_spreadsheet_with_the_currency_asked_for(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    import openpyxl

    out = tmp_path / "offer.xlsx"
    result = export(env, cache, tmp_path, "--format", "xlsx", "--currency", "eur", "--output", str(out))
    assert result.returncode == 0, result.stderr
    rows = json.loads(export(env, cache, tmp_path, "--format", "json").stdout)
    book = openpyxl.load_workbook(out)
    ws = book["Dates"]
    heads = [c.value for c in ws[1]]
    col = {h: i for i, h in enumerate(heads)}
    body = list(ws.iter_rows(min_row=2))
    assert len(body) == len(rows) and ws.freeze_panes == "A2"
    for cells, row in zip(body, rows, strict=True):
        assert cells[col["Title"]].value == row["title"]
        if row["start"]:
            written = datetime.fromisoformat(row["start"])
            assert cells[col["Start"]].is_date
            assert cells[col["Start"]].value == written.replace(tzinfo=None, microsecond=0)
        fee = cells[col["Fee"]]
        assert fee.value == row["fee"] and fee.data_type == "n" and fee.number_format == '"EUR" #,##0'
        assert cells[col["Date id"]].value.startswith(f"{row['kind']}:")
        if row["url"]:
            assert cells[col["Link"]].hyperlink.target == row["url"]
    about = [c.value for c in book["About"]["A"]]
    assert about[:2] == ["Offer", f"Prices and dates as of {age_text()}; they may have changed since."]
    assert about[2].startswith("Catalogue: ") and about[3] == "Query: (all)"


def test_the_remembered_currency_is_the_default(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    settings = Path(env["XDG_CONFIG_HOME"]) / "catalogue-desktop" / "catalogue-desktop.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text("[display]\ncurrency=CHF\n", encoding="utf-8")
    out = tmp_path / "offer.pdf"
    result = export(env, cache, tmp_path, "--format", "pdf", "--output", str(out), "--query", "city:chicago")
    assert result.returncode == 0, result.stderr
    text = flat(" ".join(p.extract_text() for p in pypdf.PdfReader(out).pages))
    fees = [
        r["fee"]
        for r in json.loads(
            export(env, cache, tmp_path, "--format", "json", "--query", "city:chicago").stdout
        )
    ]
    assert fees and all(f"CHF {fee:,}" in text for fee in fees)
    ics = export(env, cache, tmp_path, "--format", "ics", "--currency", "USD", "--query", "city:chicago")
    descriptions = [
        flat(str(e["DESCRIPTION"])) for e in icalendar.Calendar.from_ical(ics.stdout).walk("VEVENT")
    ]
    assert descriptions and all("Fee: USD " in d for d in descriptions)  # --currency wins


def test_a_remembered_currency_that_cannot_be_one_is_left_out_with_a_note(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    settings = Path(env["XDG_CONFIG_HOME"]) / "catalogue-desktop" / "catalogue-desktop.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text("[display]\ncurrency=" + "\\x1b]0;t" * 100 + "\n", encoding="utf-8")
    result = export(env, cache, tmp_path, "--format", "email", "--query", "city:dallas")
    assert result.returncode == 0, result.stderr
    (line,) = [x for x in result.stderr.decode().splitlines() if str(settings) in x]  # (and Dallas's doubt)
    assert line.startswith(f"catalogue-desktop: {settings}: display/currency = ") and "none is used" in line
    assert b"]0;t" not in result.stdout


def test_a_remembered_word_that_is_no_currency_code_is_left_out_with_a_note(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    settings = Path(env["XDG_CONFIG_HOME"]) / "catalogue-desktop" / "catalogue-desktop.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text("[display]\ncurrency=DOLLARS\n", encoding="utf-8")  # (an earlier version's)
    result = export(env, cache, tmp_path, "--format", "email", "--query", "city:dallas")
    assert result.returncode == 0, result.stderr
    (line,) = [x for x in result.stderr.decode().splitlines() if str(settings) in x]
    assert line.endswith(
        "display/currency = 'DOLLARS' is not a currency code; none is used (Preferences ▸ General sets one)"
    )
    assert b"DOLLARS" not in result.stdout


def test_a_collection_as_a_spreadsheet(env: dict[str, str], cache: Path, tmp_path: Path) -> None:
    import openpyxl

    out = tmp_path / "courses.xlsx"
    result = run(
        env, "export", "courses", "--cache-dir", str(cache), "--format", "xlsx", "-o", str(out), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert f"Wrote {len(RAW[Kind.COURSES])} courses to " in result.stderr.decode()
    ws = openpyxl.load_workbook(out)["Courses"]
    heads = [c.value for c in ws[1]]
    assert heads[0] == "courseId" and "locations" in heads and "url" in heads
    by_id = {r[0].value: r for r in ws.iter_rows(min_row=2)}
    col = {h: i for i, h in enumerate(heads)}
    for course in RAW[Kind.COURSES]:
        row = by_id[course["courseId"]]
        assert row[0].data_type == "n" and row[col["title"]].value == course["title"]
        assert row[col["cleAccreditation"]].value == ("Yes" if course["cleAccreditation"] else "No")
        assert row[col["url"]].hyperlink.target == course["url"]
        assert (
            json.loads(row[col["locations"]].value)[0]["locationId"] == course["locations"][0]["locationId"]
        )
    # standard output works too (bytes of a zip)
    piped = run(env, "export", "topics", "--cache-dir", str(cache), "--format", "xlsx", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout[:2] == b"PK"


def test_the_command_lines_offer_is_the_windows_preferences_letterhead_and_chosen_times(
    env: dict[str, str], cache: Path, tmp_path: Path
) -> None:
    """The letterhead and the choice of doubtful times, kept by the window (QSettings, written
    here by Qt itself: its escapes, a comma, an accent), head the command line's offers too."""
    from PySide6.QtCore import QSettings

    ini = Path(env["XDG_CONFIG_HOME"]) / "catalogue-desktop" / "catalogue-desktop.ini"
    q = QSettings(str(ini), QSettings.Format.IniFormat)
    for key, value in (
        ("offers/seller_company", "Whitfield & Crane, Training"),
        ("offers/seller_name", "Jürgen Müller"),
        ("offers/seller_email", "jm@example.com"),
        ("offers/times", "instant"),
    ):
        q.setValue(key, value)
    q.sync()
    del q
    out = tmp_path / "offer.pdf"
    query = "city:boston starts:2027-03"
    result = export(env, cache, tmp_path, "--format", "pdf", "-o", str(out), "--query", query)
    assert result.returncode == 0, result.stderr
    said = result.stderr.decode()
    assert "1 course time written in an offset that is not the venue's zone's" in said
    assert "(course:6102@7104): given as the instant written" in said
    lines = [" ".join(x.split()) for x in pypdf.PdfReader(out).pages[0].extract_text().splitlines()]
    assert lines[:3] == ["Whitfield & Crane, Training", "Jürgen Müller", "jm@example.com"]
    text = " ".join(lines)
    assert "9:30 AM – 5:30 PM EDT each day" in text and "Check the time" not in text
    # --times overrides what the window chose; --format email: the same offer as text
    email = export(env, cache, tmp_path, "--format", "email", "--query", query, "--times", "clock")
    assert email.returncode == 0, email.stderr
    mail = email.stdout.decode()
    assert "8:30 AM – 4:30 PM EDT each day" in mail
    assert mail.splitlines()[-4:-2] == ["Jürgen Müller", "jm@example.com"]
    assert "Whitfield & Crane, Training" in mail and "UTC-" not in mail
