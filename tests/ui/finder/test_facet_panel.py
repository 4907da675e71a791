"""The facet panel's rows: as tall as their names wrapped at the names' column, each row's height
worked out once for its content and width (counted, not timed: issue 40, a window's start laid
the same facets out several times, ~10 ``data`` calls a cell each time)."""

from __future__ import annotations

from typing import Any

import pytest

from catalogue_desktop.core.query.facets import Facet, FacetValue
from catalogue_desktop.core.records.kinds import Kind
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
