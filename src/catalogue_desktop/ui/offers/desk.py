"""The offers made from the Dates tab: the offer sheet as a PDF or printed (through a print
preview), a calendar file (.ics), a spreadsheet (.xlsx), and the rows copied for an e-mail (plain
text and an HTML table). Each is one offer (``core.offers.offer.make``) rendered in its format.

Each acts on the selected rows, or on every row the query shows when none is selected, and says
which ("3 selected dates", "all 57 dates the query shows"; while the query box's text has an error
the tables show the last valid query, and the offer names it: ``OfferSource.shown_query``). The
occasions are read from the offerings' columns the tab's rows were made from
(``OfferSource.engine``: the finder's ``offerings`` table). Every output names the data's age
(``core.offers.occasions.age_line``); when the data is older than the limit set in Preferences
(``offer_max_age_days``, 7 days by default), a message box asks before the first offer made from it
(once per copy of the data: a refresh that brings newer data asks again when that is old too).

A course's times are at its venue, in its zone, whatever the window shows (its display
preference is the seller's); online times in the zone picked for the customer. A course time
written in an offset that is not its venue's zone's is the seller's doubt: before the first offer
of one, the seller is told which occasions and chooses which is right, the clock time or the
instant written (``times``: remembered, Preferences ▸ Offers; the window then shows those times
so too, ``Formatter.doubtful_times``). Before every offer,
the e-mail copy too, the offer's dialog asks its title (the customer), note, validity and customer
zone (``sheet_dialog``), opening with the last answers in this window (one voice:
dates in date order in every format). Fees
carry the currency chosen in Preferences: when none is set, the first offer asks for it once
(remembered). Save dialogs start in the folder last used (the documents folder the first time)
and propose a name from the title and the months ("Offer for Acme (Dec 2026).pdf").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Unpack

from PySide6.QtCore import QLocale, QMimeData, Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox, QWidget

from catalogue_desktop.core.cache.store import CollectionState
from catalogue_desktop.core.formats.files import write_file
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers import offer as the_offer  # (``offer`` is the desk's method)
from catalogue_desktop.core.offers.sheet import Letterhead
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from catalogue_desktop.qt_compat.clipboard import put_mime_data
from catalogue_desktop.ui.common.file_dialogs import save_file_name
from catalogue_desktop.ui.offers.offer_settings import KEEP_TIME, MOVE_TIME

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.offers.offer_settings import OfferSettings
    from catalogue_desktop.ui.offers.sheet_dialog import SheetOptions

_TITLE = column_index(OCCASIONS, "title")
_RECORD = column_index(OCCASIONS, "record")
BIG_SHEET = 300  # occasions: a sheet of more asks first (about 6 a page)


class OfferSource(NamedTuple):
    """What the offers need besides the tab's rows (the window gives it)."""

    engine: Callable[[], Finder | None]  # the finder (None until made): its ``offerings`` table's columns
    states: Callable[[], Mapping[Kind, CollectionState]]  # the store's collections (the data's age)
    max_age_days: Callable[[], int]  # warn before an offer from data older than this
    settings: Settings | None = None  # the currency, and what offers remember
    store: Callable[[], Store] | None = None  # the window's store: the courses' schedules
    about: Callable[[], list[str]] | None = None  # the catalogue and query (the spreadsheet's About)
    redraw: Callable[[], None] | None = None  # every table and open details shown again (the currency)
    # while the query box's text has an error: the last valid query, which the tables show
    shown_query: Callable[[], str | None] | None = None


class Chosen(NamedTuple):
    items: list[offers.Occasion]
    words: str  # "3 selected dates", "all 57 dates the query shows"
    as_of: str | None  # the data's time (ISO 8601, ``core.offers.occasions.data_as_of``)


