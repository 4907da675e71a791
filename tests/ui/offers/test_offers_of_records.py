# ruff: noqa: F811  (pytest fixtures imported from the offers window tests, then asked for by name)
"""Offers of whole records, as a seller makes them: a series (or courses) selected on its own tab,
then File ▸ Offer; what is offered is every upcoming occasion of them, worked out here from the
demo sample's JSON and read back from the PDF (pypdf) and the clipboard."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pypdf
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from tests.ui.offers.test_offers_window import (  # noqa: F401  (fixtures)
    currency_asked,
    messages,
    saved,
    select,
    sheet_options,
    window_of,
)

PDF, COPY = 0, 4  # File ▸ Offer ▸ Offer sheet (PDF)… and ▸ Copy for email


def _upcoming_sessions(sample: dict[Kind, bytes], series_id: int) -> list[dict[str, Any]]:
    webinars = {w["webinarId"]: w for w in json.loads(sample[Kind.WEBINARS])}
    series = next(s for s in json.loads(sample[Kind.SERIES]) if s["seriesId"] == series_id)
    now = datetime.now(UTC)
    return [
        webinars[s["webinarId"]]
        for s in series["sessions"]
        if webinars[s["webinarId"]]["type"] == 1
        or datetime.fromisoformat(webinars[s["webinarId"]]["endDate"]) >= now
    ]


def _select_records(window: Any, kind: Kind, ids: list[int]) -> Any:
    tab = window.show_tab(kind)
    select(tab, [tab.model.view_row_of(i) for i in ids])
    assert sorted(tab.selected_ids()) == sorted(ids)
    return tab


def test_a_series_selected_on_its_tab_is_offered_whole(
    qtbot: Any,
    window_of: Any,
    saved: dict[str, Any],
    sheet_options: dict[str, Any],
    sample: dict[Kind, bytes],
    tmp_path: Path,
) -> None:
    window = window_of()
    series = next(s for s in json.loads(sample[Kind.SERIES]) if s["seriesId"] == 802)
    sessions = _upcoming_sessions(sample, 802)
    _select_records(window, Kind.SERIES, [802])
    window.menu_actions.offer_actions[PDF].trigger()
    assert window.current_kind() is Kind.SERIES  # the seller stays where they chose
    n = len(sessions)
    assert sheet_options["what"] == f"An offer sheet of {n} upcoming dates of the 1 selected series."
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / saved["name"]).pages)
    packed = "".join(text.split())
    assert "".join(series["title"].split()) in packed
    for webinar in sessions:
        assert "".join(webinar["title"].split()) in packed
    assert f"{n}sessions" in packed  # one item: the whole series
    assert messages(window).startswith(
        f"Wrote the offer sheet of {n} upcoming dates of the 1 selected series"
    )


def test_selected_courses_are_offered_with_every_upcoming_location(
    qtbot: Any, window_of: Any, sample: dict[Kind, bytes], sheet_options: dict[str, Any]
) -> None:
    window = window_of()
    window.formatter.set_currency("USD")
    courses = {c["courseId"]: c for c in json.loads(sample[Kind.COURSES])}
    chosen = [6102, 6104]
    now = datetime.now(UTC)
    expected = [
        (courses[i]["title"], loc["city"])
        for i in chosen
        for loc in courses[i]["locations"]
        if datetime.fromisoformat(loc["endDate"]) >= now
    ]
    _select_records(window, Kind.COURSES, chosen)
    window.menu_actions.offer_actions[COPY].trigger()
    lines = QApplication.clipboard().text().splitlines()[2:-2]  # (after the title the dialog asked)
    assert len(lines) == len(expected)
    for title, city in expected:
        assert any(line.startswith(title) and city in line for line in lines), (title, city, lines)
    assert messages(window) == (
        f"Copied {len(expected)} upcoming dates of the 2 selected courses for an e-mail (text and table)"
    )


def test_with_nothing_selected_on_a_records_tab_the_dates_tab_is_offered(
    qtbot: Any, window_of: Any, sheet_options: dict[str, Any]
) -> None:
    window = window_of()
    window.formatter.set_currency("USD")
    tab = window.show_tab(Kind.SERIES)
    tab.view.selectionModel().clearSelection()
    window.menu_actions.offer_actions[COPY].trigger()
    assert window.current_kind() is not Kind.SERIES  # the Dates tab, shown
    assert messages(window).startswith("Copied all ")
