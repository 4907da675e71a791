"""The sales desk's Dates tab: every bookable occasion as a row (``core.query.offerings``), sorted by
start, past occasions hidden unless asked; selecting a row shows its course, webinar or series.

Its rows are made by the finder's indexer from the loaded catalogue; an on-demand occasion has no
date and says "On demand" where the start would be. A row of buttons above the table makes offers
of the selected occasions, or of all the query shows (``desk``: offer sheet, print, calendar file,
copy for e-mail); Ctrl+C copies them for an e-mail (text and a table) rather than as TSV.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QMenu, QToolButton, QWidget

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.query.dates_rows import OccasionRow, occasion_row
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind, OccasionKind
from catalogue_desktop.qt_compat.item_models import DISPLAY, TOOLTIP, guarded
from catalogue_desktop.ui.browse.collection_tab import CollectionTab
from catalogue_desktop.ui.browse.table_model import RowSetTableModel
from catalogue_desktop.ui.common.action_row import ActionRow
from catalogue_desktop.ui.common.formatting import Formatter

if TYPE_CHECKING:  # (zones: imported when a start is first checked)
    from catalogue_desktop.core.records.models import Record
    from catalogue_desktop.core.records.zones import ZoneCheck
    from catalogue_desktop.ui.detail.context import DetailContext
    from catalogue_desktop.ui.offers.desk import OfferDesk, OfferSource

_START = column_index(OCCASIONS, "start")


OFFER_BUTTONS = (  # (what, text, tooltip)
    ("pdf", "Offer sheet (PDF)…", "Save an offer sheet as a PDF file"),
    ("print", "Print…", "Print the offer sheet, with a preview"),
    ("ics", "Calendar file (.ics)…", "Save the dates as calendar events"),
    ("xlsx", "Spreadsheet (.xlsx)…", "Save the dates as a spreadsheet"),
    ("copy", "Copy for email", "Copy the dates as text and a table for an e-mail (Ctrl+C)"),
)


class DatesTableModel(RowSetTableModel):
    """Rows of occasions: "On demand" where an on-demand occasion has no start; a course's start
    marked "⚠" (its tooltip says why) where the offset the service wrote is not the location's
    zone's on that date, and read as the user chose once they did (``Formatter.venue_date``: the
    offers' time); otherwise the zone is named in its tooltip ("CST at Chicago, IL")."""

    @guarded
    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = DISPLAY) -> Any:
        if (
            role in (DISPLAY, TOOLTIP)
            and index.column() == _START
            and index.isValid()
            and 0 <= index.row() < self.visible_count()
        ):
            row = occasion_row(self.rowset.rows[self.source_row(index.row())])
            if row.start is None and row.ondemand:
                return "On demand" if role == DISPLAY else None
            found = zone_of(row)
            if found is not None and row.start is not None:
                where = ", ".join(str(p) for p in (row.city, row.state) if p)
                doubt = None if found.ok else self.formatter.doubt((row.start, row.offsets[0]), row.state)
                if doubt is None:
                    if role == TOOLTIP and found.ok:
                        return f"{found.abbreviation} ({found.zone.replace('_', ' ')}) at {where}"
                elif role == TOOLTIP:
                    return self.formatter.doubt_note(doubt, where)
                else:  # (read as the user chose, as the offers write it)
                    return self.formatter.venue_date(row.start, row.offsets[0], row.state)
        return super().data(index, role)


def zone_of(row: OccasionRow) -> ZoneCheck | None:
    """A course row's start checked against its location's zone (``core.zones.check``); None
    for other rows and places with no known zone."""
    start, offset = row.start, row.offsets[0] if row.offsets else None
    if row.kind is not OccasionKind.COURSE or start is None or offset is None:
        return None
    return _zone_check(start, offset, row.state)


@lru_cache(maxsize=4096)
def _zone_check(ms: int, offset: int, state: object) -> ZoneCheck | None:
    from catalogue_desktop.core.records.zones import check

    written = timezone(timedelta(minutes=offset))
    return check(datetime.fromtimestamp(ms / 1000, written), state if isinstance(state, str) else None)


