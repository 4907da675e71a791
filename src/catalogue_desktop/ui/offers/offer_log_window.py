"""Go ▸ Offers: the offer log, newest first (customer, what was offered, date, occasions, total,
validity, status), the
selected offer's occasions below it (quoted, now, the change), its changes in words, and
**Re-issue** (the same offer from today's data, logged as a new version; the old one kept and
marked superseded). Opening it checks the offers again (off the GUI thread, ``OfferChecks``);
every refresh does too. Keyboard: the list has the focus, arrows choose, Tab reaches the
occasions and the buttons, Alt+R re-issues, Escape closes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.formats.drawn_text import drawn
from catalogue_desktop.ui.offers.offer_checks import OfferChecks
from catalogue_desktop.ui.offers.offer_log_model import ItemsModel, OffersModel

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.offers.checking import Checked
    from catalogue_desktop.core.offers.logged import LoggedOffer
    from catalogue_desktop.core.offers.occasions import Occasion
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.offers.offer_settings import OfferSettings


class OffersWindow(QDialog):
    """The offer log (see the module doc); ``store()`` is the window's store (re-issue logs in it)."""

    message = Signal(str)  # what was done, for the main window's status bar

    def __init__(
        self,
        checks: OfferChecks,
        store: Callable[[], Store],
        formatter: Formatter,
        remembered: OfferSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``remembered``: the seller's offer Preferences (letterhead, doubtful times, the
        customer's zone) a re-issue is made with, as the Dates tab's offers are."""
        super().__init__(parent)
        self.setObjectName("offers-window")
        self.setWindowTitle("Offers")
        self.setModal(False)
        self.resize(860, 560)
        self._checks = checks
        self._store = store
        self._remembered = remembered
        self.offers = OffersModel(formatter, self)
        self.items = ItemsModel(formatter, self)
        self.summary = QLabel("Checking the offers against the catalogue…")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.table = self._view(self.offers, "Offers made, newest first")
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for column in (0, 1):  # the customer and what was offered share the room
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.occasions = self._view(self.items, "The selected offer's dates: quoted, now, the change")
        header = self.occasions.horizontalHeader()  # (an offer's few rows: measured whole)
        for column, mode in enumerate(("Stretch", "ResizeToContents", "ResizeToContents", "Stretch")):
            header.setSectionResizeMode(column, getattr(QHeaderView.ResizeMode, mode))
        self.changes = QLabel()
        self.changes.setObjectName("offer-changes")
        self.changes.setTextFormat(Qt.TextFormat.PlainText)  # (service text: never rich text)
        self.changes.setWordWrap(True)
        self.changes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.reissue_button = QPushButton("&Re-issue")
        self.reissue_button.setToolTip(
            "Make the same offer from today's data (same customer, note and formats), logged as a new "
            "version; this one is kept and marked superseded"
        )
        self.reissue_button.setEnabled(False)
        self.reissue_button.clicked.connect(self.reissue)
        buttons.addButton(self.reissue_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 3)
        occasions_label = QLabel("&Dates of the selected offer:")
        occasions_label.setBuddy(self.occasions)
        layout.addWidget(occasions_label)
        layout.addWidget(self.occasions, 2)
        layout.addWidget(self.changes)
        layout.addWidget(buttons)
        self.table.selectionModel().selectionChanged.connect(self._chosen)
        checks.checked.connect(self.show_checked)
        checks.failed.connect(lambda why: self.summary.setText(f"The offers could not be checked: {why}"))
        self._selected_id: int | None = None
        checks.listed = True  # (every offer read on the checks' thread from now on)
        if checks.last is not None and checks.last.listed:
            self.show_checked(checks.last)  # (else the check Offers asks for shows them)
        self.table.setFocus()

    def _view(self, model: OffersModel | ItemsModel, name: str) -> QTableView:
        view = QTableView(self)
        view.setModel(model)
        view.setAccessibleName(name)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setTabKeyNavigation(False)  # Tab leaves the table: to the next part of the window
        view.verticalHeader().hide()
        view.setWordWrap(False)
        return view

    def refresh(self) -> None:
        """Check again (the list follows when the check is back)."""
        self._checks.check()

    def show_checked(self, checked: Checked) -> None:
        """Show the offers as ``checked`` (the selection kept, or the newest chosen)."""
        keep = self._selected_id
        self.offers.set_offers(checked.offers)
        counts = checked.counts()
        flagged = len(checked.flagged)
        n = len(checked.offers)
        if not n:
            self.summary.setText(
                "No offers yet. Offers made from the Dates tab (File ▸ Offer) are listed here and checked "
                "against the catalogue after every refresh."
            )
        else:
            words = ", ".join(f"{count} {status}" for status, count in counts.items())
            head = f"{n} offer{'s' if n != 1 else ''} ({words})"
            if flagged:
                head += f"; {flagged} no longer match{'es' if flagged == 1 else ''} the catalogue"
            self.summary.setText(head + ".")
        row = self.offers.row_of(keep) if keep is not None else -1
        if row < 0 and n:
            row = 0
        if row >= 0:
            self.table.selectRow(row)
        else:
            self._show_offer(None)

    def selected(self) -> LoggedOffer | None:
        rows = self.table.selectionModel().selectedRows()
        return self.offers.offer(rows[0].row()) if rows else None

    def _chosen(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._show_offer(self.selected())

    def _show_offer(self, offer: LoggedOffer | None) -> None:
        self._selected_id = None if offer is None else offer.id
        self.items.set_offer(offer)
        self.reissue_button.setEnabled(offer is not None and offer.superseded_by is None)
        if offer is None:
            self.changes.setText("")
            return
        lines = []
        if offer.note:
            lines.append(f"Note: {drawn(offer.note)}")
        lines += [f"Written: {w.format} to {drawn(w.where)}" for w in offer.written]
        if offer.superseded_by is not None:
            lines.append(f"Re-issued as offer #{offer.superseded_by}; kept as it was promised.")
        elif offer.changes:
            lines.append("Changed since it was made:")
            lines += [f"  {drawn(line)}" for line in offer.changes]
        elif offer.status == "past":
            lines.append("Its dates are over.")
        elif offer.checked_at:
            lines.append("As quoted: nothing changed since it was made.")
        self.changes.setText("\n".join(lines))

    def reissue(self) -> None:
        """Re-issue the selected offer: the catalogue's occasions read off the GUI thread, then
        the new version's documents made and logged."""
        offer = self.selected()
        if offer is None or offer.superseded_by is not None:
            return
        self.reissue_button.setEnabled(False)
        self.summary.setText(f"Re-issuing “{drawn(offer.title)}” from today's data…")
        self._checks.occasions_now(lambda found: self._reissue(offer, found))

    def _reissue(self, offer: LoggedOffer, found: Mapping[str, Occasion]) -> None:
        from catalogue_desktop.core.offers.checking import NothingLeft, reissue
        from catalogue_desktop.core.searches.stored import local_now
        from catalogue_desktop.ui.offers.reissue_documents import document_writer

        store = self._store()
        not_made: list[str] = []
        write = document_writer(store, offer, not_made, self._remembered)
        try:
            new, left_out = reissue(store, offer.id, local_now(), write, catalogue=lambda: found)
        except NothingLeft as exc:
            self.summary.setText(f"Not re-issued: {exc}")
            self.reissue_button.setEnabled(True)
            return
        text = f"Re-issued “{new.title}” as offer #{new.id} (version {new.version}), from today's data"
        if left_out:
            text += f"; left out: {'; '.join(left_out)}"
        if not_made:
            text += f"; not made again: {'; '.join(not_made)}"
        self._selected_id = new.id
        self.message.emit(text)
        self.summary.setText(text)
        self._checks.check()
