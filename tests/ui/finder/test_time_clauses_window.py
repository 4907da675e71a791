"""Time clauses in the window: the finder's tables carry the store's history (the indexer reads
it), so ``changed:fee`` typed in the query box shows the courses whose fee changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from catalogue_desktop.core.records.kinds import Kind
from tests.ui.conftest import FILE_NAME, POPUP_NOISE


@pytest.fixture
def changed_cache(filled_cache: Path, sample: dict[Kind, bytes]) -> dict[str, Any]:
    """The demo sample, then a second version of the courses: the first course's first location
    dearer, the second course moved to Austin (both written as history)."""
    from catalogue_desktop.core.sync.ingest import ingest

    courses = json.loads(sample[Kind.COURSES])
    courses[0]["locations"][0]["fee"] += 100
    courses[1]["locations"][0]["city"] = "Austin"
    gone = courses.pop(2)
    report = ingest(
        str(filled_cache / FILE_NAME),
        "courses",
        json.dumps(courses).encode(),
        None,
        None,
        "2026-11-20T09:00:00Z",
    )
    assert report.status == "updated", report
    return {"dearer": courses[0]["courseId"], "moved": courses[1]["courseId"], "gone": gone}


@POPUP_NOISE
def test_typed_time_clauses_show_what_changed(
    make_session: Any, changed_cache: dict[str, Any], qtbot: Any
) -> None:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    session.finder.indexer.finish_now()
    window = session.window
    tab = window.show_tab(Kind.COURSES)
    box = window.query_box
    box.edit.setFocus()
    QTest.keyClicks(box.edit, "changed:fee")
    QTest.keyClick(box.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=3000)
    assert tab.model.record_id(0) == changed_cache["dearer"]
    box.set_text("changed:2026-11-20")
    assert sorted(tab.model.record_id(r) for r in range(tab.model.rowCount())) == sorted(
        [changed_cache["dearer"], changed_cache["moved"]]
    )
    box.set_text("changed:city@2026-11")
    assert [tab.model.record_id(r) for r in range(tab.model.rowCount())] == [changed_cache["moved"]]
    box.set_text("changed:fee@2026-10")
    assert tab.model.rowCount() == 0 and not box.error.isVisibleTo(window)
    box.set_text("changed:feee")
    assert "neither a field nor a date" in box.error.text()


def test_a_removed_query_names_the_withdrawn_records_with_their_day(
    make_session: Any, changed_cache: dict[str, Any]
) -> None:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    session.finder.indexer.finish_now()
    window = session.window
    tab = window.show_tab(Kind.COURSES)
    gone = changed_cache["gone"]
    window.query_box.set_text("removed:2026-11")
    assert tab.model.rowCount() == 0  # never mixed into the catalogue's rows
    assert tab.model.note.startswith("1 withdrawn courses match")
    assert f"{gone['courseId']}  {gone['title']} — withdrawn 20 Nov 2026" in tab.model.note
    window.query_box.set_text("removed:2026-10")
    assert tab.model.note == "No courses withdrawn that match."
    window.query_box.set_text("")
    assert gone["courseId"] not in [tab.model.record_id(r) for r in range(tab.model.rowCount())]
    webinars = window.show_tab(Kind.WEBINARS)
    window.query_box.set_text("removed:2026-11")
    assert webinars.model.rowCount() == 0 and webinars.model.note == "No webinars withdrawn that match."
