"""Hostile service text through every output (issues 25 and 35): a catalogue generated from the
demo sample with every text field replaced by hostile strings (control characters, C1 and ESC
sequences, CR/LF, U+2028/U+2029, formula starts, RFC 5545 specials, bidi controls, HTML, links with
a user part, very long and empty texts), every date by extreme ones and fees by huge JSON numbers
and exponents (``1E+999999999``, 5,001 digits), synced into a real store, then written as every
output and read back by real parsers: ``icalendar``, ``csv``, ``html.parser``, ``pypdf``,
``openpyxl``."""

from __future__ import annotations

import copy
import csv
import html.parser
import io
import json
import re
import sys
import tempfile
import time
import unicodedata
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import icalendar
import openpyxl
import pypdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.export.records import export_collection
from catalogue_desktop.core.formats.drawn_text import drawn
from catalogue_desktop.core.offers import days as offer_days
from catalogue_desktop.core.offers import export_offerings as offers_export
from catalogue_desktop.core.offers import mail
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.customer_text import Style
from catalogue_desktop.core.offers.offer import make
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample
from catalogue_desktop.ui.offers import sheet_pdf

SAMPLE = {kind: json.loads(payload) for kind, payload in load_sample().items()}
AT = "2026-11-20T09:30:00Z"
PIECES = [
    "=",
    "+",
    "-",
    "@",
    "\t",
    "\r",
    "\n",
    "\r\n",
    ";",
    ",",
    "\\",
    ":",
    '"',
    "'",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "<b>",
    "</td>",
    "<script>alert(1)</script>",
    "&amp;",
    "\x00",
    "\x01",
    "\x1c",
    "\x7f",
    "\x85",
    "\u2028",
    "END:VEVENT",
    "BEGIN:VEVENT\r\nUID:evil@x",
    "=cmd|' /C calc'!A0",
    "evil.exe",
    "https://a.example/\r\nATTACH:http://evil.example/x.exe",
    "https://a.example/ok",
    "é",
    "😀",
    "1e308",
    "\x1b]0;owned\x07",  # ESC: a terminal's title
    "\x1b[2J",
    "\x9b31m",  # C1 CSI
    "\x1b]52;c;b3duZWQ=\x07",  # OSC 52: the clipboard
    "\u2029",
    "https://catalogue.example.org" + "a" * 400 + "@evil.example/x",  # a link to evil.example
    "https://user:pw@catalogue.example.org/x",
    "https://catalogue.example.org/a\u2028b",
]
# Fees as raw JSON number text (json.dumps could not write them): within reason, and far beyond it
# (the record is refused at decode, the rest kept; core.formats.numbers).
CERTIFICATE_FEES = ["2495.00", "1E+14", "0.30000000000000004", "-0", "1E+5000", "1E+999999999", "1E-5000"]
WHOLE_FEES = ["995", "0", str(2**63 - 1), str(2**63), "9" * 5001, "-" + "9" * 4400]


def _right_to_left() -> str:
    """No strong right-to-left letter (they legitimately reorder a paragraph: not what is tested):
    excluded from the characters drawn, not filtered out of them (issue 37: a filter draws each
    character alone and made the catalogue's drawing half of this file's time). Read from the
    Unicode table when the test first draws (st.deferred), not when a worker imports the module."""
    return "".join(
        c for c in map(chr, range(sys.maxunicode + 1)) if unicodedata.bidirectional(c) in ("R", "AL", "AN")
    )