class OfferDesk:
    """The offers of one Dates tab (see the module doc)."""

    def __init__(self, tab: CollectionTab, source: OfferSource, formatter: Formatter) -> None:
        """``tab``: the Dates tab (``dates_tab.DatesTab``, which makes its desk)."""
        self.tab = tab
        self.source = source
        self.formatter = formatter
        self._accepted: set[str | None] = set()  # data times the user chose to offer from anyway
        self._preview_printer: object = None  # the last print preview's QPrinter, kept alive with it
        self._records: tuple[str, list[int]] | None = None  # (table, ids): an offer of whole records
        self.options: SheetOptions | None = None  # the offer dialog's last answers

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
                "No dates to offer: the Dates tab shows none"
                if not rows
                else "The Dates are still being read; try again in a moment"
            )
            return None
        engine = self.source.engine()
        table = engine.tables.get(OCCASIONS.value) if engine is not None else None
        keys = [model.record_id(r) for r in rows]
        if table is None or not self._matches(table.columns, keys, rows):
            self.say("The Dates are being made again from the refreshed catalogue; try again in a moment")
            return None
        n = len(keys)
        words = (
            f"{n:,} selected date{'s' if n != 1 else ''}"
            if selected
            else f"all {n:,} date{'s' if n != 1 else ''} {self._query_words()}"
        )
        items = offers.occasions(table.columns, keys)
        return Chosen(items, words, offers.data_as_of(self.source.states()))

    def _query_words(self) -> str:
        """Which query the rows shown come from: "the query shows", or, while the box's text has
        an error (the tables keep the last valid query), that query named."""
        shown = self.source.shown_query() if self.source.shown_query is not None else None
        if shown is None:
            return "the query shows"
        if not shown:
            return "shown with no query (the query in the box has an error and is not used)"
        return f"of the last valid query, “{shown}” (the query in the box has an error and is not used)"

    def _chosen_of_records(self, table: str, ids: list[int]) -> Chosen | None:
        """The upcoming occasions of the selected series, courses or webinars
        (``core.offers.of_records``), in the order of their dates."""
        from datetime import UTC, datetime

        from catalogue_desktop.core.offers.of_records import rows_of

        engine = self.source.engine()
        found = engine.tables.get(OCCASIONS.value) if engine is not None else None
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
        words = f"{count:,} upcoming date{'s' if count != 1 else ''} of the {records}"
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
        in Preferences), an ISO 4217 code only (``core.formats.currencies``: "dollars" is asked
        again, with the codes it may mean; a value stored before that is none is named); False
        if the user cancels."""
        if self.formatter.currency:
            return True
        from catalogue_desktop.core.formats import currencies

        suggested = (
            self.formatter.locale.currencySymbol(QLocale.CurrencySymbolFormat.CurrencyIsoCode) or "USD"
        )
        stored = self.source.settings.currency if self.source.settings is not None else None
        problem = currencies.read(stored).problem if stored else ""
        if problem:
            problem = f"The currency set before is not used: {problem}."
        text = suggested
        while True:
            question = (
                "The catalogue does not say which currency its fees are in.\n"
                "Which currency should offers show? An ISO 4217 code: USD, EUR, GBP, CAD…\n"
                "(Remembered; Preferences can change it.)"
            )
            typed, ok = QInputDialog.getText(
                self.tab,
                "Currency of fees",
                f"{problem}\n\n{question}" if problem else question,
                text=text,
            )
            if not ok or not typed.strip():
                self.say("No offer made: offers need the fees' currency")
                return False
            reading = currencies.read(typed)
            if reading.code is not None:
                break
            problem, text = f"{reading.problem}.", typed
        code = reading.code
        self.formatter.set_currency(code)
        if self.source.settings is not None:
            self.source.settings.currency = code
            self.source.settings.sync()
        if self.source.redraw is not None:  # the fees shown with it at once, open details too
            self.source.redraw()
        else:
            self.tab.model.layoutChanged.emit()
        return True

    @property
    def remembered(self) -> OfferSettings | None:
        """What offers remember; None without settings."""
        if self.source.settings is None:
            return None
        from catalogue_desktop.ui.offers.offer_settings import OfferSettings

        return OfferSettings(self.source.settings)

    # -- the offers ------------------------------------------------------------------------------

    def offer(self, what: str, records: tuple[str, list[int]] | None = None) -> Any:
        """Make the offer ``what``: "pdf", "print", "ics" or "copy"; of the Dates tab's rows, or
        of ``records`` (a tab's name, "series", "courses" or "webinars", and the ids selected
        there): their upcoming occasions."""
        make = {
            "pdf": self.save_sheet,
            "print": self.print_sheet,
            "ics": self.save_ics,
            "xlsx": self.save_xlsx,
            "copy": self.copy,
        }[what]
        self._records = records
        try:
            return make()
        finally:
            self._records = None

    def copy(self) -> int:
        """Copy the occasions as lines of text and as an HTML table (``core.offers.mail``: one
        line or row each: title — dates and times with a zone — venue and address, or Online —
        experts — fee — credits — link), with the signature and the data's age; returns how many.
        Like every offer, it asks the offer's dialog first (the customer's name, note, validity,
        customer zone; opening with the last answers in this window)."""
        chosen = self._prepared()
        made = self._asked(chosen, "Copy", sheet=False)
        if chosen is None or made is None:
            return 0
        mime = QMimeData()
        mime.setText(the_offer.email_text(made))
        mime.setHtml(the_offer.email_html(made))
        put_mime_data(mime)
        self.say(f"Copied {chosen.words} for an e-mail (text and table)")
        self._log(made, chosen, "email", "clipboard")
        return len(chosen.items)

    def save_ics(self) -> Path | None:
        """The calendar file (``core.offers.calendar``): an event per day a course meets (its
        schedule's hours), one per other dated occasion."""
        chosen = self._prepared()
        if chosen is not None and not offers.dated(chosen.items):
            self.say(f"No calendar file: {chosen.words} are on demand, with no date")
            return None
        made = self._asked(chosen, "Save calendar…", sheet=False)
        if chosen is None or made is None:
            return None
        path = ask_path(
            self.tab,
            f"Calendar file of {chosen.words}",
            made.file_name(".ics"),
            "Calendar files (*.ics)",
            self.remembered,
        )
        if path is None:
            return None
        written = the_offer.calendar_file(made)
        if not self._write(path, written.text.encode("utf-8")):
            return None
        dated = offers.dated(made.items)
        left = len(made.items) - dated
        events = written.events
        self.say(
            f"Wrote {events:,} event{'s' if events != 1 else ''} of {chosen.words} to {path}"
            + (" (a day each for courses of several days)" if events != dated else "")
            + (f" ({left:,} on demand, with no date, left out)" if left else "")
            + "".join(f"; {note}" for note in written.notes)
        )
        self._log(made, chosen, "ics", str(path))
        return path

    def save_xlsx(self, path: Path | None = None) -> Path | None:
        """The spreadsheet (``core.offers.workbook``), to ``path`` (the Dates tab's Export has
        asked it) or where the user says."""
        chosen = self._prepared()
        made = self._asked(chosen, "Save spreadsheet…", sheet=False)
        if chosen is None or made is None:
            return None
        path = path or ask_path(
            self.tab,
            f"Spreadsheet of {chosen.words}",
            made.file_name(".xlsx"),
            "Excel workbooks (*.xlsx)",
            self.remembered,
        )
        if path is None:
            return None
        about = [
            line
            for line in (self.source.about() if self.source.about is not None else [])
            if line != "Query: (all)"  # (what was offered says it)
        ]
        about.append(f"Offered: {chosen.words}")
        if not self._write(path, workbook(made, about)):
            return None
        self.say(f"Wrote the spreadsheet of {chosen.words} to {path}")
        self._log(made, chosen, "xlsx", str(path))
        return path

    def _schedules(self, items: Sequence[offers.Occasion]) -> dict[Any, Any]:
        """The schedules of the courses among ``items``, from the window's store."""
        if self.source.store is None:
            return {}
        from catalogue_desktop.core.offers.days import schedules

        return schedules(self.source.store(), [o.id for o in items if o.kind == "course"])

    def _asked(self, chosen: Chosen | None, action: str, *, sheet: bool = True) -> the_offer.Offer | None:
        """The offer of ``chosen`` as the offer's dialog is answered (its title, note, validity,
        customer zone; with ``sheet`` its grouping and paper: ``self.options``); None if cancelled."""
        if chosen is None:
            return None
        n = len(chosen.items)
        if (
            sheet
            and n > BIG_SHEET
            and not ask_to_continue(
                self.tab,
                f"An offer sheet of {chosen.words} would be about {n // 6 + 1:,} pages. "
                "Select the dates to offer (or narrow the query) to make a shorter one.\n\n"
                "Make it anyway?",
            )
        ):
            return None
        from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog

        options = SheetDialog.ask(
            self.tab,
            chosen.words,
            action,
            self.remembered,
            sheet=sheet,
            last=self.options,
            time_text=self.formatter.time_text,
        )
        if options is None:
            return None
        self.options = options
        return self.made(
            chosen,
            zone=options.zone,
            title=options.title,
            note=options.note,
            valid_until=options.valid_until,
        )

    def made(
        self, chosen: Chosen, *, zone: str | None, **fields: Unpack[the_offer.OfferText]
    ) -> the_offer.Offer | None:
        """The offer of ``chosen`` (``core.offers.the_offer.make``): Preferences' letterhead and
        currency, times at the venue, online times in ``zone``, doubtful times as the seller
        chose (asked once: ``times``); None if the seller did not choose."""
        times = self.times(chosen.items)
        if times is None:
            return None
        remembered = self.remembered
        return the_offer.make(
            chosen.items,
            chosen.as_of,
            schedules=self._schedules(chosen.items),
            times=times,
            letterhead=remembered.letterhead(self.say) if remembered is not None else Letterhead(),
            currency=self.formatter.currency,
            customer_zone=zone,
            time_text=self.formatter.time_text,
            **fields,
        )

    def times(self, items: Sequence[offers.Occasion]) -> str | None:
        """How the offer gives course times written in an offset that is not their venue's zone's
        on that date (``the_offer.doubts``): as the seller chose in Preferences, else asked now (the
        occasions named; remembered); None if the seller cancelled."""
        found = the_offer.doubts(items)
        remembered = self.remembered
        chosen = remembered.times if remembered is not None else None
        if not found or chosen is not None:
            return chosen or the_offer.CLOCK
        words = self.formatter.time_text
        shown = [d.words(words) for d in found[:8]]
        if len(found) > len(shown):
            shown.append(f"… and {len(found) - len(shown):,} more")
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Course times to check",
            f"{len(found):,} of these courses {'has a time' if len(found) == 1 else 'have times'} "
            "that the venue's clock does not show on that day:\n\n"
            + "\n".join(f"• {line}" for line in shown)
            + "\n\nWhich is right? "
            + (
                f"One answer for all {len(found):,}: the buttons show the first one's, in {found[0].place}. "
                if len(found) > 1
                else ""
            )
            + "The Dates tab, the details and every offer then give that time "
            "(remembered; Preferences ▸ Offers ▸ Doubtful times can change it).",
            QMessageBox.StandardButton.Cancel,
            self.tab,
        )
        box.setObjectName("offer-times")
        first = found[0]  # (the choices in the first one's times)
        clock = box.addButton(
            f"{first.as_written(words)} {first.place} ({KEEP_TIME.lower()})",
            QMessageBox.ButtonRole.AcceptRole,
        )
        moment = box.addButton(
            f"{first.at_venue(words)} {first.place} ({MOVE_TIME.lower()})", QMessageBox.ButtonRole.AcceptRole
        )
        box.setDefaultButton(clock)
        box.exec()
        clicked = box.clickedButton()
        answer = the_offer.CLOCK if clicked is clock else the_offer.INSTANT if clicked is moment else None
        if answer is None:
            self.say("No offer made: the course times to check were not chosen")
            return None
        if remembered is not None:
            remembered.times = answer
        self.formatter.doubtful_times = answer  # the window gives those times so too, at once
        if self.source.redraw is not None:
            self.source.redraw()
        else:
            self.tab.model.layoutChanged.emit()
        return answer

    def save_sheet(self) -> Path | None:
        chosen = self._prepared()
        made = self._asked(chosen, "Save PDF…")
        if chosen is None or made is None:
            return None
        options = self.options
        assert options is not None  # (``_asked`` keeps the answers of the offer it made)
        path = ask_path(
            self.tab,
            f"Offer sheet of {chosen.words}",
            made.file_name(".pdf"),
            "PDF files (*.pdf)",
            self.remembered,
        )
        if path is None:
            return None
        from catalogue_desktop.ui.offers import sheet_pdf

        # (a noticeable wait for a long sheet: docs/decisions.md, "Detail pane and offers")
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            data = sheet_pdf.pdf_bytes(
                the_offer.sheet(made, options.group), made.title, made.footer, options.paper
            )
        finally:
            QApplication.restoreOverrideCursor()
        if not self._write(path, data):
            return None
        self.say(f"Wrote the offer sheet of {chosen.words} ({options.paper}) to {path}")
        self._log(made, chosen, "pdf", str(path))
        return path

    def print_sheet(self) -> Any:
        """The print preview of the offer sheet (print from it); returns the dialog once closed."""
        chosen = self._prepared()
        made = self._asked(chosen, "Preview…")
        if chosen is None or made is None:
            return None
        options = self.options
        assert options is not None  # (``_asked`` keeps the answers of the offer it made)
        from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

        from catalogue_desktop.ui.offers import sheet_pdf

        sheet = the_offer.sheet(made, options.group)
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(sheet_pdf.page_layout(options.paper))
        printer.setDocName(made.title)
        dialog = QPrintPreviewDialog(printer, self.tab)
        dialog.setWindowTitle(f"Print preview — {made.title} ({chosen.words})")
        dialog.paintRequested.connect(lambda device: sheet_pdf.paint(sheet, device, made.footer))
        self._preview_printer = printer  # (the dialog does not own it)
        if dialog.exec():  # printed (a preview closed without printing is no offer made)
            self._log(made, chosen, "print", "printer")
        self.say(f"Offer sheet of {chosen.words}: print preview closed")
        return dialog

    # -- helpers ---------------------------------------------------------------------------------

    def _log(self, made: the_offer.Offer, chosen: Chosen, fmt: str, where: str) -> None:
        """Remember the offer just made in the catalogue's offer log (``core.offers.logged``:
        Go ▸ Offers checks it after every sync): its title, note, currency and validity, and its occasions
        as the catalogue gave them (what the check compares with the catalogue later)."""
        if self.source.store is None:
            return
        from catalogue_desktop.core.offers.logged import Written, remember
        from catalogue_desktop.core.records.errors import CatalogueError

        try:
            remember(
                self.source.store(),
                title=made.title,
                items=chosen.items,
                written=[Written(fmt, where)],
                currency=made.currency,
                note=made.note or None,
                valid_until=made.valid_until,
            )
        except CatalogueError as exc:  # (a locked or damaged cache: the offer itself is made)
            self.say(f"The offer was made but not logged in Go ▸ Offers: {exc}")

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


def ask_path(
    parent: QWidget, caption: str, name: str, filters: str, remembered: OfferSettings | None = None
) -> Path | None:
    """Where to save: the dialog starts in the folder last used (the documents folder the first
    time) with ``name`` proposed, and the folder chosen is remembered; None: cancelled."""
    from catalogue_desktop.ui.offers.offer_settings import first_folder

    folder = remembered.folder if remembered is not None else first_folder()
    path, _ = save_file_name(parent, caption, str(Path(folder) / name), filters)
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
