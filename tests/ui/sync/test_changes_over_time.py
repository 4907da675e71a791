"""The Changes panel as a view over the history: the last refresh, the last 7 or 30 days, a range
of days, each narrowed by the query when asked."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate

from catalogue_desktop.core.records.kinds import Kind
from tests.ui.conftest import FILE_NAME


def _stamp(days_ago: int) -> str:
    return (datetime.now(UTC) - timedelta(days=days_ago)).isoformat(timespec="seconds").replace("+00:00", "Z")


def test_the_changes_panel_shows_a_period_narrowed_by_the_query(
    make_session: Any, filled_cache: Path, sample: dict[Kind, bytes]
) -> None:
    from catalogue_desktop.core.sync.ingest import ingest

    courses = json.loads(sample[Kind.COURSES])
    dearer, moved = courses[0], courses[1]
    dearer["locations"][0]["fee"] += 100  # 20 days ago
    assert ingest(
        str(filled_cache / FILE_NAME), "courses", json.dumps(courses).encode(), None, None, _stamp(20)
    )
    moved["locations"][0]["city"] = "Austin"  # 2 days ago
    assert ingest(
        str(filled_cache / FILE_NAME), "courses", json.dumps(courses).encode(), None, None, _stamp(2)
    )

    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    session.finder.indexer.finish_now()
    window = session.window
    window.menu_actions.changes_action.trigger()
    view = window.changes
    bar = view.period
    assert bar.isVisibleTo(window)

    def shown() -> list[int]:
        found = sorted(r for r in (dearer["courseId"], moved["courseId"]) if view.item_for(Kind.COURSES, r))
        assert len(view.entries(Kind.COURSES)) == len(found)  # nothing else
        return found

    assert shown() == [moved["courseId"]]  # the last refresh
    assert view.summary.text() == "The last refresh changed 1 records."
    bar.period.setCurrentIndex(bar.period.findData("30"))
    assert shown() == sorted([dearer["courseId"], moved["courseId"]])
    assert view.summary.text() == "2 records changed in the last 30 days."
    assert "fee" in view.entries(Kind.COURSES)[0][1] or "fee" in view.entries(Kind.COURSES)[1][1]
    bar.period.setCurrentIndex(bar.period.findData("7"))
    assert shown() == [moved["courseId"]]
    bar.period.setCurrentIndex(bar.period.findData("range"))
    assert bar.first.isVisibleTo(window) and bar.last.isVisibleTo(window)
    today = QDate.currentDate()
    bar.first.setDate(today.addDays(-25))
    bar.last.setDate(today.addDays(-10))
    assert shown() == [dearer["courseId"]]

    # narrowed by the query
    bar.period.setCurrentIndex(bar.period.findData("30"))
    window.query_box.set_text("city:austin")
    bar.narrow.setChecked(True)
    assert shown() == [moved["courseId"]]
    assert view.summary.text() == "1 records changed in the last 30 days that the query finds."
    window.query_box.set_text(f"id:{dearer['courseId']}")  # the panel follows the query
    assert shown() == [dearer["courseId"]]


def test_a_period_s_events_merge_into_one_entry_per_record() -> None:
    from catalogue_desktop.core.cache.record_history import Event
    from catalogue_desktop.ui.sync.changes_period import merge, narrowed

    events = [
        (1, Event("t1", "added")),
        (1, Event("t2", "changed", {"fee": [100, 120]})),  # added in the period: just "added"
        (2, Event("t1", "changed", {"fee": [100, 120]})),
        (2, Event("t2", "changed", {"fee": [120, 150], "title": ["A", "B"]})),
        (3, Event("t1", "changed", {"fee": [100, 120]})),
        (3, Event("t2", "changed", {"fee": [120, 100]})),  # back as it was: no change
        (4, Event("t1", "removed")),
        (5, Event("t1", "added")),
        (5, Event("t2", "removed")),  # came and went within the period: nothing to show
    ]
    summary = merge(events)
    assert summary == {
        "added": [1],
        "removed": [4],
        "changed": [{"id": 2, "fields": {"fee": [100, 150], "title": ["A", "B"]}}],
    }
    assert narrowed(summary, {2, 4}) == {"added": [], "removed": [], "changed": summary["changed"]}
    assert narrowed(summary, None) is summary
