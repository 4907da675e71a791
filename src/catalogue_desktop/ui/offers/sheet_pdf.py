"""The offer sheet on paper: ``core.offers.sheet.Sheet`` laid out by Qt's rich text
(``QTextDocument``) on A4 or Letter pages, each with a footer (the data's age, "Page 2 of 3"),
painted into a PDF (``QPdfWriter``) or onto a printer (``QPrinter``, the print preview's).

No browser engine: QtGui alone. The window and ``catalogue-desktop export offerings --format
pdf`` use the same ``paint``; the command line makes a ``QGuiApplication`` (offscreen unless a
platform is set) only for the PDF (``gui_application``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLocale, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextDocument,
    QTextOption,
    QTextTable,
)

from catalogue_desktop.core.offers.sheet import Sheet

if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrinter

PAPERS = {"A4": QPageSize.PageSizeId.A4, "Letter": QPageSize.PageSizeId.Letter}
MARGINS_MM = QMarginsF(16, 14, 16, 12)  # left, top, right, bottom (the footer sits above it)
FONT_PT = 9


def default_paper(locale: QLocale | None = None) -> str:
    """Letter where the locale measures in US units (the US, and the few others), else A4."""
    system = (locale or QLocale()).measurementSystem()
    return "Letter" if system == QLocale.MeasurementSystem.ImperialUSSystem else "A4"


def gui_application() -> Any:
    """The running QGuiApplication (the window's), or one made now for the command line,
    offscreen: a PDF needs fonts, not a display (a ``QT_QPA_PLATFORM`` set for windows, say xcb
    without a display, made Qt abort the export)."""
    app = QGuiApplication.instance()
    if app is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QGuiApplication(["catalogue-desktop"])
    return app


def page_layout(paper: str) -> QPageLayout:
    return QPageLayout(
        QPageSize(PAPERS.get(paper, QPageSize.PageSizeId.A4)),
        QPageLayout.Orientation.Portrait,
        MARGINS_MM,
        QPageLayout.Unit.Millimeter,
    )


def paint(sheet: Sheet | str, device: QPdfWriter | QPrinter, footer: str) -> int:
    """Lay ``sheet`` out on ``device``'s pages (a QPdfWriter or QPrinter, its page layout set),
    no occasion's row cut in two where a page ends (``whole_rows``), each page with ``footer``
    at the left and its number at the right; returns the pages."""
    layout = device.pageLayout()
    body = layout.paintRectPixels(device.resolution())  # the page less its margins, in device pixels
    font = QFont(QGuiApplication.font())
    font.setPointSizeF(FONT_PT)
    for tag in ("liga", "clig"):  # "ff", "fi" as two letters: text copied from the PDF reads "offer"
        font.setFeature(QFont.Tag(tag), 0)
    small = QFont(font)
    small.setPointSizeF(FONT_PT - 2)
    metrics = QFontMetricsF(small, device)
    page_h = body.height() - metrics.height() * 3.2  # the footer's two lines and a gap above them
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    doc.setDefaultFont(font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)  # long links
    doc.setDefaultTextOption(option)
    doc.setDocumentMargin(0)
    doc.setPageSize(QSizeF(body.width(), page_h))
    if isinstance(sheet, str):
        doc.setHtml(sheet)
    else:
        sheet.fee_width = fee_column(sheet, font, device, body.width())
        whole_rows(doc, sheet, page_h)
    pages = max(1, doc.pageCount())
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("cannot paint on the printer or PDF file")
    try:
        for page in range(pages):
            if page:
                device.newPage()
            painter.save()
            painter.translate(0, -page * page_h)
            clip = QRectF(0, page * page_h, body.width(), page_h)
            painter.setClipRect(clip)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = clip
            doc.documentLayout().draw(painter, context)
            painter.restore()
            lines = metrics.height() * 2.2
            _footer(
                painter, small, QRectF(0, body.height() - lines, body.width(), lines), footer, page + 1, pages
            )
    finally:
        painter.end()
    return pages


def fee_column(sheet: Sheet, font: QFont, device: QPdfWriter | QPrinter, width: float) -> float:
    """The fee column's width, % of the page's: the widest fee (or its heading, in bold) on one
    line, with the cell's padding and borders."""
    bold = QFont(font)
    bold.setBold(True)
    metrics, heading = QFontMetricsF(font, device), QFontMetricsF(bold, device)
    texts = sheet.fee_texts()
    widest = max([heading.horizontalAdvance(texts[0])] + [metrics.horizontalAdvance(t) for t in texts[1:]])
    room = widest + metrics.averageCharWidth() * 2.5  # padding both sides, borders, a little air
    return room / width * 100


# Up to this many rows, page breaks are found one layout at a time (the costs: docs/decisions.md,
# "Detail pane and offers").
EXACT_ROWS = 100
EXACT_PAGES = 24  # ... and this many pages: a long document (long texts) takes a few layouts in all


def whole_rows(doc: QTextDocument, sheet: Sheet, page_h: float) -> frozenset[int]:
    """Give ``doc`` the sheet's HTML with a page break before each row that a page's end would
    cut (Qt's tables split rows line by line), and return those rows.

    One break moves everything after it, so breaks are found in order: after each, the document
    is laid out again. Past ``EXACT_ROWS`` rows, every cut row found in one layout gets its break
    at once, the later ones' places estimated (a few layouts in all; now and then a break comes a
    row early, a page a little emptier). So does a document of more than ``EXACT_PAGES`` pages
    (long texts: one layout at a time took far too long). The figures: docs/decisions.md, "Detail
    pane and offers"."""
    breaks: set[int] = set()
    doc.setHtml(sheet.html())
    exact = sheet.rows <= EXACT_ROWS and doc.pageCount() <= EXACT_PAGES
    for _ in range(sheet.rows + 1 if exact else 4):
        found = _cut_rows(_row_extents(doc), page_h, breaks, exact)
        if not found:
            break
        breaks |= found
        doc.setHtml(sheet.html(breaks))
    return frozenset(breaks)


def _row_extents(doc: QTextDocument) -> list[tuple[float, float, float]]:
    """(top, bottom, the bottom of what is above it: the row before, or for a table's first row
    the paragraph before the table) of each table row but the header rows, in document order,
    in the document's coordinates (pages one after the other)."""
    layout = doc.documentLayout()
    out = []
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable) or not frame.format().headerRowCount():
            continue  # (the letterhead's table has no header row: no occasion in it)
        above = layout.blockBoundingRect(doc.findBlock(frame.firstPosition() - 1)).bottom()
        for r in range(frame.format().headerRowCount(), frame.rows()):
            top, bottom = float("inf"), 0.0
            for c in range(frame.columns()):
                cell = frame.cellAt(r, c)
                top = min(top, layout.blockBoundingRect(cell.firstCursorPosition().block()).top())
                bottom = max(bottom, layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom())
            out.append((top, bottom, above))
            above = bottom
    return out


