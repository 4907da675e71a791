"""Preferences ▸ Offers: the seller's letterhead (name, company, e-mail, phone, an optional logo
image), printed at the head of every offer sheet and under the e-mail text; and which time the
offers and the window give for a course whose time is written in an offset that is not its
venue's zone's (the clock time is right, the instant is right, or ask at the next offer)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from catalogue_desktop.core.offers.offer import CLOCK, INSTANT
from catalogue_desktop.core.offers.sheet import Letterhead, logo_problem
from catalogue_desktop.ui.common.file_dialogs import open_file_name
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.offers.offer_settings import KEEP_TIME, MOVE_TIME, OfferSettings

IMAGES = "Images (*.png *.jpg *.jpeg *.svg)"
TIME_CHOICES = (
    ("Ask at the next offer", None),
    (KEEP_TIME, CLOCK),  # (the offer's question's words)
    (MOVE_TIME, INSTANT),
)


class OffersPage(QGroupBox):
    """The letterhead's fields; ``save`` keeps them."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__("Offers: your letterhead", parent)
        self.setObjectName("preferences-offers")
        self.offer_settings = OfferSettings(settings)
        head = self.offer_settings.letterhead()
        form = QFormLayout(self)
        self.fields: dict[str, QLineEdit] = {}
        for key, label, hint in (
            ("name", "Your &name:", "e.g. Jane Seller"),
            ("company", "&Company:", "e.g. Whitfield Training"),
            ("email", "&E-mail:", "e.g. jane@example.com"),
            ("phone", "P&hone:", "e.g. +1 312 555 0100"),
        ):
            edit = QLineEdit(getattr(head, key))
            edit.setPlaceholderText(hint)
            edit.setAccessibleName(f"Letterhead: {label.replace('&', '').rstrip(':')}")
            form.addRow(label, edit)
            self.fields[key] = edit
        self.logo = QLineEdit(head.logo)
        self.logo.setPlaceholderText("optional: an image file, shown at the sheet's top left")
        self.logo.setAccessibleName("Letterhead: logo image file")
        browse = QPushButton("Choose…")
        browse.setAccessibleName("Choose a logo image")
        browse.clicked.connect(self._choose_logo)
        row = QHBoxLayout()
        row.addWidget(self.logo, 1)
        row.addWidget(browse)
        logo_label = QLabel("&Logo:")
        logo_label.setBuddy(self.logo)
        form.addRow(logo_label, row)
        self.times = QComboBox()
        for label, value in TIME_CHOICES:
            self.times.addItem(label, value)
        self.times.setCurrentIndex(max(0, self.times.findData(self.offer_settings.times)))
        self.times.setAccessibleName("Course times written in another offset")
        self.times.setToolTip(
            "When the service gives a course a time at a UTC offset the venue is not on that day "
            "(8:30 AM at UTC−06:00 for Chicago in July, when Chicago is on UTC−05:00): which part "
            "is right. The Dates tab, the details and the offers all give that time."
        )
        form.addRow("Doubtful &times:", self.times)

    def _choose_logo(self) -> None:
        start = self.logo.text() or self.offer_settings.folder
        path, _ = open_file_name(self, "Logo for the offer sheet", start, IMAGES)
        if path:
            self.logo.setText(path)

    def letterhead(self) -> Letterhead:
        logo = self.logo.text().strip()
        return Letterhead(
            **{key: edit.text().strip() for key, edit in self.fields.items()},
            logo=logo if logo and logo_problem(logo) is None else "",
        )

    def save(self) -> None:
        self.offer_settings.set_letterhead(self.letterhead())
        self.offer_settings.times = self.times.currentData()
