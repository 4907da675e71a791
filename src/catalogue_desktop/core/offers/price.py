"""What an offer costs, as its sheet prices it: one rule for the sheet, the offer log, its window
and ``offers`` on the command line (one voice). Qt-free.

The sheet groups the occasions by course (``group_key``): a course's dates and places are
alternatives (the customer books one of them), a series offered whole (every session among the
occasions: ``customer_text.whole_series``) is one item at the series' price (its sessions are
"Included"), a session alone and a webinar are each their own item at their own fee. So an offer
costs, at least, the cheapest alternative of each item, and at most the dearest: ``price`` gives
both (``Price.low``, ``Price.high``), equal when there is no choice of fee ("USD 699"), else a
range ("USD 995 – 1,095"). Fees that are not numbers are left out (``Price.unpriced``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from catalogue_desktop.core.offers.customer_text import whole_series
from catalogue_desktop.core.offers.occasions import Occasion, money

DASH = "–"


def group_key(o: Occasion) -> tuple[object, ...]:
    """The sheet's item (by course) an occasion belongs to: its series for a session, else the
    course or webinar itself (a course's dates and places are one item)."""
    if o.kind == "session" and o.series_id is not None:
        return ("series", o.series_id)
    return (o.kind, o.id)


def amount(fee: object) -> int | float | None:
    """A fee as a number (a whole one as is; "1295.50" read), None when it is not one."""
    if fee is None or isinstance(fee, bool):
        return None
    if isinstance(fee, int | float):
        return fee
    try:
        return float(str(fee).replace(",", ""))
    except ValueError:
        return None


@dataclass(frozen=True)
class Price:
    """What an offer costs: ``low`` (the cheapest date of each course), ``high`` (the dearest),
    None when no fee is a number; ``unpriced``: items whose fee is not known."""

    low: int | float | None = None
    high: int | float | None = None
    unpriced: int = 0

    def text(self, currency: str | None = None) -> str:
        """ "USD 699", "USD 995 – 1,095" (its currency once), "" without a fee."""
        if self.low is None or self.high is None:
            return ""
        low, high = _whole(self.low), _whole(self.high)
        if low == high:
            return money(low, currency)
        return f"{money(low, currency)} {DASH} {money(high)}"

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "unpriced": self.unpriced}

    @classmethod
    def from_json(cls, data: object) -> Price | None:
        if not isinstance(data, dict):
            return None
        low, high, unpriced = data.get("low"), data.get("high"), data.get("unpriced", 0)
        if not all(
            v is None or (isinstance(v, int | float) and not isinstance(v, bool)) for v in (low, high)
        ):
            return None
        return cls(low, high, unpriced if isinstance(unpriced, int) and not isinstance(unpriced, bool) else 0)


def price(items: Sequence[Occasion]) -> Price:
    """What the offer of ``items`` costs, as its sheet (grouped by course) prices it (module doc)."""
    whole = whole_series(items)
    groups: dict[tuple[object, ...], list[Occasion]] = {}
    for o in items:
        groups.setdefault(group_key(o), []).append(o)
    low: int | float = 0
    high: int | float = 0
    priced = unpriced = 0
    for key, members in groups.items():
        if key[0] == "series" and key[1] in whole:  # the series' price, its sessions included
            fees = [amount(whole[key[1]][1])]
        elif key[0] == "series":  # sessions of a series offered one by one: each is booked
            each = [amount(o.fee) for o in members]
            fees = [None] if any(f is None for f in each) else [sum(f for f in each if f is not None)]
        else:  # a course's dates and places (or a webinar): one of them is booked
            fees = [amount(o.fee) for o in members]
        known = [f for f in fees if f is not None]
        if not known:
            unpriced += 1
            continue
        priced += 1
        low += min(known)
        high += max(known)
    if not priced:
        return Price(unpriced=unpriced)
    return Price(_whole(low), _whole(high), unpriced)


def _whole(value: int | float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)
