"""A person looks down the Facets panel on each tab: every heading has values under it (or "+N
more", or the query's own clause on it); a facet none of the rows has a value for ("Roles",
"Situations", "Type" on some tabs) is not shown as an empty heading."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from tests.journeys.hands import click_tab, facet_rows, show_facets, type_query


def test_facets_show_no_empty_headings(start: Any, qtbot: Any) -> None:
    window = start().window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    show_facets(qtbot, window)
    model = window.facet_panel.model
    for kind, query in [(kind, "") for kind in window.tab_kinds()] + [(window.tab_kinds()[0], "dallas")]:
        click_tab(window, kind)
        if query:  # (a query that leaves few rows: most facets have no value among them)
            type_query(window, query)
        qtbot.waitUntil(lambda: "Preparing" not in window.facet_panel.heading.text(), timeout=5000)
        QApplication.processEvents()
        empty = [
            title
            for row, (title, values) in enumerate(facet_rows(window).items())
            if not values and not model.index(row, 1).data()
        ]
        assert not empty, (kind.label, empty)
        if query:
            assert "have no facets" not in window.facet_panel.heading.text()  # (they have; no values)
