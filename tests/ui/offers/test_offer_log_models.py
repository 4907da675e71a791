"""The Offers window's item models, checked by pytest-qt's model tester (Qt's QAbstractItemModelTester)
empty, filled from a real offer log (a real store, checked against the demo catalogue) and
refilled; and what their cells say."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.offers.logged import Written
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.offers.offer_log_model import ID_ROLE, ItemsModel, OffersModel

NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)


def _log(store: Store) -> checking.Checked:
    found = checking.now_occasions(store, NOW)
    for title, ids in (
        ("Offer for Acme", ["course:6107@7114", "course:6104@7108"]),
        ("Offer for \x1b[31mGlobex\n", ["course:6107@7115"]),
    ):
        logged.remember(
            store,
            title=title,
            items=[found[i] for i in ids],
            written=[Written("ics", "/x.ics")],
            currency="USD",
        )
    changed = dict(found)
    changed.pop("course:6104@7108")  # withdrawn
    return checking.check(store, NOW, catalogue=lambda: changed)


def test_offers_model_passes_the_model_tester(qtmodeltester: Any, qapp: Any, filled_cache: Path) -> None:
    model = OffersModel(Formatter())
    qtmodeltester.check(model)  # empty
    with Store(filled_cache / "catalogue.sqlite3") as store:
        checked = _log(store)
    model.set_offers(checked.offers)
    qtmodeltester.check(model)
    assert model.rowCount() == 2 and model.columnCount() == 7
    cells = [[model.index(r, c).data() for c in range(7)] for r in range(2)]
    assert cells[0][0] == "␛[31mGlobex "  # (controls shown, not obeyed; "Offer for " not shown)
    assert cells[0][1] == "Federal Tax Institute" and cells[0][3:] == ["1", "USD 995", "", "Current"]
    assert cells[1][0] == "Acme" and cells[1][1] == "Federal Tax Institute + 1 more"
    assert cells[1][3:] == ["2", "USD 1,690", "", "Withdrawn"]
    assert model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole).splitlines()[0] == "Offer for Acme"
    assert (
        model.index(1, 6)
        .data(Qt.ItemDataRole.ToolTipRole)
        .endswith("withdrawn, no longer listed by the service")
    )
    assert model.index(1, 0).data(ID_ROLE) == checked.offers[1].id
    model.set_offers(checked.offers[:1])
    qtmodeltester.check(model)
    assert model.rowCount() == 1


def test_items_model_passes_the_model_tester(qtmodeltester: Any, qapp: Any, filled_cache: Path) -> None:
    model = ItemsModel(Formatter())
    qtmodeltester.check(model)
    with Store(filled_cache / "catalogue.sqlite3") as store:
        acme = _log(store).offers[1]
    model.set_offer(acme)
    qtmodeltester.check(model)
    rows = [[model.index(r, c).data() for c in range(4)] for r in range(model.rowCount())]
    assert rows[0][0].startswith("Federal Tax Institute, ") and "Chicago" in rows[0][0]
    # the start as the tables write it, with its zone (never a bare "08:30")
    assert rows[0][1] == "12/14/26 8:30 AM UTC−06:00 · USD 1,095" == rows[0][2] and rows[0][3] == "no change"
    assert rows[1][2] == "withdrawn" and rows[1][3] == "withdrawn, no longer listed by the service"
    assert model.index(1, 0).data(ID_ROLE) == "course:6104@7108"
    model.set_offer(None)
    qtmodeltester.check(model)
    assert model.rowCount() == 0
