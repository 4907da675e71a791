"""What the window remembers between runs, in one place (QSettings, INI format).

Always an explicit ``QSettings(IniFormat, UserScope, ORG, APP)``: tests redirect it with
``QSettings.setPath(IniFormat, UserScope, tmp_dir)`` and never touch the real user settings.

The file may be edited or deployed by hand: a value of the wrong type or out of reason (a tab
number of 10**12, a currency of a thousand characters, a list where text belongs) reads as the
default, and ``Settings.notes`` says so in one line each (the window shows them at start-up).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings

from catalogue_desktop.core.records.kinds import ListKind

if TYPE_CHECKING:
    from catalogue_desktop.core.query.vocabulary import Vocabulary

ORG = "catalogue-desktop"
APP = "catalogue-desktop"
DEFAULT_SYNC_TIMEOUT = 60.0  # s per collection (core.service.client.DEFAULT_DEADLINE; not imported: httpx)


def _bytes(value: object) -> QByteArray | None:
    if isinstance(value, QByteArray) and not value.isEmpty():
        return value
    if isinstance(value, (bytes, bytearray)) and value:
        return QByteArray(bytes(value))
    return None


LARGEST_INT = 1_000_000  # any count or index the settings keep (days, tab, column, pixels)
CURRENCY_CHARACTERS = 8  # "USD", "€", "CHF": a code or a symbol


class Settings:
    """Typed access to the remembered values: service URL, sync timeout, currency, window and tab
    layout."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings or QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG, APP)
        self.notes: list[str] = []  # values read that were unusable, each said once, in a line

    def note(self, key: str, value: object, wanted: str) -> None:
        """Say once (``notes``) that the value at ``key`` is unusable (not ``wanted``)."""
        shown = repr(value) if isinstance(value, str | int | float) else type(value).__name__
        line = f"{self.q.fileName()}: {key} = {shown[:60]} is not {wanted}; the default is used"
        if line not in self.notes:
            self.notes.append(line)

    def _number(self, key: str, default: int, low: int = 0, high: int = LARGEST_INT) -> int:
        """The whole number at ``key`` if it is one from ``low`` to ``high`` (else the default,
        noted when something else is there)."""
        stored = self.q.value(key)
        if stored is None or stored == "":
            return default
        try:
            value = int(stored) if isinstance(stored, str | int) else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            self.note(key, stored, f"a whole number from {low} to {high:,}")
            return default
        return value

    def _text(self, key: str, longest: int = 2000) -> str | None:
        """The text at ``key`` (None when unset, or not text of at most ``longest`` characters
        without control characters, noted)."""
        stored = self.q.value(key)
        if stored is None or stored == "":
            return None
        if not isinstance(stored, str) or len(stored) > longest or not stored.isprintable():
            self.note(key, stored, f"text of at most {longest:,} characters")
            return None
        return stored

    def sync(self) -> None:
        self.q.sync()

    @property
    def profiles_path(self) -> Path:
        """The catalogues' file (``core.connection.profiles``), beside this settings file."""
        return Path(self.q.fileName()).parent / "profiles.json"

    # -- service ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str | None:
        return self._text("service/base_url")

    @base_url.setter
    def base_url(self, url: str | None) -> None:
        self.put("service/base_url", url)

    @property
    def currency(self) -> str | None:
        value = self._text("display/currency", CURRENCY_CHARACTERS)
        return value.strip() or None if value else None

    @currency.setter
    def currency(self, code: str | None) -> None:
        self.put("display/currency", code)

    @property
    def sync_timeout(self) -> float:
        """Seconds a refresh waits for one collection in all, retries included (default 60);
        a stored value that is not a number above 0 reads as the default."""
        stored = self.q.value("service/sync_timeout", DEFAULT_SYNC_TIMEOUT)
        try:
            value = float(stored) if isinstance(stored, str | int | float) else 0.0
        except ValueError:
            value = 0.0
        if not 0 < value <= LARGEST_INT:
            self.note("service/sync_timeout", stored, "a number of seconds above 0")
            return DEFAULT_SYNC_TIMEOUT
        return value

    @sync_timeout.setter
    def sync_timeout(self, seconds: float | None) -> None:
        """Remember ``seconds`` (None, or the default: forget it). ValueError unless above 0."""
        if seconds is not None and not 0 < seconds < float("inf"):
            raise ValueError(f"a sync timeout is a number of seconds above 0, not {seconds!r}")
        self.put("service/sync_timeout", None if seconds in (None, DEFAULT_SYNC_TIMEOUT) else f"{seconds:g}")

    def put(self, key: str, value: QByteArray | int | str | None) -> None:
        """Set ``key`` (remove it for no value) unless it holds that already: QSettings rewrites
        the whole file, locked and fsynced, for any change, so a start given the same URL, or a
        window closed as it was opened, writes nothing. INI values read back as text."""
        current = self.q.value(key)
        if value is None or value == "":
            if current is not None:
                self.q.remove(key)
        elif current is None or (
            current != value if isinstance(value, QByteArray) else str(current) != str(value)
        ):
            self.q.setValue(key, value)

    # -- window ----------------------------------------------------------------------------

    def window_geometry(self) -> QByteArray | None:
        return _bytes(self.q.value("window/geometry"))

    def window_state(self) -> QByteArray | None:
        return _bytes(self.q.value("window/state"))

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.put("window/geometry", geometry)
        self.put("window/state", state)

    @property
    def detail_split(self) -> list[int] | None:
        """The table's and the detail pane's widths, one split for every tab (None: not moved)."""
        stored = self.q.value("window/detail_split") or ""
        try:  # (QSettings reads "700,400" as a list of two texts)
            sizes = [int(p) for p in (stored if isinstance(stored, list) else str(stored).split(","))]
        except (TypeError, ValueError):
            sizes = []
        if stored and not (len(sizes) == 2 and all(0 < s <= LARGEST_INT for s in sizes)):
            self.note("window/detail_split", stored, "two widths in pixels")
            return None
        return sizes or None

    @detail_split.setter
    def detail_split(self, sizes: list[int] | None) -> None:
        self.put("window/detail_split", ",".join(str(s) for s in sizes) if sizes else None)

    @property
    def details_shown(self) -> bool:
        """Whether the tabs show their detail pane (View ▸ Details pane; default: shown)."""
        return str(self.q.value("window/details_shown") or "true").lower() != "false"

    @details_shown.setter
    def details_shown(self, shown: bool) -> None:
        self.put("window/details_shown", None if shown else "false")

    @property
    def last_tab(self) -> int:
        return self._number("window/last_tab", 0, high=100)

    @last_tab.setter
    def last_tab(self, index: int) -> None:
        self.put("window/last_tab", index)

    @property
    def last_query(self) -> str | None:
        """The query the window was closed with (None: an empty box), shown again at the next start."""
        return self._text("window/last_query")

    @last_query.setter
    def last_query(self, text: str) -> None:
        text = text.strip()
        self.put("window/last_query", text if len(text) <= 2000 and text.isprintable() else None)

    # -- per collection tab ------------------------------------------------------------------

    def selected(self, kind: ListKind) -> int | None:
        """The record selected in ``kind``'s tab when the window was closed (None: none)."""
        record_id = self._number(f"tabs/{kind.value}/selected", -1, low=-1)
        return None if record_id < 0 else record_id

    def set_selected(self, kind: ListKind, record_id: int | None) -> None:
        self.put(f"tabs/{kind.value}/selected", record_id)

    def header_state(self, kind: ListKind) -> QByteArray | None:
        return _bytes(self.q.value(f"tabs/{kind.value}/header"))

    def sort(self, kind: ListKind) -> tuple[int, int]:
        """(column, 0 ascending / 1 descending); column -1 is the service's order."""
        return (
            self._number(f"tabs/{kind.value}/sort_column", -1, low=-1, high=1000),
            self._number(f"tabs/{kind.value}/sort_order", 0, high=1),
        )

    def title_sized(self, kind: ListKind) -> bool:
        """Whether the user gave the tab's title column its width (else it takes the room left)."""
        return self._number(f"tabs/{kind.value}/title_sized", 0, high=1) == 1

    def save_tab(
        self, kind: ListKind, header: QByteArray, sort: tuple[int, int], *, title_sized: bool = False
    ) -> None:
        """A tab's columns and order (the table/detail split is one for all tabs: ``window_layout``)."""
        self.put(f"tabs/{kind.value}/header", header)
        self.put(f"tabs/{kind.value}/title_sized", 1 if title_sized else None)
        self.put(f"tabs/{kind.value}/splitter", None)  # a per-tab split, written by earlier versions
        self.put(f"tabs/{kind.value}/sort_column", sort[0])
        self.put(f"tabs/{kind.value}/sort_order", sort[1])

    # -- what the spec leaves open, and how things show ------------------------------------

    def vocabulary(self) -> Vocabulary:
        """The labels of ``Webinar.type`` codes and which mean on demand: the defaults, with what
        the user changed on top (``[types]`` in the settings file: ``3\\label=Recorded replay``,
        ``1\\on_demand=false``)."""
        from catalogue_desktop.core.query.vocabulary import Vocabulary

        default = Vocabulary()
        labels = dict(default.type_labels)
        on_demand = set(default.on_demand)
        self.q.beginGroup("types")
        try:
            for code in self.q.childGroups():
                label = str(self.q.value(f"{code}/label") or "").strip()
                if label:
                    labels[code] = label
                chosen = str(self.q.value(f"{code}/on_demand") or "").lower()
                if chosen in ("true", "1", "yes"):
                    on_demand.add(code)
                elif chosen in ("false", "0", "no"):
                    on_demand.discard(code)
        finally:
            self.q.endGroup()
        return Vocabulary(labels, frozenset(on_demand))

    def set_vocabulary(self, labels: dict[str, str], on_demand: set[str]) -> None:
        """Keep what differs from the defaults: a label the user chose (not the one a code shows
        without one, "Type 3"), a code made on demand or not; defaults stay defaults."""
        from catalogue_desktop.core.query.vocabulary import Vocabulary

        default = Vocabulary()
        self.q.remove("types")
        for code in sorted(set(labels) | set(on_demand)):
            label = labels.get(code, "").strip()
            if label and label != default.label("type", code):
                self.q.setValue(f"types/{code}/label", label)
            if (code in on_demand) != (code in default.on_demand):
                self.q.setValue(f"types/{code}/on_demand", "true" if code in on_demand else "false")

    @property
    def event_zones(self) -> bool:
        """Dates in the event's own UTC offset (True, the default) or the viewer's zone."""
        return str(self.q.value("display/event_zones") or "true").lower() != "false"

    @event_zones.setter
    def event_zones(self, value: bool) -> None:
        self.put("display/event_zones", None if value else "false")

    @property
    def doubtful_times(self) -> str | None:
        """How a course time written in an offset not its venue zone's is read, as the offers
        chose it (``core.records.zones.TIMES``; the offers' ``OfferSettings.times`` writes it);
        None: not chosen yet. Read here, not through ``ui.offers``: the first paint needs it and
        not the offers' modules (``ui/shell/start_budget.py``)."""
        from catalogue_desktop.core.records.zones import TIMES

        found = str(self.q.value("offers/times") or "").strip()
        return found if found in TIMES else None

    @property
    def offer_max_age_days(self) -> int:
        """An offer made from data older than this many days is warned about first."""
        return self._number("offers/max_age_days", 7, high=36500)

    @offer_max_age_days.setter
    def offer_max_age_days(self, days: int) -> None:
        self.put("offers/max_age_days", None if days == 7 else days)
