"""The offer's one small dialog, asked before every offer but the e-mail text: which occasions
(in words), the title ("Offer for …", the customer's name typed after it: it names the files
too), a short personal note, an optional "valid until" date, the zone online times are given in
for the customer (the seller's own by default); for the sheet also the grouping (by course or by
month) and the paper (A4 or Letter; the last used, else the locale's). The paper, grouping and
zone are remembered (``offer_settings``); the title, note and validity given last in this window
session open the next dialog (a restart: a new customer), the customer's name after "Offer for "
and the note selected so that typing replaces them and keeps "Offer for ": one offer in several
formats says one validity. While the title names no customer ("Offer for " left as it is), a
line under it says the offer will be titled just "Offer"."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.records.zones import CUSTOMER_ZONES, zone_label
from catalogue_desktop.ui.offers.sheet_pdf import PAPERS, default_paper

if TYPE_CHECKING:
    from catalogue_desktop.ui.offers.offer_settings import OfferSettings

GROUPS = (("By course", "course"), ("By month", "month"))
TITLE = "Offer for "


class SheetOptions(NamedTuple):
    title: str
    group: str  # "course" or "month"
    paper: str  # "A4" or "Letter"
    note: str = ""
    valid_until: date | None = None
    zone: str | None = None  # IANA zone for online times (None: as the service wrote them)


class SheetDialog(QDialog):
    """Asks the offer sheet's title, note, validity, customer zone, grouping and paper."""

    def __init__(
        self,
        parent: QWidget | None,
        words: str,
        action: str,
        remembered: OfferSettings | None = None,
        *,
        sheet: bool = True,
        last: SheetOptions | None = None,
        time_text: TimeText = US_ENGLISH,
    ) -> None:
        super().__init__(parent)
        self.remembered = remembered  # None: nothing remembered
        self.setWindowTitle("Offer sheet" if sheet else "Offer")
        layout = QVBoxLayout(self)
        what = QLabel(f"An offer {'sheet ' if sheet else ''}of {words}.")
        what.setObjectName("offer-sheet-what")
        layout.addWidget(what)
        form = QFormLayout()
        self.title = QLineEdit(TITLE)
        self.title.setPlaceholderText("e.g. Offer for Whitfield & Crane LLP")
        self.title.setAccessibleName("Title of the offer sheet")
        self.title.setCursorPosition(len(TITLE))  # the customer's name is typed after it
        if last is not None and last.title and last.title != "Offer":  # the same customer again?
            self.title.setText(last.title)
            # (typing replaces the customer's name, "Offer for " kept; a title of one's own, whole)
            start = len(TITLE) if last.title.startswith(TITLE) and len(last.title) > len(TITLE) else 0
            self.title.setSelection(start, len(last.title) - start)
        form.addRow("&Title:", self.title)
        self.untitled = QLabel("")
        self.untitled.setObjectName("offer-untitled")
        self.untitled.setWordWrap(True)
        self.untitled.setTextFormat(Qt.TextFormat.PlainText)
        form.addRow("", self.untitled)
        self.note = QPlainTextEdit()
        self.note.setPlaceholderText("optional: a short personal note, printed under the title")
        self.note.setAccessibleName("Personal note")
        self.note.setTabChangesFocus(True)
        self.note.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        if last is not None and last.note:
            self.note.setPlainText(last.note)
            self.note.selectAll()
        form.addRow("&Note:", self.note)
        self.valid = QCheckBox("&Valid until")
        self.valid.setAccessibleName("The offer is valid until a date")
        self.until = QDateEdit(QDate.currentDate().addDays(30))
        self.until.setCalendarPopup(True)
        # written as every date in the window and the sheet (the one writer, ``time_text``)
        self.until.setDisplayFormat(time_text.long_date)
        self.until.setMinimumDate(QDate.currentDate())
        self.until.setEnabled(False)
        self.until.setAccessibleName("Valid until")
        self.valid.toggled.connect(self.until.setEnabled)
        if last is not None and last.valid_until is not None:  # (the same offer in another format)
            self.valid.setChecked(True)
            self.until.setDate(QDate(last.valid_until.year, last.valid_until.month, last.valid_until.day))
        row = QHBoxLayout()
        row.addWidget(self.valid)
        row.addWidget(self.until, 1)
        form.addRow("", row)
        self.zone = QComboBox()
        self.zone.setAccessibleName("Time zone for online events")
        self.zone.setToolTip("Webinars' times are given in this zone, with its UTC offset")
        self._fill_zones(remembered.customer_zone if remembered is not None else None)
        form.addRow("Online times &in:", self.zone)
        self.group = QComboBox()
        for label, value in GROUPS:
            self.group.addItem(label, value)
        self.group.setAccessibleName("Group the dates")
        if remembered is not None:
            self.group.setCurrentIndex(max(0, self.group.findData(remembered.group)))
        form.addRow("&Group:", self.group)
        self.paper = QComboBox()
        self.paper.addItems(list(PAPERS))
        paper = remembered.paper if remembered is not None else ""
        self.paper.setCurrentText(paper if paper in PAPERS else default_paper())
        self.paper.setAccessibleName("Paper size")
        form.addRow("&Paper:", self.paper)
        form.setRowVisible(self.group, sheet)  # (the sheet's alone: not a calendar's or spreadsheet's)
        form.setRowVisible(self.paper, sheet)
        layout.addLayout(form)
        self._say_untitled()
        self.title.textChanged.connect(lambda _text: self._say_untitled())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = buttons.addButton(action, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # Enter does the dialog's action. (Made default once the box is in the dialog: set before,
        # the box's show made its first button, Cancel, the default, and Enter cancelled.)
        self.go.setDefault(True)

    def _say_untitled(self) -> None:
        """Under the title, while it names no customer: what the offer will be titled."""
        shown = self.options().title == "Offer"
        self.untitled.setText(
            "No customer named: the offer will be titled just “Offer” (type the customer's name "
            "after “Offer for ”: it titles the offer and names its files)"
            if shown
            else ""
        )
        self.untitled.setVisible(shown)

    def _fill_zones(self, chosen: str | None) -> None:
        from datetime import UTC, datetime

        now = datetime.now(UTC)
        self.zone.addItem("As the service wrote them (UTC offset)", None)
        names = [zone for _label, zone in CUSTOMER_ZONES]
        if chosen and chosen not in names:
            names.insert(0, chosen)
        for zone in names:  # "CT — America/Chicago"; a zone whose label is its name once ("UTC")
            label, name = zone_label(zone, now), zone.replace("_", " ")
            self.zone.addItem(label if label == name else f"{label} — {name}", zone)
        self.zone.setCurrentIndex(max(0, self.zone.findData(chosen)) if chosen else 0)

    def options(self) -> SheetOptions:
        title = self.title.text().strip()
        until = self.until.date().toPython() if self.valid.isChecked() else None
        return SheetOptions(
            title if title and title != TITLE.strip() else "Offer",
            str(self.group.currentData()),
            self.paper.currentText(),
            self.note.toPlainText().strip(),
            until,  # type: ignore[arg-type]
            self.zone.currentData(),
        )

    def remember(self) -> None:
        if self.remembered is None:
            return
        options = self.options()
        self.remembered.paper = options.paper
        self.remembered.group = options.group
        if options.zone:
            self.remembered.customer_zone = options.zone

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        words: str,
        action: str,
        remembered: OfferSettings | None = None,
        *,
        sheet: bool = True,
        last: SheetOptions | None = None,
        time_text: TimeText = US_ENGLISH,
    ) -> SheetOptions | None:
        """The options chosen (remembered), or None if cancelled; ``sheet``: the sheet's grouping
        and paper asked too; ``last``: the answers given last in this window session;
        ``time_text``: how the window writes dates (the validity's)."""
        dialog = cls(parent, words, action, remembered, sheet=sheet, last=last, time_text=time_text)
        try:
            if not dialog.exec():
                return None
            dialog.remember()
            return dialog.options()
        finally:
            dialog.deleteLater()
