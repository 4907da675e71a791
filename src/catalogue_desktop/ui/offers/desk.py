"""The offers made from the Dates tab: the offer sheet as a PDF or printed (through a print
preview), a calendar file (.ics), and the rows copied for an e-mail (plain text and an HTML table).

Each acts on the selected rows, or on every row the query shows when none is selected, and says
which ("3 selected occasions", "all 57 occasions the query shows"). The occasions are read from
the offerings' columns the tab's rows were made from (``OfferSource.engine``: the finder's
``offerings`` table). Every output names the data's age (``core.offers.occasions.age_line``); when the data
is older than the limit set in Preferences (``offer_max_age_days``, 7 days by default), a message
box asks before the first offer made from it (once per copy of the data: a refresh that brings
newer data asks again when that is old too).

Dates are written as the service wrote them, in the event's own UTC offset, or in the viewer's
zone when Preferences say so; on the sheet with a zone the customer knows (``core.offers.text``).
Fees carry the currency chosen in Preferences: when none is set, the first offer asks for it
once (remembered). Save dialogs start in the folder last used (the documents folder the first
time) and propose a name from the title and the months ("Offer for Acme (Dec 2026).pdf").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

from PySide6.QtCore import QLocale, QMimeData, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QMessageBox, QWidget

from catalogue_desktop.core.cache.store import CollectionState
from catalogue_desktop.core.formats.files import write_file
from catalogue_desktop.core.listing.rows import DATES, column_index
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import Sheet
from catalogue_desktop.core.offers.text import Style, file_name
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.qt_compat.clipboard import put_mime_data

_TITLE = column_index(DATES, "title")
_RECORD = column_index(DATES, "record")
BIG_SHEET = 300  # occasions: a sheet of more asks first (about 6 a page)


class OfferSource(NamedTuple):
    """What the offers need besides the tab's rows (the window gives it)."""

    engine: Callable[[], Any]  # the finder (None until made): its ``offerings`` table's columns
    states: Callable[[], Mapping[Kind, CollectionState]]  # the store's collections (the data's age)
    max_age_days: Callable[[], int]  # warn before an offer from data older than this
    settings: Any = None  # the window's Settings: the currency, and what offers remember
    store: Callable[[], Any] | None = None  # the window's store: the courses' schedules


class Chosen(NamedTuple):
    items: list[offers.Occasion]
    words: str  # "3 selected occasions", "all 57 occasions the query shows"
    as_of: str | None  # the data's time (ISO 8601, ``core.offers.occasions.data_as_of``)


