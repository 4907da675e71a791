"""Issue 25 in the drawn outputs: the offer sheet's PDF of a 1 MB title (431 pages and 195 s
before the fields were capped) and a title with U+202E (drawn reversed), and the window's table
cell of the same title."""

from __future__ import annotations

import io
from typing import Any

import pypdf

from catalogue_desktop.core.listing.rows import Column, ColumnType
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import Sheet
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.offers import sheet_pdf


def _pdf_text(items: list[offers.Occasion]) -> tuple[int, str]:
    data = sheet_pdf.pdf_bytes(Sheet(items, "as of"), "Offer", "footer")
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    return len(pages), "".join(p.extract_text() for p in pages)


def test_a_1_mb_title_makes_a_sheet_of_one_page_with_its_length_noted(qapp: Any) -> None:
    title = "evil " * 200_000
    pages, text = _pdf_text([offers.Occasion("course", 1, title, start="2027-03-09T08:30:00-05:00")])
    assert pages <= 2
    assert "(1,000,000 characters in all)" in " ".join(text.split())


def test_a_right_to_left_override_is_shown_not_obeyed_in_the_pdf_and_the_window(qapp: Any) -> None:
    title = "Invoice \u202eexe.live"
    _pages, text = _pdf_text([offers.Occasion("course", 1, title, start="2027-03-09T08:30:00-05:00")])
    assert "Invoice [U+202E]exe.live" in " ".join(text.split()) and "evil.exe" not in text
    column = Column("title", "Title", ColumnType.TEXT)
    assert Formatter().value(column, title) == "Invoice [U+202E]exe.live"
