"""The offer sheet laid out on pages: no occasion's row cut by a page's end (found one layout at a
time, or for long sheets all at once), each page's footer, the paper, the PDF's text."""

from __future__ import annotations

import io
from typing import Any

import pypdf
import pytest
from PySide6.QtCore import QBuffer, QLocale, QSizeF
from PySide6.QtGui import QFont, QFontMetricsF, QTextDocument

from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import Sheet
from catalogue_desktop.core.query import offerings
from catalogue_desktop.ui.offers import sheet_pdf
from tests.core.query.catalogues import demo_facts, finder_of


@pytest.fixture(scope="module")
def items() -> list[offers.Occasion]:
    finder = finder_of({k: v for k, v in demo_facts().items() if k != offerings.OFFERINGS})
    found = offerings.columns(finder.tables, finder.vocabulary)
    return offers.by_start(offers.occasions(found, range(len(found["id"]))))


def _laid_out(sheet: Sheet) -> tuple[QTextDocument, float, frozenset[int], Any]:
    """The sheet laid out as ``sheet_pdf.paint`` lays it out on A4 (and what keeps it alive)."""
    buffer = QBuffer()
    writer = sheet_pdf.pdf_writer(buffer, "t", "A4")
    body = writer.pageLayout().paintRectPixels(writer.resolution())
    font = QFont()
    font.setPointSizeF(sheet_pdf.FONT_PT - 2)
    page_h = body.height() - QFontMetricsF(font, writer).height() * 3.2
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(body.width(), page_h))
    return doc, page_h, sheet_pdf.whole_rows(doc, sheet, page_h), (buffer, writer)


@pytest.mark.parametrize(("rows", "group"), [(40, "course"), (60, "month"), (160, "course")])
def test_no_row_is_cut_by_a_page_s_end(
    qapp: Any, items: list[offers.Occasion], rows: int, group: str
) -> None:
    sheet = Sheet((items * 4)[:rows], "Mon 5 Jan 2026, 09:30 (UTC+00:00)", group=group)
    doc, page_h, breaks, _keep = _laid_out(sheet)
    assert doc.pageCount() > 2 and breaks  # long enough to need breaks
    extents = sheet_pdf._row_extents(doc)
    assert len(extents) == rows
    for top, bottom, above in extents:
        assert int(top // page_h) == int((bottom - 1) // page_h)  # on one page
        assert int(top // page_h) == int((above - 1) // page_h)  # with what is above it (heading)


def test_every_page_names_the_data_s_age_and_its_number(qapp: Any, items: list[offers.Occasion]) -> None:
    age = offers.age_line("Mon 5 Jan 2026, 09:30 (UTC+00:00)")
    data = sheet_pdf.pdf_bytes(Sheet(items[:30], "Mon 5 Jan 2026, 09:30 (UTC+00:00)"), "Offer", age, "Letter")
    reader = pypdf.PdfReader(io.BytesIO(data))
    pages = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert len(pages) >= 2
    assert all(age in page and f"Page {i} of {len(pages)}" in page for i, page in enumerate(pages, 1))
    assert [round(float(x)) for x in reader.pages[0].mediabox.upper_right] == [612, 792]
    assert sheet_pdf.default_paper(QLocale("en_US")) == "Letter"
    assert sheet_pdf.default_paper(QLocale("de_DE")) == "A4"