class OfferDesk:
    """The offers of one Dates tab (see the module doc)."""

    def __init__(self, tab: Any, source: OfferSource, formatter: Any) -> None:
        self.tab = tab
        self.source = source
        self.formatter = formatter
        self._accepted: set[str | None] = set()  # data times the user chose to offer from anyway
        self._preview_printer: object = None  # the last print preview's QPrinter, kept alive with it
        self._records: tuple[str, list[int]] | None = None  # (table, ids): an offer of whole records

    # -- what an offer is made of -------------------------------------------------------------

    def chosen(self) -> Chosen | None:
        """The selected occasions, or all the query shows (or, for an offer of whole records,
        their upcoming occasions); None (saying why) if there are none or the rows are being
        made again."""
        from catalogue_desktop.ui.browse.table_rows import selected_view_rows

        if self._records is not None:
            return self._chosen_of_records(*self._records)

        model = self.tab.model
        rows = selected_view_rows(self.tab.view)
        selected = bool(rows)
        if not rows:
            rows = list(range(model.rowCount()))
        if not rows or model.loading:
            self.say(
                "No occasions to offer: the Dates tab shows none"
                if not rows
                else "The Dates are still being read; try again in a moment"
            )
            return None
        engine = self.source.engine()
        table = engine.tables.get(DATES.value) if engine is not None else None
        keys = [model.record_id(r) for r in rows]
        if table is None or not self._matches(table.columns, keys, rows):
            self.say("The Dates are being made again from the refreshed catalogue; try again in a moment")
            return None
        n = len(keys)
        words = (
            f"{n:,} selected occasion{'s' if n != 1 else ''}"
            if selected
            else f"all {n:,} occasion{'s' if n != 1 else ''} the query shows"
        )
        items = offers.occasions(table.columns, keys)
        return Chosen(items, words, offers.data_as_of(self.source.states()))

    def _chosen_of_records(self, table: str, ids: list[int]) -> Chosen | None:
        """The upcoming occasions of the selected series, courses or webinars
        (``core.offers.of_records``), in the order of their dates."""
        from datetime import UTC, datetime

        from catalogue_desktop.core.offers.of_records import rows_of

        engine = self.source.engine()
        found = engine.tables.get(DATES.value) if engine is not None else None
        if found is None:
            self.say("The Dates are still being made; try again in a moment")
            return None
        n = len(ids)
        what = {"series": "series", "courses": "course", "webinars": "webinar"}[table]
        records = f"{n:,} selected {what}{'s' if n != 1 and what != 'series' else ''}"
        rows = rows_of(found.columns, table, ids, datetime.now(UTC))
        if not rows:
            self.say(f"No offer made: the {records} {'have' if n != 1 else 'has'} no upcoming dates")
            return None
        items = offers.by_start(offers.occasions(found.columns, rows))
        count = len(items)
        words = f"{count:,} upcoming occasion{'s' if count != 1 else ''} of the {records}"
        return Chosen(items, words, offers.data_as_of(self.source.states()))

    def _matches(self, found: Mapping[str, list[Any]], keys: Sequence[int], rows: Sequence[int]) -> bool:
        """Whether the rows shown were made from ``found`` (the finder's table is replaced, with
        the tab's rows, when a refresh changed courses, series or webinars)."""
        model = self.tab.model
        n = len(found["id"])
        for key, row in zip(keys, rows, strict=True):
            values = model.rowset.rows[model.source_row(row)]
            if (
                not 0 <= key < n
                or found["id"][key] != values[_RECORD]
                or (found["title"][key] or None) != (values[_TITLE] or None)
            ):
                return False
        return True

    def fresh_enough(self, chosen: Chosen) -> bool:
        """True unless the data is older than the limit (or of unknown age) and the user, asked,
        chose not to go on."""
        limit = self.source.max_age_days()
        age = offers.age(chosen.as_of)
        if (age is not None and age <= timedelta(days=limit)) or chosen.as_of in self._accepted:
            return True
        if age is None:
            text = "The catalogue's data is of unknown age."
        else:
            text = (
                f"The catalogue was last confirmed by the service {_days(age)} ago "
                f"({self.formatter.data_time(chosen.as_of)}), more than the {limit} day"
                f"{'s' if limit != 1 else ''} set in Preferences."
            )
        text += (
            "\n\nFees and dates may have changed since. Refresh the catalogue first "
            "(Catalogue ▸ Refresh, F5), or make the offer from this data? It will say how old "
            "the data is."
        )
        if not ask_to_continue(self.tab, text):
            self.say("No offer made: the catalogue's data is older than the limit")
            return False
        self._accepted.add(chosen.as_of)
        return True

    def _prepared(self) -> Chosen | None:
        chosen = self.chosen()
        if chosen is None or not self.fresh_enough(chosen) or not self.currency_known():
            return None
        return chosen

    def currency_known(self) -> bool:
        """True once fees have a currency: when none is set, asks for it (once: remembered, as
        in Preferences); False if the user cancels."""
        if self.formatter.currency:
            return True
        suggested = (
            self.formatter.locale.currencySymbol(QLocale.CurrencySymbolFormat.CurrencyIsoCode) or "USD"
        )
        code, ok = QInputDialog.getText(
            self.tab,
            "Currency of fees",
            "The catalogue does not say which currency its fees are in.\n"
            "Which currency should offers show? (Remembered; Preferences can change it.)",
            text=suggested,
        )
        code = " ".join(code.split()).upper()[:8] if ok else ""
        if not code:
            self.say("No offer made: offers need the fees' currency")
            return False
        self.formatter.set_currency(code)
        if self.source.settings is not None:
            self.source.settings.currency = code
            self.source.settings.sync()
        self.tab.model.layoutChanged.emit()  # the fees shown with it at once
        return True

    @property
    def remembered(self) -> Any:
        """What offers remember (``offer_settings.OfferSettings``); None without settings."""
        if self.source.settings is None:
            return None
        from catalogue_desktop.ui.offers.offer_settings import OfferSettings

        return OfferSettings(self.source.settings)

    # -- the offers ------------------------------------------------------------------------------

    def offer(self, what: str, records: tuple[str, list[int]] | None = None) -> Any:
        """Make the offer ``what``: "pdf", "print", "ics" or "copy"; of the Dates tab's rows, or
        of ``records`` (a tab's name, "series", "courses" or "webinars", and the ids selected
        there): their upcoming occasions."""
        make = {"pdf": self.save_sheet, "print": self.print_sheet, "ics": self.save_ics, "copy": self.copy}[
            what
        ]
        self._records = records
        try:
            return make()
        finally:
            self._records = None

    def copy(self) -> int:
        """Copy the occasions as lines of text and as an HTML table (``core.offers.mail``: one
        line or row each: title — dates and times with a zone — venue and address, or Online —
        fee — credits — link), with the signature and the data's age; returns how many."""
        from catalogue_desktop.core.offers import mail

        chosen = self._prepared()
        if chosen is None:
            return 0
        as_of = offers.as_of_text(chosen.as_of, self.hour12)
        remembered = self.remembered
        style = self.text_style(remembered.customer_zone if remembered is not None else None)
        letterhead = remembered.letterhead() if remembered is not None else None
        mime = QMimeData()
        mime.setText(mail.plain(chosen.items, as_of, style, letterhead))
        mime.setHtml(mail.table(chosen.items, as_of, style, letterhead))
        put_mime_data(mime)
        self.say(f"Copied {chosen.words} for an e-mail (text and table)")
        return len(chosen.items)

    def save_ics(self) -> Path | None:
        """The calendar file (``core.offers.calendar``): an event per day a course meets (its
        schedule's hours), one per other dated occasion."""
        from catalogue_desktop.core.offers import calendar

        chosen = self._prepared()
        if chosen is None:
            return None
        dated = offers.dated(chosen.items)
        if not dated:
            self.say(f"No calendar file: {chosen.words} are on demand, with no date")
            return None
        path = ask_path(
            self.tab,
            f"Calendar file of {chosen.words}",
            file_name("Offer", chosen.items, ".ics"),
            "Calendar files (*.ics)",
            self.remembered,
        )
        if path is None:
            return None
        remembered = self.remembered
        schedules = self._schedules(chosen.items)
        written = calendar.calendar_file(
            chosen.items,
            offers.as_of_text(chosen.as_of, self.hour12),
            style=self.text_style(remembered.customer_zone if remembered is not None else None),
            schedules=schedules,
        )
        if not self._write(path, written.text.encode("utf-8")):
            return None
        left = len(chosen.items) - dated
        events = written.events
        self.say(
            f"Wrote {events:,} event{'s' if events != 1 else ''} of {chosen.words} to {path}"
            + (" (a day each for courses of several days)" if events != dated else "")
            + (f" ({left:,} on demand, with no date, left out)" if left else "")
            + "".join(f"; {note}" for note in written.notes)
        )
        return path

    def _schedules(self, items: Sequence[offers.Occasion]) -> dict[Any, Any]:
        """The schedules of the courses among ``items``, from the window's store."""
        if self.source.store is None:
            return {}
        from catalogue_desktop.core.offers.days import schedules

        return schedules(self.source.store(), [o.id for o in items if o.kind == "course"])

    def _sheet_options(self, chosen: Chosen, action: str) -> Any:
        from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog

        n = len(chosen.items)
        if n > BIG_SHEET and not ask_to_continue(
            self.tab,
            f"An offer sheet of {chosen.words} would be about {n // 6 + 1:,} pages. "
            "Select the occasions to offer (or narrow the query) to make a shorter one.\n\n"
            "Make it anyway?",
        ):
            return None
        return SheetDialog.ask(self.tab, chosen.words, action, self.remembered)

    def _sheet(self, chosen: Chosen, options: Any) -> tuple[Sheet, str]:
        as_of = offers.as_of_text(chosen.as_of, self.hour12)
        remembered = self.remembered
        sheet = Sheet(
            chosen.items,
            as_of,
            group=options.group,
            title=options.title,
            style=self.text_style(options.zone),
            letterhead=remembered.letterhead(self.say) if remembered is not None else None,
            note=options.note,
            valid_until=options.valid_until,
        )
        return sheet, offers.age_line(as_of)

    def text_style(self, customer_zone: str | None) -> Style:
        """Fees and times as offers write them: the window's currency, the locale's clock, online
        times in ``customer_zone``, everything in local time if Preferences say so."""
        return Style(
            fee_text=self.formatter.money,
            hour12=self.hour12,
            customer_zone=customer_zone,
            local=not self.formatter.event_zones,
        )

    @property
    def hour12(self) -> bool:
        """Whether the locale writes times with AM/PM (as the window shows them)."""
        return "a" in self.formatter.locale.timeFormat(QLocale.FormatType.ShortFormat).lower()

    def save_sheet(self) -> Path | None:
        chosen = self._prepared()
        options = None if chosen is None else self._sheet_options(chosen, "Save PDF…")
        if chosen is None or options is None:
            return None
        path = ask_path(
            self.tab,
            f"Offer sheet of {chosen.words}",
            file_name(options.title, chosen.items, ".pdf"),
            "PDF files (*.pdf)",
            self.remembered,
        )
        if path is None:
            return None
        from catalogue_desktop.ui.offers import sheet_pdf

        sheet, footer = self._sheet(chosen, options)
        # (a noticeable wait for a long sheet: docs/decisions.md, "Detail pane and offers")
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            data = sheet_pdf.pdf_bytes(sheet, options.title, footer, options.paper)
        finally:
            QApplication.restoreOverrideCursor()
        if not self._write(path, data):
            return None
        self.say(f"Wrote the offer sheet of {chosen.words} ({options.paper}) to {path}")
        return path

    def print_sheet(self) -> Any:
        """The print preview of the offer sheet (print from it); returns the dialog once closed."""
        chosen = self._prepared()
        options = None if chosen is None else self._sheet_options(chosen, "Preview…")
        if chosen is None or options is None:
            return None
        from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

        from catalogue_desktop.ui.offers import sheet_pdf

        sheet, footer = self._sheet(chosen, options)
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(sheet_pdf.page_layout(options.paper))
        printer.setDocName(options.title)
        dialog = QPrintPreviewDialog(printer, self.tab)
        dialog.setWindowTitle(f"Print preview — {options.title} ({chosen.words})")
        dialog.paintRequested.connect(lambda device: sheet_pdf.paint(sheet, device, footer))
        self._preview_printer = printer  # (the dialog does not own it)
        dialog.exec()
        self.say(f"Offer sheet of {chosen.words}: print preview closed")
        return dialog

    # -- helpers ---------------------------------------------------------------------------------

    def _write(self, path: Path, data: bytes) -> bool:
        try:
            write_file(path, lambda out: out.write(data))
        except OSError as exc:
            QMessageBox.warning(self.tab, "Offer not saved", f"Cannot write {path}: {exc.strerror or exc}")
            return False
        return True

    def say(self, text: str) -> None:
        self.tab.message.emit(text)


def ask_to_continue(parent: QWidget, text: str) -> bool:
    """A warning with Continue and Cancel (Cancel the default); True if Continue was chosen."""
    box = QMessageBox(
        QMessageBox.Icon.Warning, "Catalogue Desktop", text, QMessageBox.StandardButton.Cancel, parent
    )
    go = box.addButton("Continue", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is go


def ask_path(parent: QWidget, caption: str, name: str, filters: str, remembered: Any = None) -> Path | None:
    """Where to save: the dialog starts in the folder last used (the documents folder the first
    time) with ``name`` proposed, and the folder chosen is remembered; None: cancelled."""
    if remembered is not None:
        folder = remembered.folder
    else:
        from PySide6.QtCore import QStandardPaths

        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    path, _ = QFileDialog.getSaveFileName(parent, caption, str(Path(folder or ".") / name), filters)
    if not path:
        return None
    suffix = Path(name).suffix
    out = Path(path)
    out = out if out.suffix.lower() == suffix else out.with_name(out.name + suffix)
    if remembered is not None:
        remembered.folder = str(out.parent)
    return out


def _days(age: timedelta) -> str:
    days = age.days
    return f"{days} day{'s' if days != 1 else ''}" if days else f"{age.seconds // 3600} hours"
