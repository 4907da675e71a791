"""A salesperson on the Dates tab asks for webinars in plain words ("cle webinars next 30 days
under $300", "cle webinars by okafor"): the Dates tab (it stays: on Dates "webinars" is the
webinars' dates) shows them, a
series' sessions among them (a session is a webinar: the spec's Series embeds its Webinar
records), and the Kind facet's "webinar" counts the same rows. Before, the sessions were left out,
Dates showed 0 and there was nothing to offer."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from catalogue_desktop.cli.find import find
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import (
    choose_facet,
    click_tab,
    facet_count,
    facet_rows,
    open_facets,
    type_query,
)


def _kinds_shown(tab: Any) -> list[str]:
    """The Kind column of each Dates row shown (Course, Webinar, Session), folded."""
    column = column_index(OCCASIONS, "kind")
    return [str(tab.model.index(r, column).data()).lower() for r in range(tab.model.rowCount())]


def _dates_found_by_find(session: Any, text: str) -> int:
    out = io.StringIO()
    with Store(session.store_file) as store:
        find(store, [text], ["offerings"], as_json=True, out=out, err=io.StringIO())
    counts = json.loads(out.getvalue())["counts"]
    return int(counts["offerings"] or 0)


@pytest.mark.parametrize("text", ["cle webinars next 30 days under $300", "cle webinars by okafor"])
def test_webinars_asked_for_on_dates_are_on_dates_with_the_series_sessions(start: Any, text: str) -> None:
    session = start()
    window = session.window
    window.show()
    tab = click_tab(window, OCCASIONS)
    type_query(window, text)
    # the kind word is the dates' kind: the tab stays, where the offers are made
    assert window.current_kind() is OCCASIONS
    assert "goes back to Dates" not in window.statusBar().currentMessage()
    kinds = _kinds_shown(tab)
    assert kinds and "session" in kinds and "course" not in kinds, kinds
    assert len(kinds) == _dates_found_by_find(session, text)  # find --kind dates agrees


def test_the_kind_facet_s_webinar_counts_what_its_click_shows(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    window.show()
    tab = open_facets(qtbot, session, OCCASIONS, "cle")
    webinars, sessions = facet_count(window, "Kind", "Webinar"), facet_count(window, "Kind", "Session")
    assert sessions and webinars >= sessions  # a session is a webinar: counted among them
    choose_facet(
        qtbot,
        session,
        "Kind",
        next(r.split("  ")[0].lstrip("✓✗ ") for r in facet_rows(window)["Kind"] if "webinar" in r.lower()),
    )
    kinds = _kinds_shown(tab)
    assert len(kinds) == webinars and "session" in kinds, kinds
    assert window.current_kind() is OCCASIONS
