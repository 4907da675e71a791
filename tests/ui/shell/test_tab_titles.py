"""The tab titles' fit (``ui.shell.tab_titles``): done again when a title or the tabs change, not
when the same count is said again (the loader says it at every page of rows read)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QTabWidget, QWidget

from catalogue_desktop.ui.shell.tab_titles import CountTabBar, CountTabs, show_count

NAMES = ["Webinars", "Series", "Courses", "Certificates", "Experts", "Topics", "Roles", "Situations"]


def _tabs(qtbot: Any, width: int) -> tuple[QTabWidget, CountTabBar, list[int]]:
    """Eight tabs ``width`` px wide (too narrow for their whole titles), and a list counting the
    fits: each measures every title."""
    tabs = CountTabs()
    bar = tabs.count_bar
    for name in NAMES:
        tabs.addTab(QWidget(), name)
    qtbot.addWidget(tabs)
    tabs.resize(width, 300)
    tabs.show()
    qtbot.waitExposed(tabs)
    fits: list[int] = []
    measure = bar._fitted_texts

    def counted() -> list[str]:
        fits.append(1)
        return measure()

    bar._fitted_texts = counted  # type: ignore[method-assign]
    return tabs, bar, fits


def test_the_same_count_said_again_measures_no_title(qtbot: Any) -> None:
    tabs, bar, fits = _tabs(qtbot, 420)
    for index, name in enumerate(NAMES):
        show_count(tabs, index, name, 10_000 + index, None)
    assert len(fits) == len(NAMES)
    cut = [bar.tabText(i) for i in range(bar.count())]
    assert any("…" in text for text in cut), cut  # (narrow: the names are cut, never the counts)
    for _pass in range(20):  # a page of rows read: every count said again, unchanged
        for index, name in enumerate(NAMES):
            show_count(tabs, index, name, 10_000 + index, None)
    assert len(fits) == len(NAMES)
    assert [bar.tabText(i) for i in range(bar.count())] == cut
    assert bar.full_title(0) == f"Webinars {QLocale().toString(10_000)}"


def test_a_changed_count_or_another_tab_fits_the_titles_again(qtbot: Any) -> None:
    tabs, bar, fits = _tabs(qtbot, 420)
    for index, name in enumerate(NAMES):
        show_count(tabs, index, name, 100, None)
    done = len(fits)
    show_count(tabs, 0, "Webinars", 100, 12)  # a query's count
    assert len(fits) == done + 1 and bar.full_title(0) == "Webinars 12"
    tabs.addTab(QWidget(), "Dates")  # a tab added: the same title said again fits them anew
    show_count(tabs, 0, "Webinars", 100, 12)
    assert len(fits) == done + 2
    tabs.resize(2000, 300)  # room for every whole title
    qtbot.waitUntil(lambda: bar.tabText(0) == "Webinars 12")
    assert [bar.tabText(i) for i in range(1, len(NAMES))] == [f"{n} 100" for n in NAMES[1:]]


def test_a_query_s_new_counts_measure_the_names_once_and_cut_them_as_a_fresh_fit(qtbot: Any) -> None:
    """Counted: a tab is measured with its widest count, so the eight new counts of a query (each
    a fit) measure the names once; the titles are those a fit measured anew gives."""
    tabs, bar, _fits = _tabs(qtbot, 420)
    for index, name in enumerate(NAMES):
        show_count(tabs, index, name, 10_000 + index, None)
    measures: list[int] = []
    measure = bar._measure

    def counted(*args: Any) -> list[str]:
        measures.append(1)
        return measure(*args)

    bar._measure = counted  # type: ignore[method-assign]
    for query in range(3):  # three queries, each a new count on every tab
        for index, name in enumerate(NAMES):
            show_count(tabs, index, name, 10_000 + index, 7 * index + query)
    assert len(measures) == 0  # (the same names, widest counts and room as before the queries)
    shown = [bar.tabText(i) for i in range(bar.count())]
    assert any("…" in text for text in shown), shown  # (narrow: names are cut, never the counts)
    assert shown[3].endswith(f" {QLocale().toString(21 + 2)}"), shown
    bar.fit(anew=True)
    assert len(measures) == 1
    assert [bar.tabText(i) for i in range(bar.count())] == shown
    show_count(tabs, 0, "Webinars", 10_000, None)  # the query cleared on one tab: still its names
    assert len(measures) == 1
    show_count(tabs, 0, "Webinars", None, None)  # no count at all: measured again
    assert len(measures) == 2
