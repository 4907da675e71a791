"""One word for a bookable date (issue 39, point 14): a person reads "date"/"Dates" everywhere in
the window — its widgets, menus, tooltips, tab titles, column headers, the Offers window, the
command line's help — never the code's "occasion" or "offering"; a tab's count has one form,
"Dates 98" (the rows it shows; the total in its tooltip); and `kind:dates` / `export dates` name
the Dates where people type."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QApplication, QMenu, QWidget

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, key, type_query

CODE_WORDS = re.compile(r"\b(occasions?|offerings?)\b", re.IGNORECASE)


def _texts_of_widget(widget: QWidget) -> list[str]:
    out = [widget.toolTip(), widget.statusTip(), widget.whatsThis(), widget.accessibleName()]
    out.append(widget.accessibleDescription())
    for name in ("text", "title", "placeholderText", "windowTitle"):
        getter = getattr(widget, name, None)
        if callable(getter):
            try:
                value = getter()
            except TypeError:
                continue
            if isinstance(value, str):
                out.append(value)
    if isinstance(widget, QAbstractItemView) and isinstance(widget.model(), QAbstractItemModel):
        model = widget.model()
        try:
            columns = model.columnCount(QModelIndex())
        except TypeError:  # (a list model's is private in PySide: one column)
            columns = 1
        out += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(columns)]
    return out


def _texts_of_actions(actions: list[QAction]) -> list[str]:
    out: list[str] = []
    for act in actions:
        out += [act.text(), act.toolTip(), act.statusTip(), act.whatsThis(), act.iconText()]
        menu = act.menu()
        if isinstance(menu, QMenu):
            menu.aboutToShow.emit()  # (menus filled when shown)
            out += [menu.title(), *_texts_of_actions(menu.actions())]
    return out


def _everything_shown(top: QWidget) -> dict[str, str]:
    """Every text a person can read in ``top`` and its children: text -> where it was seen."""
    seen: dict[str, str] = {}
    for widget in [top, *top.findChildren(QWidget)]:
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        for text in _texts_of_widget(widget) + _texts_of_actions(widget.actions()):
            if text:
                seen.setdefault(text, where)
    return seen


def _code_words(seen: dict[str, str]) -> dict[str, str]:
    return {text: where for text, where in seen.items() if CODE_WORDS.search(text)}


def test_the_window_says_dates_never_occasions_or_offerings(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    window.show()
    seen = _everything_shown(window)
    tabs = window.tab_widget
    for index in range(tabs.count()):  # every tab's title and tooltip, and the Dates tab's own words
        seen.setdefault(window.tab_bar.full_title(index), "tab title")
        seen.setdefault(tabs.tabToolTip(index), "tab tooltip")
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    seen |= _everything_shown(window)
    key(tab.view, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    offers = session.offer_log.window  # Go ▸ Offers
    assert offers is not None
    qtbot.waitUntil(offers.isVisible, timeout=5000)
    seen |= _everything_shown(offers)
    offers.close()
    assert len(seen) > 200, len(seen)  # (the walk found the window's words)
    assert not _code_words(seen), _code_words(seen)


def test_a_tab_title_counts_one_way(start: Any) -> None:
    window = start().window
    window.show()
    tab = click_tab(window, OCCASIONS)  # past dates hidden, none of them past: every row shown
    dates = window.tab_bar.full_title(window.tab_kinds().index(OCCASIONS))
    assert re.fullmatch(r"Dates \d[\d,]*", dates), dates  # "Dates 98", never "Dates 98 / 98"
    assert int(dates[6:].replace(",", "")) == tab.model.rowCount()
    type_query(window, "chicago")
    titles = [window.tab_bar.full_title(i) for i in range(window.tab_widget.count())]
    assert all(re.fullmatch(r"\w+ \d[\d,]*", t) for t in titles), titles
    tips = [window.tab_widget.tabToolTip(i) for i in range(window.tab_widget.count())]
    assert any(" of " in t for t in tips), tips  # (the total: in the tooltip)
    QApplication.processEvents()


def test_people_name_the_dates_dates_where_they_type(start: Any) -> None:
    window = start().window
    type_query(window, "kind:dates")
    assert window.current_kind() is OCCASIONS
    type_query(window, "kind:courses")
    assert window.current_kind() is Kind.COURSES
    helps = [
        subprocess.run(
            [sys.executable, "-m", "catalogue_desktop", *args, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for args in (["export"], ["find"], ["offers"])
    ]
    joined = " ".join(" ".join(h.split()) for h in helps)
    assert "dates (one row per course location" in joined, joined[:400]
    # (the old name, still accepted, and the JSON key scripts read are said as they are)
    read = joined.replace("'offerings' still works", "").replace('"occasion"', "")
    assert not CODE_WORDS.search(read), CODE_WORDS.findall(read)
