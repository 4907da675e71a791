"""What offers remember as a user meets it: the fees' currency asked once (then shown everywhere
and in Preferences), the save dialogs' folder and proposed file name, the sheet's paper and
grouping, the default title "Offer for …", and the letterhead from Preferences ▸ Offers printed
on the sheet (read back from the PDF)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdf
import pytest

from catalogue_desktop.cli import remembered as user_settings
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.offers.sheet import Letterhead
from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.offer_settings import OfferSettings
from catalogue_desktop.ui.offers.preferences_page import OffersPage
from tests.ui.offers.test_offers_window import select, sheet_options

__all__ = ["sheet_options"]  # (the fixture, shared)

FEE = column_index(OCCASIONS, "fee")


def test_the_currency_is_asked_once_and_remembered(
    qtbot: Any,
    window_of: Any,
    currency_asked: list[str],
    _private_settings_and_cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    sheet_options: dict[str, Any],
) -> None:
    window = window_of()
    assert window.formatter.currency is None and window.settings.currency is None
    tab = window.current_tab()
    select(tab, [0])
    assert tab.offer("copy") == 1
    assert len(currency_asked) == 1 and "which currency" in currency_asked[0].lower()
    assert window.settings.currency == "USD" and window.formatter.currency == "USD"
    assert "USD\u00a0" in tab.model.index(0, FEE).data()  # the window shows it too
    assert tab.offer("copy") == 1 and len(currency_asked) == 1  # not asked again
    # the command line reads it from the same file, without Qt
    monkeypatch.setenv("XDG_CONFIG_HOME", str(_private_settings_and_cache))
    assert user_settings.currency() == "USD"


def test_save_dialogs_start_in_the_last_folder_and_the_sheet_remembers_its_options(
    qtbot: Any, window_of: Any, saved: dict[str, Any], sheet_options: dict[str, Any], tmp_path: Path
) -> None:
    window = window_of()
    tab = window.current_tab()
    select(tab, [0, 1])
    remembered = OfferSettings(window.settings)
    first = Path(remembered.folder)
    sheet_options.update(paper="Letter", group="By month", title="Offer for Acme")
    elsewhere = tmp_path / "offers for acme"
    elsewhere.mkdir()
    saved["into"] = elsewhere
    assert tab.offer("pdf") is not None
    assert saved["folder"] == first  # the documents folder, the first time
    assert sheet_options["default title"] == "Offer for "  # the customer's name typed after it
    assert saved["name"].startswith("Offer for Acme (") and saved["name"].endswith(").pdf")
    assert (elsewhere / saved["name"]).is_file()
    assert (remembered.paper, remembered.group) == ("Letter", "month")
    # the next time: the folder last used, the paper and grouping chosen
    seen: dict[str, Any] = {}
    from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog

    dialog = SheetDialog(tab, "2 occasions", "Save PDF…", remembered)
    seen.update(paper=dialog.paper.currentText(), group=dialog.group.currentData())
    dialog.deleteLater()
    assert seen == {"paper": "Letter", "group": "month"}
    assert tab.offer("ics") is not None
    assert saved["folder"] == elsewhere and saved["name"].endswith(".ics")


def test_the_letterhead_from_preferences_heads_the_sheet(
    qtbot: Any, window_of: Any, saved: dict[str, Any], sheet_options: dict[str, Any], tmp_path: Path
) -> None:
    window = window_of()
    page = OffersPage(window.settings)
    qtbot.addWidget(page)
    for key, text in (
        ("name", "Jane Seller"),
        ("company", "Whitfield Training"),
        ("email", "jane@example.com"),
    ):
        qtbot.keyClicks(page.fields[key], text)
    page.logo.setText(str(tmp_path / "missing.png"))  # not a file: left out
    page.save()
    assert OfferSettings(window.settings).letterhead() == Letterhead(
        "Jane Seller", "Whitfield Training", "jane@example.com", "", ""
    )
    tab = window.current_tab()
    select(tab, [0])
    assert tab.offer("pdf") is not None
    text = pypdf.PdfReader(tmp_path / saved["name"]).pages[0].extract_text().splitlines()
    assert [" ".join(line.split()) for line in text[:3]] == [
        "Whitfield Training",
        "Jane Seller",
        "jane@example.com",
    ]


def test_the_windows_calendar_gives_a_course_an_event_per_day_at_its_schedule(
    qtbot: Any,
    window_of: Any,
    saved: dict[str, Any],
    sheet_options: dict[str, Any],
    sample: dict[Any, bytes],
    tmp_path: Path,
) -> None:
    import json
    from datetime import datetime, time, timedelta

    import icalendar

    from catalogue_desktop.core.records.kinds import Kind

    window = window_of()
    window.query_box.set_text("city:chicago starts:2027-02")
    tab = window.current_tab()
    assert tab.model.rowCount() == 1
    select(tab, [0])
    assert tab.offer("ics") is not None
    course = next(c for c in json.loads(sample[Kind.COURSES]) if c["courseId"] == 6101)
    location = next(loc for loc in course["locations"] if loc["city"] == "Chicago")
    start = datetime.fromisoformat(location["startDate"])
    events = icalendar.Calendar.from_ical((tmp_path / saved["name"]).read_bytes()).walk("VEVENT")
    assert len(events) == 2 and "Wrote 2 events of 1 selected date" in window.statusBar().currentMessage()
    for n, event in enumerate(events, 1):
        day = [s for s in course["schedule"] if s["day"] == n]
        on = start.date() + timedelta(days=n - 1)
        first = datetime.combine(on, min(time.fromisoformat(s["startTime"]) for s in day), start.tzinfo)
        last = datetime.combine(on, max(time.fromisoformat(s["endTime"]) for s in day), start.tzinfo)
        assert (event.decoded("DTSTART"), event.decoded("DTEND")) == (first, last)
        assert str(event["SUMMARY"]) == f"{course['title']} (day {n} of 2)"


def test_a_logo_that_is_not_a_small_regular_file_is_left_out_with_a_message(
    qtbot: Any, window_of: Any, saved: dict[str, Any], sheet_options: dict[str, Any], tmp_path: Path
) -> None:
    """A logo path set by hand in the settings file: a 6 MB file, or ``/dev/zero`` (read for
    ever: 14.9 GB in a minute), is left out of the sheet, and the status line says why."""
    window = window_of()
    tab = window.current_tab()
    said: list[str] = []
    tab.message.connect(said.append)
    big = tmp_path / "big.png"
    with big.open("wb") as out:
        out.truncate(6 * 1024 * 1024)
    window.settings.q.setValue("offers/seller_name", "Jane Seller")
    for logo, words in ((str(big), "is 6.0 MB, more than 5 MB"), ("/dev/zero", "is not a regular file")):
        window.settings.q.setValue("offers/seller_logo", logo)
        said.clear()
        select(tab, [0])
        assert tab.offer("pdf") is not None
        assert any(f"the letterhead's logo {logo} {words}" in text for text in said), said
        assert said[-1].startswith("Wrote the offer sheet of 1 selected date")
        text = pypdf.PdfReader(tmp_path / saved["name"]).pages[0].extract_text()
        assert "Jane Seller" in " ".join(text.split())
    assert OfferSettings(window.settings).letterhead().logo == ""
