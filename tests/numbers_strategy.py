"""Every number a value could be, for the tests that writers and formatters are total (issue 35):
ordinary ones, the edges of what decode keeps, and far beyond (huge and tiny exponents, NaN,
Infinity, signalling NaN, -0, whole numbers of thousands of digits, numbers as text)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

ODD_DECIMALS = [
    "NaN",
    "-NaN",
    "sNaN",
    "Infinity",
    "-Infinity",
    "-0",
    "0E+5000",
    "0E-5000",
    "1E+5000",
    "-1E+5000",
    "1E-5000",
    "1E+999999999",
    "-1E+999999999",
    "1E-999999999",
    "9.99999999999999999E+14",
    "123456789012345678901234567890.123456789",
]

NUMBERS: st.SearchStrategy[Any] = st.one_of(
    st.integers(),
    st.integers(-(2**63), 2**63 - 1),
    st.builds(lambda e, sign: sign * 10**e - sign, st.integers(15, 6000), st.sampled_from([1, -1])),
    st.sampled_from([Decimal(t) for t in ODD_DECIMALS]),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.builds(lambda d, e: Decimal(f"{d}E{e}"), st.integers(-(10**6), 10**6), st.integers(-(10**9), 10**9)),
    st.floats(),
    st.sampled_from([*ODD_DECIMALS, "1e5000", "free", "", " 12 ", "1,299"]),
)
