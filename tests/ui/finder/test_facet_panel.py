"""The facet panel's rows: as tall as their names wrapped at the names' column, each row's height
worked out once for its content and width (counted, not timed: issue 40, a window's start laid
the same facets out several times, ~10 ``data`` calls a cell each time), and laid out once when
facets replace none (issue 40: three times, at three widths of the names' column, as the counts'
column was fitted and the scroll bar appeared)."""

from __future__ import annotations

from typing import Any

import pytest

from catalogue_desktop.core.query.facets import Facet, FacetValue
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.finder import facet_panel
from catalogue_desktop.ui.finder.facet_panel import FacetModel, FacetPanel

LONG = "A very long topic name that has to wrap onto several lines in a narrow panel"


def _facets(first: str) -> list[Facet]:
    topics = (FacetValue(first, '="x"', 12), *(FacetValue(f"Topic {i}", f'="t{i}"', i) for i in range(8)))
    cities = tuple(FacetValue(f"City {i}", f'="c{i}"', i + 1) for i in range(6))
    return [Facet("topic", "Topic", topics), Facet("city", "City", cities)]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times the view asks the facet model for data (any role)."""
    calls = {"data": 0}
    data = FacetModel.data

    def counting(self: FacetModel, *args: Any) -> Any:
        calls["data"] += 1
        return data(self, *args)

    monkeypatch.setattr(FacetModel, "data", counting)
    return calls


def _panel(qtbot: Any, width: int) -> FacetPanel:
    panel = FacetPanel()
    qtbot.addWidget(panel)
    panel.resize(width, 600)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _height(panel: FacetPanel, row: int) -> int:
    model = panel.model
    return panel.tree.visualRect(model.index(row, 0, model.index(0, 0))).height()


def test_laying_the_same_facets_out_again_asks_the_model_nothing(qtbot: Any, counted: dict[str, int]) -> None:
    panel = _panel(qtbot, 220)
    panel.show_facets(Kind.WEBINARS, _facets(LONG), None)
    panel.tree.doItemsLayout()
    assert _height(panel, 0) > _height(panel, 1)  # the long name wraps: its row is taller
    counted["data"] = 0
    for _ in range(3):  # what the tree does at a reset, a count column fitted, a column resized
        panel.tree.doItemsLayout()
    assert counted["data"] == 0


def test_a_row_is_as_tall_as_its_name_at_the_width_and_content_shown(qtbot: Any) -> None:
    panel = _panel(qtbot, 220)
    panel.show_facets(Kind.WEBINARS, _facets(LONG), None)
    narrow = _height(panel, 0)
    short = _height(panel, 1)
    panel.resize(600, 600)
    qtbot.waitUntil(lambda: _height(panel, 0) < narrow)  # wider: fewer lines
    panel.resize(220, 600)
    qtbot.waitUntil(lambda: _height(panel, 0) == narrow)
    panel.show_facets(Kind.WEBINARS, _facets("Tax"), None)  # the same place, a short name now
    panel.tree.doItemsLayout()
    assert _height(panel, 0) == short < narrow


def test_facets_shown_again_with_the_same_names_lay_out_without_measuring_them(
    qtbot: Any, counted: dict[str, int]
) -> None:
    """After a query the facets come back with other counts and mostly the same names: each row
    is asked its text and font (2 ``data`` calls), not measured again (~10)."""
    panel = _panel(qtbot, 220)
    panel.show_facets(Kind.WEBINARS, _facets(LONG), None)
    panel.tree.doItemsLayout()
    tall = _height(panel, 0)
    counted["data"] = 0
    panel.show_facets(Kind.WEBINARS, _facets(LONG), None)  # (the same again: the tree reset)
    panel.tree.doItemsLayout()
    cells = 2 * sum(1 + len(f.values) for f in panel.model.facets)
    assert counted["data"] <= 2 * cells, (counted["data"], cells)
    assert _height(panel, 0) == tall


def _many() -> list[Facet]:
    """Facets with more rows than a 400 px panel holds (a scroll bar), counts up to 12,345."""
    return [
        Facet(
            f"f{i}",
            f"Facet {i}",
            tuple(FacetValue(f"{LONG} {j}", f'="{j}"', 12345 // (j + 1)) for j in range(10)),
        )
        for i in range(6)
    ]


def test_facets_replacing_none_are_laid_out_once_at_the_width_they_keep(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The counts' column is as wide as its widest count and the scroll bar is there before the
    rows are laid out: one layout of the rows (before: three, each at another width of the names'
    column, every row measured at each), the counts shown whole, the scroll bar as needed after."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    layouts: list[tuple[int, bool]] = []  # (the names' width, scroll bar shown) at each layout of rows
    real = facet_panel._FacetTree.doItemsLayout

    def counting(tree: Any) -> None:
        real(tree)
        if tree.model().rowCount():
            layouts.append((tree.header().sectionSize(0), tree.verticalScrollBar().isVisible()))

    monkeypatch.setattr(facet_panel._FacetTree, "doItemsLayout", counting)
    panel = _panel(qtbot, 220)
    panel.resize(220, 400)
    panel.show_facets(Kind.WEBINARS, [], "Preparing the finder…")  # (as a window's start shows it)
    QApplication.processEvents()
    layouts.clear()
    panel.show_facets(Kind.WEBINARS, _many(), None)
    qtbot.waitUntil(lambda: bool(layouts))
    QApplication.processEvents()
    tree = panel.tree
    assert len(layouts) == 1, layouts
    assert layouts[0] == (tree.header().sectionSize(0), True)  # (the width the names keep)
    assert tree.verticalScrollBar().isVisible()
    assert tree.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded
    assert tree.header().sectionSize(1) >= tree.sizeHintForColumn(1)  # "12,345" whole


def test_the_style_is_asked_a_one_line_hint_once_a_font(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each new row's height is its name wrapped at the column's width, at least a line: the
    style's hint of a cell (~10 ``data`` calls and a text layout) is asked once per font and for
    empty cells, not once per row (issue 40: ~0.2 ms a row, 88 rows in the first facets shown)."""
    from PySide6.QtWidgets import QStyledItemDelegate

    asked = {"style": 0}
    real = QStyledItemDelegate.sizeHint

    def counting(delegate: Any, option: Any, index: Any) -> Any:
        asked["style"] += 1
        return real(delegate, option, index)

    monkeypatch.setattr(QStyledItemDelegate, "sizeHint", counting)
    panel = _panel(qtbot, 220)
    panel.show_facets(Kind.WEBINARS, _many(), None)
    panel.tree.doItemsLayout()
    assert asked["style"] <= 4, asked  # a value's font, a facet's bold one, the facets' empty counts
    assert _height(panel, 0) > 2 * panel.tree.fontMetrics().height()  # (its long name wrapped)


def test_a_bigger_application_font_makes_the_rows_taller(qtbot: Any) -> None:
    """The kept hints go with the font they were measured in (a guard: the counts' column widens
    with the font too, so the names' width changes and their hints are worked out anew anyway)."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    panel = _panel(qtbot, 220)
    panel.show_facets(Kind.WEBINARS, _facets(LONG), None)
    short, tall = _height(panel, 1), _height(panel, 0)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.font()
    bigger = QFont(before)
    bigger.setPointSizeF(before.pointSizeF() * 2)
    try:
        app.setFont(bigger)  # (the widgets take it on the next loop pass)
        qtbot.waitUntil(lambda: panel.tree.font().pointSizeF() == bigger.pointSizeF())
        panel.tree.doItemsLayout()
        assert _height(panel, 1) > short
        assert _height(panel, 0) > tall
        assert panel.tree.header().sectionSize(1) >= panel.tree.sizeHintForColumn(1)  # counts whole
    finally:
        app.setFont(before)
