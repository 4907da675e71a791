"""The offers' window fixtures (``test_offers_window``), shared with the other offers tests."""

from tests.ui.offers.test_offers_window import (  # noqa: F401 (fixtures)
    currency_asked,
    saved,
    sheet_options,
    window_of,
)