HOSTILE = st.one_of(
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=8).map("".join),
    st.deferred(
        lambda: st.text(
            st.characters(exclude_categories=("Cs", "Co", "Cn"), exclude_characters=_right_to_left()),
            max_size=30,
        )
    ),
    st.builds(
        lambda piece, n: piece * n, st.sampled_from(["a", "ab ", "\u202ex", "=\r\n"]), st.integers(700, 3000)
    ),
    st.just(""),
)
# A link field gets a crafted link half the time: each would open something else than it shows.
LINKS = st.sampled_from(
    [
        "https://catalogue.example.org" + "a" * 400 + "@evil.example/x",
        "https://user:pw@catalogue.example.org/x",
        "https://catalogue.example.org/a\u2028b",
        "https://catalogue.example.org/a\u2029b",
        "https://catalogue.example.org/files/\u202egpj.exe",
        "https://catalogue.example.org/\x1b]0;owned\x07",
        "https://catalogue.example.org/\x9b31m",
        "https://catalogue.example.org/a\tb",
        "https://catalogue.example.org/" + "a" * 2100,
        "https://catalogue.example.org/ok",
    ]
)
DATES = st.sampled_from(
    [
        "2027-03-09T08:30:00.000-05:00",
        "2027-03-09T16:30:00.000-05:00",
        "9999-12-31T20:00:00.000-12:00",  # outside years 1-9999 in UTC: rejected at decode
        "0001-01-01T01:00:00.000+14:00",
        "9999-12-31T23:59:59Z",  # the very edges: kept
        "0001-01-01T00:00:00Z",
        "2027-02-30T00:00:00Z",  # impossible: rejected
        "2027-03-09",
    ]
)
ALLOWED_TAGS = {"table", "tr", "th", "td", "a", "p", "small"}
RAW = "@@raw-number-7f3a@@"  # replaced by raw number text once the catalogue is JSON
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def _hostile(value: Any, data: st.DataObject, key: str = "") -> Any:
    """``value`` with every string replaced by a hostile one (dates by extreme dates)."""
    if isinstance(value, dict):
        return {k: _hostile(v, data, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_hostile(v, data, key) for v in value]
    if isinstance(value, str):
        if key.lower().endswith("url"):
            return data.draw(LINKS | HOSTILE)
        return data.draw(DATES if key.endswith("Date") else HOSTILE)
    return value


def _catalogue(data: st.DataObject) -> dict[Kind, list[Any]]:
    """A small catalogue: two courses (two places each), a series (two sessions), three webinars,
    a certificate, two experts and topics; fees of the certificate, the second webinar and course
    drawn from raw JSON numbers, huge ones included; each kind's first record keeps sane dates so
    that something is always stored."""
    raw = copy.deepcopy(SAMPLE)
    courses = raw[Kind.COURSES][:2]
    for c in courses:
        c["locations"] = c["locations"][:2]
    series = raw[Kind.SERIES][:1]
    series[0]["sessions"] = series[0]["sessions"][:2]
    out = {
        Kind.COURSES: _hostile(courses, data),
        Kind.SERIES: _hostile(series, data),
        Kind.WEBINARS: _hostile(raw[Kind.WEBINARS][:3], data),
        Kind.CERTIFICATES: _hostile(raw[Kind.CERTIFICATES][:1], data),
        Kind.EXPERTS: _hostile(raw[Kind.EXPERTS][:2], data),
        Kind.TOPICS: _hostile(raw[Kind.TOPICS][:2], data),
    }
    out[Kind.CERTIFICATES][0]["fee"] = RAW + data.draw(st.sampled_from(CERTIFICATE_FEES))
    out[Kind.WEBINARS][1]["fee"] = RAW + data.draw(st.sampled_from(WHOLE_FEES))
    out[Kind.COURSES][1]["locations"][0]["fee"] = RAW + data.draw(st.sampled_from(WHOLE_FEES))
    for loc in out[Kind.COURSES][0]["locations"]:
        loc["startDate"], loc["endDate"] = "2027-03-09T08:30:00.000-05:00", "2027-03-09T16:30:00.000-05:00"
    out[Kind.WEBINARS][0]["startDate"] = "2027-04-01T12:00:00Z"
    return out


def _store(folder: Path, catalogue: dict[Kind, list[Any]]) -> Path:
    path = folder / FILE_NAME
    for kind, records in catalogue.items():
        text = re.sub(f'"{RAW}([^"]*)"', r"\1", json.dumps(records))
        ingest(str(path), kind.value, text.encode(), None, None, AT)
    return path


def _safe_link(url: str) -> bool:
    """A link as every output may make it (read by ``urllib``, not by the rule under test): http(s),
    a host with no user part, at most 2,079 characters, nothing invisible, spacing or controlling."""
    parts = urllib.parse.urlsplit(url)
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and parts.username is None
        and len(url) <= 2079
        and not re.search(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]", url)
    )


