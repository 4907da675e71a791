"""Preferences as a user meets them: the webinar type labels and on-demand codes, the time zone
of dates, the currency; saved to the settings file and shown everywhere at once."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from PySide6.QtCore import QDateTime, QLocale, QSettings, Qt, QTimeZone
from PySide6.QtWidgets import QDialog

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.shell.preferences import Preferences

FG = Qt.ItemDataRole.ForegroundRole


@pytest.fixture
def session(make_session: Any, filled_cache: Any) -> Any:
    found = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    found.finder.indexer.finish_now()
    return found


def _edit(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[Preferences], None], accept: bool = True
) -> list[Preferences]:
    """Make Preferences' exec() apply ``change`` as the user would, then press OK (or Cancel)."""
    shown: list[Preferences] = []

    def exec_(dialog: Preferences) -> int:
        shown.append(dialog)
        change(dialog)
        return QDialog.DialogCode.Accepted if accept else QDialog.DialogCode.Rejected

    monkeypatch.setattr(Preferences, "exec", exec_)
    return shown


def _row_of_code(dialog: Preferences, code: str) -> int:
    return next(r for r in range(dialog.types.rowCount()) if dialog.types.item(r, 0).text() == code)


def _cells(tab: Any, key: str) -> dict[int, Any]:
    """record id -> (text, foreground) of one column for every row of a tab."""
    model, column = tab.model, column_index(tab.kind, key)
    return {
        model.record_id(r): (model.index(r, column).data(), model.index(r, 0).data(FG))
        for r in range(model.rowCount())
    }


def test_type_labels_show_in_table_detail_query_and_settings_file(
    session: Any, monkeypatch: pytest.MonkeyPatch, sample: Any
) -> None:
    window = session.window
    types = {w["webinarId"]: str(w["type"]) for w in json.loads(sample[Kind.WEBINARS])}

    def relabel(dialog: Preferences) -> None:
        assert {"1", "2", "3"} <= {dialog.types.item(r, 0).text() for r in range(dialog.types.rowCount())}
        dialog.types.item(_row_of_code(dialog, "3"), 1).setText("Recorded replay")

    shown = _edit(monkeypatch, relabel)
    window.menu_actions.preferences_action.trigger()
    assert len(shown) == 1
    tab = window.show_tab(Kind.WEBINARS)
    texts = _cells(tab, "type")
    threes = [i for i, code in types.items() if code == "3"]
    assert threes and all(texts[i][0] == "Recorded replay" for i in threes)
    assert {texts[i][0] for i, code in types.items() if code == "1"} == {"On demand"}
    # the detail pane of such a webinar says it too
    tab.view.selectRow(next(r for r in range(tab.model.rowCount()) if tab.model.record_id(r) == threes[0]))
    assert "Recorded replay" in _detail_text(tab)
    # the query language knows the new label
    window.query_box.set_text('type:"recorded replay"')
    assert not window.query_box.error.isVisibleTo(window)
    assert sorted(tab.model.record_id(r) for r in range(tab.model.rowCount())) == sorted(threes)
    # and it is in the settings file, for the next start
    assert _reread(session).vocabulary().type_labels["3"] == "Recorded replay"


def test_cancel_changes_nothing(session: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    window = session.window
    tab = window.show_tab(Kind.WEBINARS)
    before = _cells(tab, "type")
    _edit(monkeypatch, lambda d: d.types.item(_row_of_code(d, "1"), 1).setText("Nope"), accept=False)
    window.menu_actions.preferences_action.trigger()
    assert _cells(tab, "type") == before
    kept = _reread(session).vocabulary()
    assert kept is None or "Nope" not in kept.type_labels.values()


def _past(webinar: dict[str, Any], now: datetime) -> bool:
    when = webinar.get("endDate") or webinar.get("startDate")
    return bool(when) and datetime.fromisoformat(when.replace("Z", "+00:00")) < now


def test_on_demand_codes_are_never_past(session: Any, monkeypatch: pytest.MonkeyPatch, sample: Any) -> None:
    window = session.window
    tab = window.show_tab(Kind.WEBINARS)
    webinars = json.loads(sample[Kind.WEBINARS])
    now = datetime.now(UTC)
    greyed = {i for i, (_, fg) in _cells(tab, "start").items() if fg is not None}
    assert greyed == {w["webinarId"] for w in webinars if w["type"] != 1 and _past(w, now)}
    recorded_past = {w["webinarId"] for w in webinars if w["type"] == 1 and _past(w, now)}
    assert recorded_past, "the sample has on-demand webinars recorded in the past"

    def one_is_not_on_demand(dialog: Preferences) -> None:
        assert dialog.types.item(_row_of_code(dialog, "1"), 2).checkState() == Qt.CheckState.Checked
        dialog.types.item(_row_of_code(dialog, "1"), 2).setCheckState(Qt.CheckState.Unchecked)

    _edit(monkeypatch, one_is_not_on_demand)
    window.menu_actions.preferences_action.trigger()
    greyed = {i for i, (_, fg) in _cells(tab, "start").items() if fg is not None}
    assert greyed == {w["webinarId"] for w in webinars if _past(w, now)}
    assert "1" not in _reread(session).vocabulary().on_demand


def test_dates_in_the_events_offset_or_local_time(session: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    window = session.window
    tab = window.show_tab(Kind.COURSES)
    event_texts = {i: t for i, (t, _) in _cells(tab, "next").items() if t}
    assert event_texts and all(" UTC" in t for t in event_texts.values())  # "3/9/27 8:30 AM UTC−05:00"

    _edit(monkeypatch, lambda d: d.local_zone.setChecked(True))
    window.menu_actions.preferences_action.trigger()
    assert session.settings.event_zones is False and _reread(session).event_zones is False
    locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    local_texts = _cells(tab, "next")
    for record_id, event in event_texts.items():
        stamp, _sep, label = event.rpartition(" UTC")
        sign = -1 if label[0] in "−-" else 1
        hours, minutes = (int(p) for p in label[1:].split(":"))
        moment = QDateTime.fromString(stamp, "M/d/yy h:mm AP")
        assert moment.isValid(), stamp
        moment = moment.addYears(100) if moment.date().year() < 2000 else moment
        moment.setTimeZone(QTimeZone.fromSecondsAheadOfUtc(sign * (hours * 3600 + minutes * 60)))
        local = QDateTime.fromMSecsSinceEpoch(moment.toMSecsSinceEpoch())
        expected = locale.toString(local, QLocale.FormatType.ShortFormat).replace("\u202f", " ")
        shown, _sep, zone = local_texts[record_id][0].partition(" UTC")
        assert shown == expected, (record_id, event)
        assert zone, "local time is labelled too"


def _reread(session: Any) -> Settings:
    """The settings file read afresh, as the next start reads it."""
    return Settings(QSettings(session.settings.q.fileName(), QSettings.Format.IniFormat))


def _detail_text(tab: Any) -> str:
    from PySide6.QtWidgets import QLabel

    page = tab.detail.current_page()
    return "\n".join(w.text() for w in page.findChildren(QLabel))
