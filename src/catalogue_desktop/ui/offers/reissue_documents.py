"""The documents of a re-issued offer (Offers ▸ Re-issue), made again from today's data in the
formats the offer was first written in: the sheet (PDF), the calendar file, CSV and JSON beside
the old files, named with the new version ("Offer for Acme v2 (Dec 2026).pdf": the old
documents stay as they were sent), by the code ``export offerings`` uses
(``core.offers.export_offerings``: one offer object, ``core.offers.offer``, with the seller's
letterhead, doubtful-times choice and customer zone from Preferences); the e-mail text and table
copied again. A printed offer, or one written to standard output, is not made again here (said:
make it from the Dates tab)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.formats.files import write_file
from catalogue_desktop.core.offers import export_offerings as offers_export
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers import offer as the_offer
from catalogue_desktop.core.offers.customer_text import file_name
from catalogue_desktop.core.offers.days import schedules
from catalogue_desktop.core.offers.logged import LoggedOffer, Written
from catalogue_desktop.core.offers.occasions import Occasion
from catalogue_desktop.core.offers.sheet import Letterhead
from catalogue_desktop.qt_compat.clipboard import put_mime_data
from catalogue_desktop.ui.offers.offer_settings import OfferSettings

FILE_FORMATS = {"pdf": ".pdf", "ics": ".ics", "xlsx": ".xlsx", "csv": ".csv", "json": ".json"}


def document_writer(
    store: Store, logged: LoggedOffer, left: list[str], remembered: OfferSettings | None = None
) -> Callable[[list[Occasion], Written], Written | None]:
    """What ``core.offers.checking.reissue`` calls per document of ``logged``: make it again of
    ``items`` as its next version; where it went (None, noted in ``left``, when it was not made).
    ``remembered``: the seller's offer Preferences (None: the plain offer)."""
    title, version, currency = logged.title, logged.version + 1, logged.currency

    def write(items: list[Occasion], old: Written) -> Written | None:
        selection = offers_export.Selection(
            items,
            offers.data_as_of(store.states()),
            None,
            schedules(store, [o.id for o in items if o.kind == "course"]),
        )
        made = offers_export.offer_of(
            selection,
            times=(remembered.times if remembered is not None else None) or the_offer.CLOCK,
            title=title,
            note=logged.note or "",
            letterhead=remembered.letterhead() if remembered is not None else Letterhead(),
            currency=currency,
            customer_zone=remembered.customer_zone if remembered is not None else None,
        )
        if old.format == "email":
            mime = QMimeData()
            mime.setText(the_offer.email_text(made))
            mime.setHtml(the_offer.email_html(made))
            put_mime_data(mime)
            return Written("email", "clipboard")
        suffix = FILE_FORMATS.get(old.format)
        folder = Path(old.where).parent if Path(old.where).is_absolute() else None
        if suffix is None or folder is None or not folder.is_dir():
            left.append(f"{old.format} ({old.where}): make it again from the Dates tab")
            return None
        render = paper = None
        if old.format == "pdf":
            from catalogue_desktop.ui.offers import sheet_pdf

            render, paper = sheet_pdf.pdf_bytes, sheet_pdf.default_paper()
        data = offers_export.document(selection, old.format, made, paper=paper or "A4", render_pdf=render)
        raw = data if isinstance(data, bytes) else data.encode("utf-8")
        path = folder / file_name(f"{title} v{version}", items, suffix)
        try:
            write_file(path, lambda out: out.write(raw))
        except OSError as exc:
            left.append(f"{old.format}: cannot write {path}: {exc.strerror or exc}")
            return None
        return Written(old.format, str(path))

    return write