def _no_formula(cells: list[str]) -> None:
    for cell in cells:
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or PLAIN_NUMBER.fullmatch(cell), cell


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        self.links += [value or "" for name, value in attrs if name == "href"]


def _ascii_words(text: str) -> str:
    return "".join(c for c in text if c.isascii() and c.isalnum())


def check_outputs(store_path: Path, times: dict[str, float], *, read_pdf: bool = True) -> int:
    """Write every output of the store's catalogue, read each back, check it (the PDF's text
    with ``read_pdf``: pypdf takes 0.3 s a page); returns the occasions. ``times``: the slowest
    seconds per output, updated."""

    def timed(name: str, make: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        result = make()
        times[name] = max(times.get(name, 0.0), time.perf_counter() - start)
        return result

    with Store(store_path) as store:
        selection = offers_export.select(store, None, include_past=True, note=lambda text: None)
        for kind in (Kind.COURSES, Kind.SERIES, Kind.WEBINARS, Kind.CERTIFICATES, Kind.EXPERTS):
            if not store.state(kind).has_data:
                continue
            out = io.StringIO()
            count = timed(
                f"export {kind.value} csv", lambda k=kind, o=out: export_collection(store, k, "csv", o)
            )
            rows = list(csv.reader(io.StringIO(out.getvalue())))
            assert len(rows) == count + 1  # one row per record
            for row in rows:
                _no_formula(row)
            if "fee" in rows[0]:  # a plain number, short, or none (a huge one refused its record)
                fees = [row[rows[0].index("fee")] for row in rows[1:]]
                assert all(fee == "" or (PLAIN_NUMBER.fullmatch(fee) and len(fee) <= 40) for fee in fees), (
                    fees
                )
    items = selection.items
    n = len(items)
    assert n >= 2

    data = timed("offerings json", lambda: offers_export.document(selection, "json"))
    assert len(json.loads(data)) == n

    text = timed("offerings csv", lambda: offers_export.document(selection, "csv"))
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == n + 1
    for row, o in zip(rows[1:], items, strict=True):
        _no_formula(row)
        assert row[4] in (o.title, "'" + o.title)  # the title, whole

    ics_text = timed("offerings ics", lambda: offers_export.document(selection, "ics"))
    events = icalendar.Calendar.from_ical(ics_text).walk("VEVENT")
    # exactly one event per dated occasion, or per day of a course of several days
    dated = [
        (o, day)
        for o in items
        for day in offer_days.days(o, selection.schedules.get(o.id) if o.kind == "course" else None)
    ]
    assert len(events) == len(dated) >= len([o for o in items if offers.instant(o.start) is not None])
    assert len({str(e["UID"]) for e in events}) == len(events)
    for event, (o, day) in zip(events, dated, strict=True):
        summary = str(event["SUMMARY"])
        plain = o.title.replace("\r\n", "\n").replace("\r", "\n")
        if day.of > 1:
            plain += f" (day {day.number} of {day.of})"
        if not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", plain):
            assert summary == plain  # the original text
        assert not re.search(r"[\x00-\x08\x0a-\x1f\x7f]", summary.replace("\n", ""))
        url = event.get("URL")
        assert url is None or not re.search(r"[\s\x00-\x1f]", str(url))
        assert url is None or _safe_link(str(url)), str(url)

    for local in (False, True):
        text = timed("e-mail text", lambda lo=local: mail.plain(items, "as of", Style(local=lo)))
        lines = text.splitlines()
        assert len(lines) == n + 2
        for line in lines[:n]:
            _no_formula([line])
        table = timed("e-mail html", lambda lo=local: mail.table(items, "as of", Style(local=lo)))
        parser = _Tags()
        parser.feed(table)
        assert set(parser.tags) <= ALLOWED_TAGS
        assert all(_safe_link(href) for href in parser.links), parser.links
        assert parser.tags.count("td") == len(mail.HEADS) * n and parser.tags.count("tr") == n + 1

    xlsx = timed("offerings xlsx", lambda: workbook(make(items, None), ["as of"]))
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx))["Dates"]
    assert sheet.max_row == n + 1
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if cell.hyperlink is not None:  # the one link rule (openpyxl splits off an anchor)
                target = cell.hyperlink.target + (
                    f"#{cell.hyperlink.location}" if cell.hyperlink.location else ""
                )
                assert _safe_link(target) and target == cell.value, target

    pdf = timed(
        "offer sheet pdf", lambda: offers_export.document(selection, "pdf", render_pdf=sheet_pdf.pdf_bytes)
    )
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) <= 3 * n
    if not read_pdf:
        return n
    footer = _ascii_words(offers.age_line(selection.as_of_text))
    words = "".join(  # each page's text without its footer: a title may go on over a page's end
        _ascii_words(page.extract_text()).replace(footer, "").replace(f"Page{i}of{len(pages)}", "")
        for i, page in enumerate(pages, 1)
    )
    for o in items:  # the title's longest run of letters and digits, its start and its end: a
        # line that goes on over a page's end is extracted twice, and a control character's
        # visible mark (␛) may come back from the PDF as its code ("1B"), so runs are compared
        runs = re.findall(r"[A-Za-z0-9]+", drawn(o.title))
        if runs:
            shown = max(runs, key=len)
            assert shown[:40] in words and shown[-40:] in words, shown[:80]
    return n


