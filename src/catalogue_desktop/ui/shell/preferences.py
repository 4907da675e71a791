"""Preferences (Catalogue ▸ Preferences…): what the spec leaves to the user and how things show.

* Webinar type codes: a label for each (``1`` → "On demand", ``2`` → "Live") and which codes are
  on demand (bookable at any time: never shown as past, no date on the Dates tab). Codes seen in
  the catalogue are listed; any other can be added.
* Dates and times: as the service wrote them, in the event's own UTC offset, or in local time.
* The currency of fees, and the age of the data past which an offer is warned about.
* Offers: the seller's letterhead (``ui.offers.preferences_page``).

Three tabs (General, Offers, Refresh and history), the connection's button beside OK: the dialog
fits a 1024x700 screen with its buttons on it.

``apply(window, settings, …)`` is the session's: it shows the changes everywhere at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.formats import currencies
from catalogue_desktop.ui.common.colors import error as error_color
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.sync.over_time import OverTimeBox

if TYPE_CHECKING:
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.vocabulary import Vocabulary


class Preferences(QDialog):
    def __init__(
        self,
        settings: Settings,
        vocabulary: Vocabulary,
        codes_seen: list[str],
        parent: QWidget | None = None,
        *,
        catalogue: str | None = None,
    ) -> None:
        """``catalogue``: the name of the catalogue open (its connection is the one edited)."""
        super().__init__(parent)
        self.catalogue = catalogue
        self.setWindowTitle("Preferences")
        self.settings = settings
        from catalogue_desktop.ui.shell.window_layout import fit_to_screen

        fit_to_screen(self, parent, 600, 520)
        layout = QVBoxLayout(self)
        # Three tabs, so that the dialog fits a 1024x700 screen with its buttons on it (all in one
        # column it was 731 px tall): how things show, offers, refreshing and history.
        self.tabs = tabs = QTabWidget()
        tabs.setObjectName("preferences-tabs")
        general_page, offers_page, refresh_page = QWidget(), QWidget(), QWidget()
        general, offers_box, refresh = (QVBoxLayout(w) for w in (general_page, offers_page, refresh_page))
        tabs.addTab(general_page, "&General")
        tabs.addTab(offers_page, "O&ffers")
        tabs.addTab(refresh_page, "&Refresh and history")
        layout.addWidget(tabs, 1)

        types = QGroupBox("Webinar types (the service sends numbers without saying what they mean)")
        box = QVBoxLayout(types)
        self.types = QTableWidget(0, 3)
        self.types.setObjectName("type-labels")
        self.types.setAccessibleName("Webinar type codes")
        self.types.setAccessibleDescription("Each code's label, and whether it means on demand")
        self.types.setHorizontalHeaderLabels(["Code", "Label", "On demand"])
        self.types.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.types.verticalHeader().hide()
        codes = sorted(
            set(codes_seen) | set(vocabulary.type_labels) | set(vocabulary.on_demand),
            key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c),
        )
        for code in codes:  # a code without a label of the user's shows the one the window uses
            self._add_row(code, vocabulary.label("type", code), code in vocabulary.on_demand)
        add = QPushButton("Add a code")
        add.setAccessibleName("Add a webinar type code")
        add.clicked.connect(lambda: self._add_row("", "", False, edit=True))
        box.addWidget(self.types)
        box.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
        general.addWidget(types, 1)

        times = QGroupBox("Dates and times")
        times_box = QVBoxLayout(times)
        self.event_zone = QRadioButton("As the service wrote them, in the event's own UTC offset")
        self.local_zone = QRadioButton("In my local time zone")
        self.event_zone.setObjectName("event-zone")
        self.local_zone.setObjectName("local-zone")
        group = QButtonGroup(self)
        for button in (self.event_zone, self.local_zone):
            group.addButton(button)
            times_box.addWidget(button)
        (self.event_zone if settings.event_zones else self.local_zone).setChecked(True)
        general.addWidget(times)

        form = QFormLayout()
        self.currency = QLineEdit(settings.currency or "")
        self.currency.setPlaceholderText("e.g. USD, EUR; empty: plain numbers")
        self.currency.setAccessibleName("Currency of fees")
        form.addRow("Currency of fees:", self.currency)
        # Only an ISO 4217 code reaches a customer's document (``core.formats.currencies``): what
        # is typed is read at once, and a value stored before that is none is shown, said so.
        self.currency_problem = QLabel()
        self.currency_problem.setObjectName("currency-problem")
        self.currency_problem.setWordWrap(True)
        self.currency_problem.setTextFormat(Qt.TextFormat.PlainText)
        red = error_color(self.palette()).name()
        self.currency_problem.setStyleSheet(f"QLabel {{ color: {red}; }}")
        form.addRow("", self.currency_problem)
        self.currency.textChanged.connect(self._check_currency)
        self._check_currency(self.currency.text(), stored=True)
        general.addLayout(form)
        offer_form = QFormLayout()
        self.max_age = QSpinBox()
        self.max_age.setRange(0, 365)
        self.max_age.setSuffix(" days")
        self.max_age.setValue(settings.offer_max_age_days)
        self.max_age.setAccessibleName("Warn before an offer from data older than")
        offer_form.addRow("Warn before an offer from data older than:", self.max_age)
        from catalogue_desktop.ui.offers.preferences_page import OffersPage

        self.offers = OffersPage(settings, self)
        offers_box.addWidget(self.offers)
        offers_box.addLayout(offer_form)
        offers_box.addStretch(1)
        refresh_form = QFormLayout()
        self.timeout = QSpinBox()
        self.timeout.setRange(5, 3600)
        self.timeout.setSuffix(" s")
        self.timeout.setValue(int(settings.sync_timeout))
        self.timeout.setAccessibleName("Give up on a collection after")
        refresh_form.addRow("Give up on a collection after:", self.timeout)
        refresh.addLayout(refresh_form)
        self.over_time = OverTimeBox(settings)  # (``show_history``: the catalogue's history span)
        refresh.addWidget(self.over_time)
        refresh.addStretch(1)
        connection = QPushButton("Connection…")  # Preferences ▸ Connection (ui.shell.connection_dialog)
        connection.setAccessibleName("Connection: certificates, proxy, credentials, Test")
        connection.clicked.connect(self.connection_dialog)
        self.connection_saved = False

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        bottom = QHBoxLayout()  # (the open catalogue's connection: on every tab)
        bottom.addWidget(connection)
        bottom.addWidget(buttons, 1)
        layout.addLayout(bottom)

    def _check_currency(self, text: str, *, stored: bool = False) -> str:
        """Say under the field why ``text`` is not a currency (``stored``: the value set before,
        which the window does not use); the problem, "" for none."""
        problem = currencies.read(text).problem
        if problem and stored:
            problem += ". Until one is set, fees are shown as plain numbers and offers ask for it"
        self.currency_problem.setText(f"{problem}." if problem and not problem.endswith(".") else problem)
        self.currency_problem.setVisible(bool(problem))
        return problem

    def accept(self) -> None:
        """OK, unless the currency typed is none (said under it, the field given the focus)."""
        if self._check_currency(self.currency.text()):
            self.tabs.setCurrentIndex(0)
            self.currency.setFocus()
            self.currency.selectAll()
            return
        super().accept()

    def connection_dialog(self) -> None:
        """The connection of the catalogue open in the window (``catalogue``)."""
        from catalogue_desktop.ui.shell.connection_dialog import ConnectionDialog

        dialog = ConnectionDialog(self.settings.profiles_path, self.catalogue, self)
        self.connection_saved |= dialog.exec() == QDialog.DialogCode.Accepted

    def _add_row(self, code: str, label: str, on_demand: bool, *, edit: bool = False) -> None:
        row = self.types.rowCount()
        self.types.insertRow(row)
        code_item = QTableWidgetItem(code)
        if code and not edit:
            code_item.setFlags(code_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.types.setItem(row, 0, code_item)
        self.types.setItem(row, 1, QTableWidgetItem(label))
        check = QTableWidgetItem()
        flags = Qt.ItemFlag
        check.setFlags(flags.ItemIsUserCheckable | flags.ItemIsEnabled | flags.ItemIsSelectable)
        check.setCheckState(Qt.CheckState.Checked if on_demand else Qt.CheckState.Unchecked)
        self.types.setItem(row, 2, check)
        if edit:
            self.types.setCurrentCell(row, 0)
            self.types.editItem(code_item)

    def values(self) -> tuple[dict[str, str], set[str]]:
        """(code -> label, codes on demand) as entered."""
        labels: dict[str, str] = {}
        on_demand: set[str] = set()
        for row in range(self.types.rowCount()):
            code_item, label_item, check = (self.types.item(row, c) for c in range(3))
            code = (code_item.text() if code_item is not None else "").strip()
            if not code:
                continue
            labels[code] = (label_item.text() if label_item is not None else "").strip()
            if check is not None and check.checkState() == Qt.CheckState.Checked:
                on_demand.add(code)
        return labels, on_demand

    def save(self) -> None:
        labels, on_demand = self.values()
        self.settings.set_vocabulary(labels, on_demand)
        self.settings.event_zones = self.event_zone.isChecked()
        self.settings.currency = currencies.read(self.currency.text()).code  # ("euro": EUR)
        self.settings.offer_max_age_days = self.max_age.value()
        self.offers.save()
        self.over_time.save()
        self.settings.sync_timeout = self.timeout.value()
        self.settings.sync()


def codes_seen(finder: Finder) -> list[str]:
    """The webinar type codes the loaded catalogue uses."""
    found: set[str] = set()
    for name in ("webinars", "series"):
        table = finder.tables.get(name)
        for t in (table, None if table is None else table.child):
            if t is not None and "type" in t.columns:
                found |= {str(v) for v in t.columns["type"] if v is not None}
    return sorted(found)
