"""``Matches``, the one selection type: made from bits, a mask or rows, each form derived from the
others agrees with a brute-force reference; the engine's ``Outcome`` is one."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from catalogue_desktop.core.query.engine import Outcome
from catalogue_desktop.core.query.matches import Matches
from tests.core.query.catalogues import finder_of


@given(st.lists(st.booleans(), max_size=300))
def test_bits_mask_and_rows_agree_whichever_it_is_made_from(flags: list[bool]) -> None:
    n = len(flags)
    mask = bytes(flags)
    rows = [i for i, f in enumerate(flags) if f]
    bits = sum(1 << i for i in rows)
    made = [Matches(n, bits=bits), Matches(n, mask=mask), Matches(n, rows=rows)]
    for matches in made:
        assert (matches.count, matches.total) == (len(rows), n)
        assert (matches.bits, matches.mask, matches.rows) == (bits, mask, rows)
    assert made[1].mask is mask and made[2].rows is rows  # kept, not copied
    assert made[0].rows is made[0].rows  # derived once


def test_nothing_to_make_it_from_is_refused() -> None:
    try:
        Matches(3)
    except ValueError:
        return
    raise AssertionError("a Matches of nothing was made")


def test_the_engine_s_outcome_is_a_matches() -> None:
    facts = [{"id": 1, "name": "Ana Muller"}, {"id": 2, "name": "Bo Strauss"}, {"id": 3, "name": "Cy Muller"}]
    finder = finder_of({"experts": facts})
    outcome = finder.evaluate("muller", "experts", datetime(2027, 1, 1, tzinfo=UTC))
    assert isinstance(outcome, Outcome) and isinstance(outcome, Matches)
    assert (outcome.count, outcome.rows, outcome.mask, outcome.bits) == (2, [0, 2], b"\x01\x00\x01", 0b101)
    assert finder.evaluate("city:dallas", "experts", datetime(2027, 1, 1, tzinfo=UTC)).missing == "city"