def _cut_rows(
    rows: list[tuple[float, float, float]], page_h: float, breaks: set[int], first_only: bool
) -> set[int]:
    """The rows (not yet in ``breaks``) that begin on one page and end on another, or that Qt
    moved to the next page whole, away from what is above them (their heading, the row before);
    only the first (``first_only``), or all, the later ones where they would be once earlier
    ones moved."""
    found: set[int] = set()
    shift = 0.0
    for i, (top, bottom, above) in enumerate(rows):
        page = int((top + shift) // page_h)
        cut = int((bottom + shift - 1) // page_h) != page and bottom - top < page_h * 0.8
        moved = page > int((above + shift - 1) // page_h)
        if i in breaks or not (cut or moved):
            continue
        found.add(i)
        if first_only:
            break
        if cut:
            shift += (page + 1) * page_h - (top + shift) + _HEADROOM * page_h
    return found


_HEADROOM = 0.04  # estimated: a continued heading and the table's header above a moved row


def _footer(painter: QPainter, font: QFont, rect: QRectF, text: str, page: int, pages: int) -> None:
    painter.save()
    painter.setFont(font)
    painter.setPen(Qt.GlobalColor.darkGray)
    number = f"Page {page} of {pages}"
    metrics = QFontMetricsF(font, painter.device())
    room = rect.width() - metrics.horizontalAdvance(number) - metrics.horizontalAdvance("MMMM")
    left = QRectF(rect.left(), rect.top(), room, rect.height())
    painter.drawText(
        left, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap), text
    )  # whole: it is the data's age
    painter.drawText(rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom), number)
    painter.restore()


def pdf_writer(target: str | QIODevice, title: str, paper: str) -> QPdfWriter:
    writer = QPdfWriter(target)
    writer.setPageLayout(page_layout(paper))
    writer.setTitle(title)
    writer.setCreator("Catalogue Desktop")
    writer.setResolution(300)
    return writer


def pdf_bytes(sheet: Sheet | str, title: str, footer: str, paper: str = "A4") -> bytes:
    """The sheet as a PDF document, in memory."""
    gui_application()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = pdf_writer(buffer, title, paper)
    paint(sheet, writer, footer)
    del writer  # (the document is complete once the painter has ended)
    buffer.close()
    return bytes(data.data())