EXAMPLES = 20


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(data=st.data())
def test_hostile_text_in_every_field_reaches_every_output_harmlessly(qapp: Any, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_outputs(_store(Path(folder), _catalogue(data)), TIMES)


TIMES: dict[str, float] = {}


def test_every_output_of_100_hostile_occasions_is_written(qapp: Any, tmp_path: Path) -> None:
    """100 occasions whose every text is 5,000 characters of bidi controls, line breaks and formula
    starts: every output written and read back (drawing once grew with the text and took minutes;
    the time of each output is printed here and measured in bench/offers_bench.py)."""
    long = ("=\u202eevil.exe\r\n<b>;,\\:" * 400)[:5_000]
    raw = copy.deepcopy(SAMPLE)
    courses = []
    for i in range(50):
        course = copy.deepcopy(raw[Kind.COURSES][i % len(raw[Kind.COURSES])])
        course["courseId"] = 10_000 + i
        course["title"] = course["description"] = long + str(i)
        course["locations"] = course["locations"][:1]
        for loc in course["locations"]:
            loc.update(venue=long, address=long, city=long, detailUrl=long, zip=long)
        courses.append(course)
    webinars = []
    for i in range(50):
        webinar = copy.deepcopy(raw[Kind.WEBINARS][0])
        webinar.update(webinarId=20_000 + i, sessionId=30_000 + i, title=long + str(i), detailUrl=long)
        webinars.append(webinar)
    times: dict[str, float] = {}
    path = _store(tmp_path, {Kind.COURSES: courses, Kind.WEBINARS: webinars, Kind.SERIES: []})
    assert check_outputs(path, times, read_pdf=False) == 100
    slowest = max(times, key=times.__getitem__)
    print(f"slowest output of 100 hostile occasions: {slowest} {times[slowest]:.2f} s", times)