class DatesTab(CollectionTab):
    """The Dates tab (see the module doc)."""

    show_past_changed = Signal(bool)

    def __init__(
        self,
        formatter: Formatter,
        images: Callable[[], Any],
        record: Callable[[Kind, int], Record | None],
        context: Callable[[Kind, int], Any],
        offers: OfferSource | None = None,
    ) -> None:
        """``offers``: what the offers need besides the rows; None: no offers."""
        super().__init__(OCCASIONS, formatter, images, record, context)
        self.show_past = QCheckBox("Show past")
        self.show_past.setObjectName("dates-show-past")
        self.show_past.setAccessibleName("Show past dates")
        self.show_past.setToolTip("Also list dates that have ended (or type past, or a date)")
        self.show_past.toggled.connect(self.show_past_changed)
        # A row whose buttons always stay reachable: those that do not fit go into its "More"
        # menu (a tool bar's "››" outside a main window did nothing; a plain row of buttons
        # made the window at least 960 px wide).
        self.bar = ActionRow("More offers")
        self.bar.setObjectName("dates-bar")
        self.bar.setAccessibleName("Dates tools")
        self.bar.add_widget(self.show_past)
        self.top.takeAt(0)  # (the spacer before the count: the row takes all the room left)
        self.top.insertWidget(0, self.bar, 1)
        self._offers = offers
        self._desk: OfferDesk | None = None
        self.offer_buttons: dict[str, QToolButton] = {}
        if offers is not None:
            for what, text, tip in OFFER_BUTTONS:
                action = QAction(text, self)
                action.setIconText(text)  # (a button keeps its "…": it opens a dialog)
                action.setToolTip(tip + " (the selected dates, or all the query shows)")
                action.triggered.connect(lambda _checked=False, what=what: self.offer(what))
                button = self.bar.add_action(action)
                button.setObjectName(f"dates-offer-{what}")
                button.setAccessibleName(text.replace("…", ""))
                self.offer_buttons[what] = button

    def focus_order(self) -> list[QWidget]:
        return [*self.bar.focus_order(), self.view]  # Show past, the offer buttons, More, the table

    @property
    def desk(self) -> OfferDesk | None:
        """The offers of this tab (made on first use; None: no offers)."""
        if self._desk is None and self._offers is not None:
            from catalogue_desktop.ui.offers.desk import OfferDesk

            self._desk = OfferDesk(self, self._offers, self._formatter)
        return self._desk

    def offer(self, what: str, records: tuple[str, list[int]] | None = None) -> Any:
        """An offer of the selected occasions, or all the query shows, or of ``records``' upcoming
        occasions: "pdf", "print", "ics", "copy" (``desk.OfferDesk.offer``)."""
        if self.desk is None:
            self.message.emit("Offers are not available here")
            return None
        return self.desk.offer(what, records)

    def copy_selection(self) -> int:
        """Ctrl+C: the occasions for an e-mail (plain text and an HTML table), not TSV."""
        return self.offer("copy") or 0

    def rows_menu(self) -> QMenu:
        """The rows' context menu: the offers (and the other tabs' copy, as TSV)."""
        from PySide6.QtGui import QKeySequence

        menu = QMenu(self)
        for what, text, _tip in OFFER_BUTTONS:
            keys = QKeySequence.StandardKey.Copy if what == "copy" else QKeySequence()
            menu.addAction(text, keys, lambda what=what: self.offer(what)).setEnabled(self.desk is not None)
        menu.addSeparator()
        menu.addAction("Copy rows as TSV", lambda: super(DatesTab, self).copy_selection())
        return menu

    def _rows_menu(self, pos: QPoint) -> None:
        menu = self.rows_menu()
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def emit_selected(self, row_key: int) -> None:
        """As any tab, but the history remembers the record a row opens, not the row (rows are
        made anew on every refresh)."""
        target = self.target(row_key)
        if target is not None:
            self.record_selected.emit(*target)

    def make_model(self, kind: ListKind, formatter: Formatter) -> RowSetTableModel:
        return DatesTableModel(kind, formatter, self)

    def target(self, row_key: int) -> tuple[Kind, int] | None:
        """The record a row opens: its course, webinar, or a session's series."""
        rowset = self.model.rowset
        row = rowset.rows_by_id().get(row_key)
        if row is None:
            return None
        values = occasion_row(rowset.rows[row])
        kind = values.kind.opens
        record_id = values.series_id if kind is Kind.SERIES else values.record
        return None if record_id is None else (kind, record_id)

    def show_record(self, record_id: int) -> None:
        """Show the course, webinar or series of the occasion with row key ``record_id``, its
        page led by that date's own facts (``detail_context``)."""
        self._shown_id = record_id
        target = self.target(record_id)
        if target is None:
            self.detail.clear("This date's record is not in the cache.")
            return
        self._show_in_detail(*target)

    def detail_context(self, kind: Kind, record_id: int) -> DetailContext:
        """The page's context with the date the shown row stands for: a course's location, a
        series' session (a webinar's page is that date's already)."""
        context = super().detail_context(kind, record_id)
        rowset = self.model.rowset
        row = rowset.rows_by_id().get(self._shown_id) if self._shown_id is not None else None
        if row is not None:
            values = occasion_row(rowset.rows[row])
            context.occasion = values.location if kind is Kind.COURSES else values.record
        return context
