"""What the offers remember between runs (QSettings ``[offers]``, beside ``common.settings``): the
seller's letterhead (Preferences ▸ Offers), how a course time written in an offset not its venue's
zone's is given (``times``), the zone online times are given in for customers, the folder the last
offer was saved in, and the sheet's paper and grouping. ``cli.remembered`` reads the same keys
without Qt for ``export offerings``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QStandardPaths, QTimeZone

from catalogue_desktop.core.offers.sheet import LETTERHEAD_KEYS, Letterhead, logo_problem
from catalogue_desktop.core.records.zones import TIMES
from catalogue_desktop.ui.common.settings import Settings

# A doubtful course time's two readings (``times``), as the offer's question and Preferences ▸
# Offers word them: ``CLOCK`` keeps the clock time written, ``INSTANT`` the instant written.
KEEP_TIME = "The clock time is right"
MOVE_TIME = "The instant is right"


class OfferSettings:
    """Typed access to ``[offers]`` in the window's settings (``settings.q``: a QSettings)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.q = settings.q

    def _get(self, key: str) -> str:
        value = self.q.value(f"offers/{key}")
        return str(value).strip() if value else ""

    def _put(self, key: str, value: str | None) -> None:
        self.settings.put(f"offers/{key}", (value or "").strip() or None)

    # -- the letterhead ----------------------------------------------------------------------

    def letterhead(self, note: Callable[[str], object] | None = None) -> Letterhead:
        """The letterhead; a logo that is not a regular file of at most 5 MB
        (``core.offers.sheet.logo_problem``) is left out, and ``note`` is told why."""
        head = Letterhead(**{key: self._get(f"seller_{key}") for key in LETTERHEAD_KEYS})
        problem = logo_problem(head.logo) if head.logo else None
        if problem is None:
            return head
        if note is not None:
            note(problem)
        return replace(head, logo="")

    def set_letterhead(self, head: Letterhead) -> None:
        for key in LETTERHEAD_KEYS:
            self._put(f"seller_{key}", getattr(head, key))

    # -- the customer's zone for online events ----------------------------------------------------

    @property
    def customer_zone(self) -> str:
        """An IANA zone: the one last picked, else the seller's own (the system's)."""
        return self._get("customer_zone") or own_zone()

    @customer_zone.setter
    def customer_zone(self, zone: str) -> None:
        self._put("customer_zone", None if zone == own_zone() else zone)

    # -- a time written in an offset that is not its venue's zone's ----------------------------

    @property
    def times(self) -> str | None:
        """How offers give such a time (``core.offers.offer.TIMES``); None: not chosen yet."""
        return self.settings.doubtful_times

    @times.setter
    def times(self, choice: str | None) -> None:
        self._put("times", choice if choice in TIMES else None)

    # -- files and the sheet's options --------------------------------------------------------

    @property
    def folder(self) -> str:
        """Where the next offer is saved: the last folder used, else the documents folder."""
        last = self._get("last_folder")
        if last and Path(last).is_dir():
            return last
        return first_folder()

    @folder.setter
    def folder(self, path: str) -> None:
        self._put("last_folder", path)

    @property
    def paper(self) -> str:
        return self._get("paper")

    @paper.setter
    def paper(self, paper: str) -> None:
        self._put("paper", paper)

    @property
    def group(self) -> str:
        return self._get("group") or "course"

    @group.setter
    def group(self, group: str) -> None:
        self._put("group", None if group == "course" else group)


def own_zone() -> str:
    """The seller's own zone (IANA), as the system says; "UTC" if it says none."""
    name = bytes(QTimeZone.systemTimeZoneId().data()).decode("ascii", "replace")
    return name if "/" in name or name == "UTC" else "UTC"


def first_folder() -> str:
    """Where a save dialog starts the first time: the documents folder if it exists, else the
    home folder (never the program's working folder, where a dialog given a missing folder
    would open)."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return docs if docs and Path(docs).is_dir() else str(Path.home())
