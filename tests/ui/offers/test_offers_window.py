"""Offers made from the Dates tab as a user makes them: rows selected (or none: all the query
shows), then Ctrl+C, the offer sheet (PDF), Print (the preview), a calendar file, or File ▸ Offer;
the warning before an offer from old data. What is produced is parsed (the clipboard's text and
HTML, the .ics by ``icalendar``, the PDF's text by ``pypdf``) and checked against the demo
sample's JSON, not against a stored copy of the output."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pypdf
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QLabel, QMessageBox

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.offers import mail
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import short_url
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from catalogue_desktop.core.records.zones import clock
from catalogue_desktop.ui.offers import desk
from catalogue_desktop.ui.offers.offer_settings import OfferSettings
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog

KIND = column_index(OCCASIONS, "kind")
NEW_YORK = ZoneInfo("America/New_York")
RECORD = column_index(OCCASIONS, "record")


def _ingest(cache_dir: Path, sample: dict[Kind, bytes], days_old: float) -> str:
    from catalogue_desktop.core.sync.ingest import ingest

    stamp = (datetime.now(UTC) - timedelta(days=days_old)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for kind, payload in sample.items():
        assert ingest(str(cache_dir / FILE_NAME), kind.value, payload, None, None, stamp).status == "updated"
    return stamp


@pytest.fixture
def window_of(make_session: Any, cache_dir: Path, sample: dict[Kind, bytes]) -> Any:
    """``window_of(days_old)``: a window (offline) on the demo sample synced that long ago, its
    Dates tab shown; ``window.synced_at`` is when."""

    def make(days_old: float = 1) -> Any:
        stamp = _ingest(cache_dir, sample, days_old)
        session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
        session.finder.indexer.finish_now()
        window = session.window
        window.synced_at = stamp
        # (Preferences: a course time written in another offset than its venue's zone's is given
        # as the clock time written; the journeys ask it: tests/journeys/test_offers_one_voice.py)
        OfferSettings(window.settings).times = "clock"
        window.show_tab(OCCASIONS)
        return window

    return make


def catalogue(sample: dict[Kind, bytes]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """(Dates' kind, record id) -> the sample's occasions of it (a course's locations, the
    webinar), each with title, start, fee, city and link, worked out from the JSON."""
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for c in json.loads(sample[Kind.COURSES]):
        out[("Course", c["courseId"])] = [
            {
                "title": c["title"],
                "start": loc["startDate"],
                "end": loc["endDate"],
                "fee": loc["fee"],
                "city": loc["city"],
                "url": loc.get("detailUrl") or c["url"],
            }
            for loc in c["locations"]
        ]
    series = {w["webinarId"]: s for s in json.loads(sample[Kind.SERIES]) for w in s["sessions"]}
    for w in json.loads(sample[Kind.WEBINARS]):
        s = series.get(w["webinarId"], {})
        live = w["type"] != 1
        out[("Session" if s else "Webinar", w["webinarId"])] = [
            {
                "title": w["title"],
                "start": w["startDate"] if live else None,
                "end": w["endDate"] if live else None,
                "fee": w["fee"] if w.get("fee") is not None else s["fee"],
                "city": None,
                "url": w.get("detailUrl") or s.get("detailUrl"),
            }
        ]
    return out


def shown(tab: Any, rows: list[int], sample: dict[Kind, bytes]) -> list[dict[str, Any]]:
    """The sample's occasion each of these view rows shows (by its kind, record and start)."""
    known = catalogue(sample)
    out = []
    for r in rows:
        values = tab.model.rowset.rows[tab.model.source_row(r)]
        starts = {
            (o["start"] and datetime.fromisoformat(o["start"]).timestamp() * 1000): o
            for o in known[(values[KIND], values[RECORD])]
        }
        out.append(starts[values[column_index(OCCASIONS, "start")]])
    return out


def select(tab: Any, rows: list[int]) -> None:
    from PySide6.QtCore import QItemSelectionModel

    selection = tab.view.selectionModel()
    selection.clearSelection()
    for r in rows:
        selection.select(
            tab.model.index(r, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )


def money(fee: int) -> str:
    """A fee as offers write it: with the currency asked for (``currency_asked``), unbroken."""
    return f"USD\u00a0{fee:,}"


class _Table(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
        elif tag == "a":
            self.links.append(dict(attrs)["href"] or "")

    def handle_data(self, data: str) -> None:
        if self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


@pytest.fixture(autouse=True)
def currency_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The currency question (asked when none is set) answered "usd"; its texts noted."""
    asked: list[str] = []

    def ask(parent: Any, title: str, label: str, *args: Any, **kwargs: Any) -> tuple[str, bool]:
        asked.append(f"{title}: {label} [{kwargs.get('text', '')}]")
        return "usd", True

    monkeypatch.setattr(QInputDialog, "getText", ask)
    return asked


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """File dialogs answer a path in tmp (the name offered, kept; or in ``saved["into"]``);
    what was asked is noted."""
    asked: dict[str, Any] = {}

    def save(parent: Any, caption: str, name: str, filters: str) -> tuple[str, str]:
        asked.update(caption=caption, name=Path(name).name, folder=Path(name).parent)
        return str(asked.get("into", tmp_path) / Path(name).name), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    return asked


@pytest.fixture
def sheet_options(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The offer sheet's dialog, answered as ``sheet_options`` says (title, group, paper)."""
    answer: dict[str, Any] = {"title": "Offer for Whitfield & Crane", "group": "By course", "paper": "A4"}

    def execute(dialog: SheetDialog) -> int:
        what = dialog.findChild(QLabel, "offer-sheet-what")
        assert what is not None
        answer["what"] = what.text()
        answer["default title"] = dialog.title.text()
        answer["default zone"] = dialog.zone.currentData()
        dialog.zone.setCurrentIndex(dialog.zone.findData(answer.get("zone")))  # None: as written
        dialog.title.setText(answer["title"])
        dialog.group.setCurrentText(answer["group"])
        dialog.paper.setCurrentText(answer["paper"])
        return 1

    monkeypatch.setattr(SheetDialog, "exec", execute)
    return answer


class Boxes(list[str]):
    """The texts of the message boxes shown; ``answers``: the buttons to click, in turn (then
    Continue)."""

    answers: list[str]


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> Boxes:
    """Message boxes answered as ``warnings.answers`` says, their texts noted."""
    texts = Boxes()
    answers: list[str] = []

    def execute(box: QMessageBox) -> int:
        texts.append(box.text())
        wanted = answers.pop(0) if answers else "Continue"
        button = next(b for b in box.buttons() if b.text().replace("&", "") == wanted)
        button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", execute)
    texts.answers = answers
    return texts


def messages(window: Any) -> str:
    return window.statusBar().currentMessage()


# -- copy for e-mail ---------------------------------------------------------------------------


def test_ctrl_c_copies_the_selected_occasions_as_text_and_a_table(
    qtbot: Any, window_of: Any, sample: dict[Kind, bytes], sheet_options: dict[str, Any]
) -> None:
    window = window_of()
    OfferSettings(window.settings).customer_zone = "America/New_York"  # online times for the customer
    tab = window.current_tab()
    rows = [0, 3, 5]
    select(tab, rows)
    sheet_options["zone"] = "America/New_York"  # the customer's, chosen in the offer's dialog
    QApplication.clipboard().clear()
    qtbot.keyClick(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    mime = QApplication.clipboard().mimeData()
    head, lines = mime.text().splitlines()[:2], mime.text().splitlines()[2:]
    assert head == ["Offer for Whitfield & Crane", ""]  # the offer's dialog, asked as for every offer
    age = offers.age_line(offers.as_of_text(window.synced_at))
    assert lines[-1] == age and lines[-2] == "" and len(lines) == len(rows) + 2
    for line, occasion in zip(lines, shown(tab, rows, sample), strict=False):
        parts = line.split(" — ")
        assert parts[0] == occasion["title"]
        start, end = (datetime.fromisoformat(occasion[k]) for k in ("start", "end"))
        if occasion["city"]:  # a course: at its location, as the service wrote it
            assert occasion["city"] in parts[2]
        else:  # online: in the zone picked for the customer
            start, end = start.astimezone(NEW_YORK), end.astimezone(NEW_YORK)
            assert parts[2] == "Online" and f"{clock(end)} {start.tzname()}" in parts[1]  # "EST"
        assert (
            parts[1].startswith(f"{start:%A, %B} {start.day}")
            and f"{end:%B} {end.day}, {end.year}" in parts[1]
        )
        assert f"{clock(start)} – {clock(end)}" in parts[1]  # the time range, each day
        assert money(occasion["fee"]) in parts and parts[-1] == occasion["url"]
    table = _Table()
    table.feed(mime.html())
    assert table.rows[0] == list(mail.HEADS) and len(table.rows) == len(rows) + 1
    assert [r[0] for r in table.rows[1:]] == [line.split(" — ")[0] for line in lines[: len(rows)]]
    assert table.links == [o["url"] for o in shown(tab, rows, sample)]
    assert age in mime.html()
    assert messages(window) == "Copied 3 selected dates for an e-mail (text and table)"


def test_with_nothing_selected_all_the_query_shows_is_copied_with_the_chosen_currency(
    qtbot: Any,
    window_of: Any,
    sample: dict[Kind, bytes],
    sheet_options: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def keep_as_written(box: QMessageBox) -> int:  # (Dallas' doubtful times: the default kept)
        asked.append(box.objectName())
        box.defaultButton().click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", keep_as_written)
    window = window_of()
    window.formatter.set_currency("USD")
    window.query_box.set_text("city:dallas")
    tab = window.current_tab()
    tab.view.selectionModel().clearSelection()
    dallas = [o for occasions in catalogue(sample).values() for o in occasions if o["city"] == "Dallas"]
    assert tab.model.rowCount() == len(dallas) > 1
    window.menu_actions.offer_actions[4].trigger()  # File ▸ Offer ▸ Copy for email
    text = QApplication.clipboard().text().splitlines()
    assert text[0] == sheet_options["title"]  # (asked, as every offer: the customer's title first)
    lines = [line for line in text if " — " in line]  # (one a date)
    assert len(lines) == len(dallas) and all(
        "Dallas, TX" in line and " — USD\u00a0" in line for line in lines
    )
    assert messages(window) == (
        f"Copied all {len(dallas)} dates the query shows for an e-mail (text and table)"
    )


def test_other_tabs_still_copy_rows_as_tsv(qtbot: Any, window_of: Any) -> None:
    window = window_of()
    tab = window.show_tab(Kind.WEBINARS)
    tab.view.selectRow(0)
    qtbot.keyClick(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    mime = QApplication.clipboard().mimeData()
    assert "\t" in mime.text() and not mime.hasHtml()


# -- the calendar file --------------------------------------------------------------------------------


def test_calendar_file_of_the_selection(
    qtbot: Any,
    window_of: Any,
    saved: dict[str, Any],
    sheet_options: dict[str, Any],
    sample: dict[Kind, bytes],
    tmp_path: Path,
) -> None:
    window = window_of()
    tab = window.current_tab()
    rows = list(range(0, 12, 2))
    select(tab, rows)
    tab.offer_buttons["ics"].click()
    assert sheet_options["what"] == f"An offer of {len(rows)} selected dates."
    assert saved["name"].startswith("Offer for Whitfield & Crane (") and saved["name"].endswith(").ics")
    events = icalendar.Calendar.from_ical((tmp_path / saved["name"]).read_bytes()).walk("VEVENT")
    occasions = shown(tab, rows, sample)
    assert len(events) == len(occasions)  # (these are all dated)
    for event, occasion in zip(events, occasions, strict=True):
        assert str(event["SUMMARY"]) == occasion["title"]
        assert event.decoded("DTSTART") == datetime.fromisoformat(occasion["start"])
        assert event.decoded("DTEND") == datetime.fromisoformat(occasion["end"])
        assert str(event["URL"]) == occasion["url"]
        assert f"Fee: {money(occasion['fee'])}" in str(event["DESCRIPTION"])
        if occasion["city"]:
            assert occasion["city"] in str(event["LOCATION"])
    assert messages(window).startswith(f"Wrote {len(rows)} events of {len(rows)} selected dates to ")


def test_a_calendar_saved_beside_a_planted_part_link_leaves_its_target_alone(
    qtbot: Any, window_of: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sheet_options: dict[str, Any]
) -> None:
    """Someone plants ``offer.ics.part`` -> the user's own file in a shared folder: the window
    writes a temporary file of its own (``core.formats.files``) and the calendar is a regular file."""
    shared = tmp_path / "shared"
    shared.mkdir()
    own = tmp_path / "own.txt"
    own.write_text("the user's own data")
    (shared / "offer.ics.part").symlink_to(own)
    target = shared / "offer.ics"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args: (str(target), ""))
    window = window_of()
    tab = window.current_tab()
    select(tab, [0, 2])
    tab.offer_buttons["ics"].click()
    assert own.read_text() == "the user's own data"
    assert not target.is_symlink() and target.read_bytes().startswith(b"BEGIN:VCALENDAR")
    assert sorted(p.name for p in shared.iterdir()) == ["offer.ics", "offer.ics.part"]


# -- the offer sheet, saved and printed ------------------------------------------------------------


def test_offer_sheet_pdf_of_the_selection(
    qtbot: Any,
    window_of: Any,
    saved: dict[str, Any],
    sheet_options: dict[str, Any],
    sample: dict[Kind, bytes],
    tmp_path: Path,
) -> None:
    window = window_of()
    tab = window.current_tab()
    rows = [1, 2, 4, 7, 9]
    select(tab, rows)
    sheet_options.update(paper="Letter")
    tab.offer_buttons["pdf"].click()
    assert sheet_options["what"] == "An offer sheet of 5 selected dates."
    reader = pypdf.PdfReader(tmp_path / saved["name"])
    assert [round(float(x)) for x in reader.pages[0].mediabox.upper_right] == [612, 792]
    text = "\n".join(page.extract_text() for page in reader.pages)
    flat, packed = " ".join(text.split()), "".join(text.split())
    assert flat.startswith("Offer for Whitfield & Crane 5 dates")
    for occasion in shown(tab, rows, sample):
        assert "".join(occasion["title"].split()) in packed
        start = datetime.fromisoformat(occasion["start"])
        assert f"{start:%A},{start:%B}{start.day}," in packed and "".join(clock(start).split()) in packed
        assert money(occasion["fee"]).replace("\u00a0", " ") in flat and short_url(occasion["url"]) in packed
    assert " ".join(offers.age_line(offers.as_of_text(window.synced_at)).split()) in flat
    assert saved["name"] == "Offer for Whitfield & Crane (Dec 2026 – Jan 2027).pdf"  # its months
    assert messages(window).startswith("Wrote the offer sheet of 5 selected dates (Letter) to ")


def test_print_opens_a_preview_of_the_sheet(
    qtbot: Any, window_of: Any, sheet_options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtPrintSupport import QPrintPreviewDialog, QPrintPreviewWidget

    seen: dict[str, Any] = {}

    def execute(dialog: QPrintPreviewDialog) -> int:
        preview = dialog.findChild(QPrintPreviewWidget)
        assert preview is not None
        preview.updatePreview()  # what showing it does: the sheet painted on the printer's pages
        seen.update(
            pages=preview.pageCount(),
            title=dialog.windowTitle(),
            paper=dialog.printer().pageLayout().pageSize().name(),
        )
        return 0

    monkeypatch.setattr(QPrintPreviewDialog, "exec", execute)
    window = window_of()
    window.query_box.set_text("kind:course")
    tab = window.current_tab()
    tab.view.selectionModel().clearSelection()
    n = tab.model.rowCount()
    sheet_options.update(group="By month")
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert seen["pages"] >= 2 and seen["paper"] == "A4"
    assert seen["title"] == f"Print preview — Offer for Whitfield & Crane (all {n} dates the query shows)"


def test_a_very_long_sheet_is_asked_about_first(
    qtbot: Any,
    window_of: Any,
    sheet_options: dict[str, Any],
    warnings: Boxes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(desk, "BIG_SHEET", 5)
    window = window_of()
    warnings.answers.append("Cancel")
    assert window.current_tab().offer("pdf") is None
    assert "would be about" in warnings[0] and "pages" in warnings[0]
    assert "what" not in sheet_options  # stopped before its dialog


# -- old data ------------------------------------------------------------------------------------------


def test_old_data_is_warned_about_before_an_offer(
    qtbot: Any, window_of: Any, warnings: Boxes, sheet_options: dict[str, Any]
) -> None:
    window = window_of(days_old=12)
    tab = window.current_tab()
    select(tab, [0])
    QApplication.clipboard().setText("before")
    warnings.answers.append("Cancel")
    assert tab.offer("copy") == 0
    assert QApplication.clipboard().text() == "before"  # nothing made
    assert "last confirmed by the service 12 days ago" in warnings[0]
    assert "more than the 7 days set in Preferences" in warnings[0]
    assert messages(window) == "No offer made: the catalogue's data is older than the limit"
    assert tab.offer("copy") == 1  # Continue this time
    assert "Prices and dates as of" in QApplication.clipboard().text()
    assert tab.offer("copy") == 1 and len(warnings) == 2  # asked once for this data


def test_the_limit_is_the_preference(
    qtbot: Any, window_of: Any, warnings: Boxes, sheet_options: dict[str, Any]
) -> None:
    window = window_of(days_old=12)
    window.settings.offer_max_age_days = 30
    select(window.current_tab(), [0])
    assert window.current_tab().offer("copy") == 1 and warnings == []


def test_fresh_data_is_not_warned_about(
    qtbot: Any, window_of: Any, warnings: Boxes, sheet_options: dict[str, Any]
) -> None:
    window = window_of(days_old=0.5)
    select(window.current_tab(), [0])
    assert window.current_tab().offer("copy") == 1 and warnings == []


def test_the_rows_context_menu_offers_the_same(
    qtbot: Any, window_of: Any, saved: dict[str, Any], sheet_options: dict[str, Any], tmp_path: Path
) -> None:
    window = window_of()
    tab = window.current_tab()
    menu = tab.rows_menu()
    actions = [a for a in menu.actions() if not a.isSeparator()]
    assert [a.text() for a in actions] == [
        "Offer sheet (PDF)…",
        "Print…",
        "Calendar file (.ics)…",
        "Spreadsheet (.xlsx)…",
        "Copy for email",
        "Copy rows as TSV",
    ]
    select(tab, [0, 1])
    actions[2].trigger()
    assert len(icalendar.Calendar.from_ical((tmp_path / saved["name"]).read_bytes()).walk("VEVENT")) == 2
    actions[5].trigger()
    assert "\t" in QApplication.clipboard().text() and not QApplication.clipboard().mimeData().hasHtml()
