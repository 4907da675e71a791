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
zone when Preferences say so; fees with the currency chosen in Preferences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from catalogue_desktop.core.cache.store import CollectionState
from catalogue_desktop.core.listing.rows import DATES, column_index
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.sheet import Sheet
from catalogue_desktop.core.records.kinds import Kind

_TITLE = column_index(DATES, "title")
_RECORD = column_index(DATES, "record")
BIG_SHEET = 300  # occasions: a sheet of more asks first (about 6 a page)


class OfferSource(NamedTuple):
    """What the offers need besides the tab's rows (the window gives it)."""

    engine: Callable[[], Any]  # the finder (None until made): its ``offerings`` table's columns
    states: Callable[[], Mapping[Kind, CollectionState]]  # the store's collections (the data's age)
    max_age_days: Callable[[], int]  # warn before an offer from data older than this


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

    # -- what an offer is made of -------------------------------------------------------------

    def chosen(self) -> Chosen | None:
        """The selected occasions, or all the query shows; None (saying why) if there are none
        or the rows are being made again."""
        from catalogue_desktop.ui.browse.table_rows import selected_view_rows

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
        if chosen is None or not self.fresh_enough(chosen):
            return None
        return chosen

    # -- the offers ------------------------------------------------------------------------------

    def offer(self, what: str) -> Any:
        """Make the offer ``what``: "pdf", "print", "ics" or "copy"."""
        return {"pdf": self.save_sheet, "print": self.print_sheet, "ics": self.save_ics, "copy": self.copy}[
            what
        ]()

    def copy(self) -> int:
        """Copy the occasions as lines of text and as an HTML table (one line or row each:
        title — date — city — fee — credits — link), with the data's age; returns how many."""
        chosen = self._prepared()
        if chosen is None:
            return 0
        as_of, style = self.formatter.data_time(chosen.as_of), self._style()
        mime = QMimeData()
        mime.setText(offers.email_text(chosen.items, as_of, **style))
        mime.setHtml(offers.email_html(chosen.items, as_of, **style))
        QApplication.clipboard().setMimeData(mime)
        self.say(f"Copied {chosen.words} for an e-mail (text and table)")
        return len(chosen.items)

    def save_ics(self) -> Path | None:
        chosen = self._prepared()
        if chosen is None:
            return None
        events = offers.dated(chosen.items)
        if not events:
            self.say(f"No calendar file: {chosen.words} are on demand, with no date")
            return None
        path = ask_path(
            self.tab,
            f"Calendar file of {chosen.words}",
            f"offer-{date.today()}.ics",
            "Calendar files (*.ics)",
        )
        if path is None:
            return None
        calendar = offers.calendar_file(
            chosen.items, self.formatter.data_time(chosen.as_of), fee_text=self.formatter.money
        )
        if not self._write(path, calendar.text.encode("utf-8")):
            return None
        left = len(chosen.items) - events
        self.say(
            f"Wrote {events:,} event{'s' if events != 1 else ''} of {chosen.words} to {path}"
            + (f" ({left:,} on demand, with no date, left out)" if left else "")
            + "".join(f"; {note}" for note in calendar.notes)
        )
        return path

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
        return SheetDialog.ask(self.tab, chosen.words, action)

    def _sheet(self, chosen: Chosen, options: Any) -> tuple[Sheet, str]:
        as_of = self.formatter.data_time(chosen.as_of)
        style = {**self._style(), "until_text": self.formatter.occasion_until}
        sheet = Sheet(chosen.items, as_of, group=options.group, title=options.title, **style)
        return sheet, offers.age_line(as_of)

    def save_sheet(self) -> Path | None:
        chosen = self._prepared()
        options = None if chosen is None else self._sheet_options(chosen, "Save PDF…")
        if chosen is None or options is None:
            return None
        path = ask_path(
            self.tab, f"Offer sheet of {chosen.words}", f"offer-{date.today()}.pdf", "PDF files (*.pdf)"
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

    def _style(self) -> dict[str, Any]:
        """Dates and fees as the window shows them (its formatter: the event's offset or local
        time, labelled, the locale's clock; the chosen currency)."""
        f = self.formatter
        return {"local": not f.event_zones, "fee_text": f.money, "when_text": f.occasion_start}

    def _write(self, path: Path, data: bytes) -> bool:
        tmp = path.with_name(path.name + ".part")
        try:
            tmp.write_bytes(data)
            tmp.replace(path)
        except OSError as exc:
            QMessageBox.warning(self.tab, "Offer not saved", f"Cannot write {path}: {exc.strerror or exc}")
            return False
        finally:
            tmp.unlink(missing_ok=True)
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


def ask_path(parent: QWidget, caption: str, name: str, filters: str) -> Path | None:
    """Where to save (in the documents folder unless the user goes elsewhere); None: cancelled."""
    from PySide6.QtCore import QStandardPaths

    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    path, _ = QFileDialog.getSaveFileName(parent, caption, str(Path(folder or ".") / name), filters)
    if not path:
        return None
    suffix = Path(name).suffix
    out = Path(path)
    return out if out.suffix.lower() == suffix else out.with_name(out.name + suffix)


def _days(age: timedelta) -> str:
    days = age.days
    return f"{days} day{'s' if days != 1 else ''}" if days else f"{age.seconds // 3600} hours"
