"""The Offers window's two tables as item models: the offers of the log, newest first (customer,
what was offered, date, occasions, total, validity, status: ``OffersModel``), and the occasions
of the selected one, each with what was quoted, what the catalogue says now and the change in
words (``ItemsModel``).
Both are flat tables of their ``HEADERS`` over one base (``_LogTable``: rows, columns, headers).
Text only (service text is shown as plain text, never as rich text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from catalogue_desktop.core.formats.drawn_text import one_line
from catalogue_desktop.core.offers.logged import Finding, LoggedOffer, Quoted
from catalogue_desktop.core.offers.occasions import money
from catalogue_desktop.qt_compat.item_models import guarded
from catalogue_desktop.ui.common.formatting import Formatter

Index = QModelIndex | QPersistentModelIndex

STATUS_WORDS = {
    "current": "Current",
    "changed": "Changed",
    "withdrawn": "Withdrawn",
    "past": "Past",
    "superseded": "Superseded",
}
ID_ROLE = Qt.ItemDataRole.UserRole  # an offer's id (``OffersModel``), an occasion's (``ItemsModel``)


class _LogTable(QAbstractTableModel):
    """What both tables share: a flat table of ``HEADERS`` columns over the rows of ``_rows``."""

    HEADERS: tuple[str, ...] = ()

    def __init__(self, formatter: Formatter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fmt = formatter  # the window's: days and times as its tables write them

    def _rows(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else self._rows()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section] if 0 <= section < len(self.HEADERS) else None
        return None


class OffersModel(_LogTable):
    """The offers of the log, newest first (``set_offers``)."""

    HEADERS = ("Customer", "Offered", "Made", "Dates", "Total", "Valid until", "Status")
    TITLE = "Offer for "  # (the offer dialog's title before the customer's name: not shown)

    def __init__(self, formatter: Formatter, parent: QObject | None = None) -> None:
        super().__init__(formatter, parent)
        self._offers: list[LoggedOffer] = []

    def _rows(self) -> int:
        return len(self._offers)

    def set_offers(self, offers: Sequence[LoggedOffer]) -> None:
        self.beginResetModel()
        self._offers = list(offers)
        self.endResetModel()

    def offer(self, row: int) -> LoggedOffer | None:
        return self._offers[row] if 0 <= row < len(self._offers) else None

    def row_of(self, offer_id: int) -> int:
        return next((i for i, o in enumerate(self._offers) if o.id == offer_id), -1)

    @guarded
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid():
            return None
        offer = self.offer(index.row())
        if offer is None or not 0 <= index.column() < len(self.HEADERS):
            return None
        if role == ID_ROLE:
            return offer.id
        column = self.HEADERS[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in ("Customer", "Offered"):  # the whole title, note, every date's title
                lines = [offer.title, offer.note or "", *dict.fromkeys(i.title for i in offer.items)]
                return "\n".join(one_line(x) for x in lines if x) or None
            return "\n".join(offer.changes) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("Dates", "Total"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return None
        if column == "Customer":  # "Beta Corp", the title without "Offer for "
            version = f" (version {offer.version})" if offer.version > 1 else ""
            title = offer.title
            customer = (
                title[len(self.TITLE) :] if title.startswith(self.TITLE) and title != self.TITLE else title
            )
            return one_line(customer) + version
        if column == "Offered":  # "Revenue Recognition Boot Camp + 1 more": two offers told apart
            titles = list(dict.fromkeys(item.title for item in offer.items))
            more = f" + {len(titles) - 1} more" if len(titles) > 1 else ""
            return one_line(titles[0]) + more if titles else ""
        if column == "Made":
            return self._fmt.day(offer.made)
        if column == "Dates":
            return str(len(offer.items))
        if column == "Total":
            return one_line(offer.total)
        if column == "Valid until":
            until = offer.valid_until
            return self._fmt.day(until.isoformat()) if until is not None else ""
        return STATUS_WORDS.get(offer.status, offer.status)


class ItemsModel(_LogTable):
    """The occasions of one offer: quoted, now, the change (``set_offer``)."""

    HEADERS = ("Date", "Quoted", "Now", "Change")

    def __init__(self, formatter: Formatter, parent: QObject | None = None) -> None:
        super().__init__(formatter, parent)
        self._items: list[tuple[Quoted, Finding | None]] = []

    def _rows(self) -> int:
        return len(self._items)

    def set_offer(self, offer: LoggedOffer | None) -> None:
        self.beginResetModel()
        self._items = [] if offer is None else [(item, offer.finding(item.occasion)) for item in offer.items]
        self.endResetModel()

    @guarded
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._items):
            return None
        item, finding = self._items[index.row()]
        if role == ID_ROLE:
            return item.occasion
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 0:
            return one_line(f"{item.title}, {item.place or 'online'} ({item.occasion})")
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return None
        column = index.column()
        if column == 0:
            return one_line(f"{item.title}, {item.city or 'online'}")
        if column == 1:
            return values(item, self._fmt)
        if column == 2:
            if finding is None:
                return "not checked yet"
            if finding.over:
                return "over"
            return "withdrawn" if finding.now is None else values(finding.now, self._fmt)
        if finding is None or not finding.changes:
            return "" if finding is None or finding.over else "no change"
        return one_line("; ".join(line.split(": ", 1)[-1] for line in finding.changes))


def values(item: Quoted, fmt: Formatter) -> str:
    """An item's start and fee in a cell, the start as the window's tables write it (its zone
    too): "12/14/26 8:30 AM UTC−06:00 · USD 1,095"."""
    when = fmt.moment(item.start) or "on demand"
    fee = money(item.fee, item.currency) if item.fee is not None else "no fee"
    return one_line(f"{when} · {fee}")
