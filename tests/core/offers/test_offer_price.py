"""An offer's price in the log is what its sheet says (one voice, ``core.offers.price``): a whole
series at the series' price (its sessions "Included"), one date of each course (a course in
Chicago or Minneapolis is "USD 995 – 1,095", never their sum), read back from a real store after
a sync of the demo catalogue, through ``offers --json`` too; and its validity kept with it, so
that the same offer with another validity is another offer."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.offers.customer_text import Style
from catalogue_desktop.core.offers.logged import Written
from catalogue_desktop.core.offers.occasions import Occasion
from catalogue_desktop.core.offers.price import Price, price
from catalogue_desktop.core.offers.sheet import sheet_html
from catalogue_desktop.demo.server import DemoServer
from tests.core.cache.test_history import sync
from tests.core.offers.test_offer_log import CHICAGO, MINNEAPOLIS, NOW, WASHINGTON

GENERATIVE_AI = 801  # the demo's series: 4 sessions, 249 + 199 + 229 + 179 = 856; the series 699


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def _series(found: dict[str, Occasion], series: int) -> list[Occasion]:
    return [o for key, o in found.items() if key.startswith(f"session:{series}@")]


def test_a_whole_series_is_priced_as_the_sheet_prices_it_and_courses_dates_are_alternatives(
    demo_server: DemoServer, store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        found = checking.now_occasions(s, NOW)
        sessions = _series(found, GENERATIVE_AI)
        assert sorted(o.fee for o in sessions) == [179, 199, 229, 249]
        html = sheet_html(sessions, None, style=Style(currency="USD"))
        assert "USD\u00a0699 for the whole series" in html and html.count(">Included<") == 4
        gamma = logged.remember(
            s, title="Offer for Gamma", items=sessions, written=[Written("pdf", "/tmp/g.pdf")], currency="USD"
        )
        acme = logged.remember(
            s,
            title="Offer for Acme",
            items=[found[CHICAGO], found[MINNEAPOLIS]],
            written=[Written("pdf", "/a.pdf")],
            currency="USD",
        )
        beta = logged.remember(
            s,
            title="Offer for Beta",
            items=[found[CHICAGO], found[MINNEAPOLIS], found[WASHINGTON], *sessions],
            written=[Written("xlsx", "/b.xlsx")],
            currency="USD",
        )
        assert gamma is not None and acme is not None and beta is not None
        assert gamma.total == "USD 699"
        assert acme.total == "USD 995 – 1,095"
        assert beta.total == "USD 2,289 – 2,389"  # one Federal Tax date (995/1,095) + 595 + 699
        again = {o.id: o for o in logged.offers(s)}  # read back from the file
        assert [again[o.id].total for o in (gamma, acme, beta)] == [
            "USD 699",
            "USD 995 – 1,095",
            "USD 2,289 – 2,389",
        ]


def test_offers_on_the_command_line_says_the_same_price(demo_server: DemoServer, store_file: Path) -> None:
    from catalogue_desktop.cli.offers import listed_text

    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        sessions = _series(checking.now_occasions(s, NOW), GENERATIVE_AI)
        logged.remember(
            s, title="Offer for Gamma", items=sessions, written=[Written("pdf", "/g.pdf")], currency="USD"
        )
        (gamma,) = logged.offers(s)
    assert listed_text(gamma)[0].split("\t")[3:5] == ["4 dates", "USD 699"]
    assert gamma.to_json()["total"] == "USD 699"


def test_the_same_offer_with_another_validity_is_another_offer(
    demo_server: DemoServer, store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        items = [checking.now_occasions(s, NOW)[CHICAGO]]

        def made(fmt: str, until: date | None) -> logged.LoggedOffer:
            offer = logged.remember(
                s,
                title="Offer for Acme",
                items=items,
                written=[Written(fmt, fmt)],
                currency="USD",
                valid_until=until,
            )
            assert offer is not None
            return offer

        pdf = made("pdf", date(2026, 12, 29))
        ics = made("ics", date(2026, 12, 29))
        assert ics.id == pdf.id and [w.format for w in ics.written] == ["pdf", "ics"]
        assert ics.valid_until == date(2026, 12, 29) and ics.to_json()["validUntil"] == "2026-12-29"
        xlsx = made("xlsx", None)  # no validity: not the offer the PDF and calendar made
        assert xlsx.id != pdf.id and xlsx.valid_until is None


def test_an_offer_logged_before_its_price_was_kept_is_priced_from_its_items_by_the_same_rule() -> None:
    row = logged.LoggedOffer(
        1,
        "2026-11-28T12:00:00Z",
        "Offer for Acme",
        None,
        "USD",
        (),
        (
            logged.Quoted(CHICAGO, "Federal Tax Institute", fee=1095),
            logged.Quoted(MINNEAPOLIS, "Federal Tax Institute", fee=995),
            logged.Quoted("webinar:50007", "A webinar", fee=249),
        ),
    )
    assert row.terms is None and row.total == "USD 1,244 – 1,344"


def test_price_rules() -> None:
    def course(loc: int, fee: object) -> Occasion:
        return Occasion("course", 1, "C", location_id=loc, fee=fee)

    assert price([course(1, 100), course(2, 100)]) == Price(100, 100)
    assert price([course(1, 100), course(2, "120.50")]).text("EUR") == "EUR 100 – 120.5"
    assert price([course(1, None)]) == Price(unpriced=1) and Price(unpriced=1).text("USD") == ""
    partial = [
        Occasion(
            "session", w, "S", series_id=9, fee=f, series_ids=(9,), series_fees=(300,), series_sizes=(3,)
        )
        for w, f in ((1, 100), (2, 150))
    ]
    assert price(partial).text() == "250"  # two of three sessions: each booked
    whole = [
        *partial,
        Occasion(
            "session", 3, "S", series_id=9, fee=200, series_ids=(9,), series_fees=(300,), series_sizes=(3,)
        ),
    ]
    assert price(whole).text() == "300"
