"""The finder in the window: one query for every tab, its counts in the tab titles, facets.

The query engine (``core.query``) is imported when the finder is first needed, after the window
shows its rows: its imports are no part of the start-up (docs/decisions.md, "Start-up and Qt").

``FinderController`` takes the row sets the loader reads (and has the indexer build their tables),
reads the query box's text with the catalogue's lexicon (``core.query.reading``: plain words read
as conditions; the lexicon is built on a thread once the indexer's tables are), evaluates the
equivalent query on every table (a few ms each), shows the tab a kind word names (in the order
asked for), the current tab's matches at once and the other tabs' when they are shown, and keeps
the facet panel and the query box's tooltip (each clause's count) current. While a query is set, a
reloaded collection is shown once its table is rebuilt, with its matches: a tab never shows new
rows unfiltered under a query.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from PySide6.QtCore import QObject, QTimer, Signal

from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.query.matches import Matches
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind
from catalogue_desktop.ui.finder.indexer import FinderIndexer
from catalogue_desktop.ui.finder.withdrawn_note import WithdrawnNote

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar, QTabWidget

    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.reading import Reading
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.core.query.vocabulary import Vocabulary
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.finder.facet_panel import FacetPanel
    from catalogue_desktop.ui.finder.overlay import ChildOverlay
    from catalogue_desktop.ui.finder.query_box import QueryBox

# matches, overlay, note (RowSetTableModel); a string: the overlay's module is imported when used
Result: TypeAlias = "tuple[Matches | None, ChildOverlay | None, str | None]"
NO_RESULT: Result = (None, None, None)
FACETS_DELAY_MS = 150  # after the last typed change
MORE_VALUES = 500  # values a facet shows once its "+N more" was clicked


def now() -> datetime:
    """The viewer's time (relative dates: today, next30d)."""
    return datetime.now().astimezone()


class FinderWindow(Protocol):
    """What the controller needs of the window (``ui.shell.main_window.MainWindow``): its query
    box, facet panel and tabs."""

    @property
    def query_box(self) -> QueryBox: ...
    @property
    def facet_panel(self) -> FacetPanel: ...
    @property
    def formatter(self) -> Formatter: ...
    @property
    def tab_widget(self) -> QTabWidget: ...
    def current_kind(self) -> ListKind: ...
    def tab_kinds(self) -> tuple[ListKind, ...]: ...
    def made_tab(self, kind: ListKind) -> CollectionTab | None: ...
    def show_tab(self, kind: ListKind) -> CollectionTab: ...
    def show_message(self, text: str, timeout_ms: int = 8000) -> None: ...
    def statusBar(self) -> QStatusBar: ...
    def sort_of(self, kind: ListKind) -> tuple[int, bool] | None: ...
    def set_tab_count(self, kind: ListKind, total: int | None, matched: int | None = None) -> None: ...
    def show_rowset(
        self, kind: ListKind, rowset: RowSet, changes: dict[str, Any] | None, result: Result | None = None
    ) -> None: ...
    def show_growing(
        self, kind: Kind, rowset: RowSet, expected: int, changes: dict[str, Any] | None
    ) -> None: ...


class FinderController(QObject):
    """Wires the query box, the tabs, the indexer and the facet panel (see the module doc)."""

    evaluated = Signal()  # results (counts, matches) were brought up to date

    def __init__(
        self,
        window: FinderWindow,
        store: Callable[[], Store],
        vocabulary: Vocabulary | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``store()``: the store the window's rows are read from (the GUI thread's)."""
        super().__init__(parent)
        self.window = window
        self.indexer = FinderIndexer(vocabulary, store, window.sort_of, self)
        self.withdrawn = WithdrawnNote(store)  # what removed: queries match
        self.parsed: Parsed | None = None  # the query (None: none yet)
        self.show_past = False  # the Dates tab shows past occasions too
        self._held: dict[
            ListKind, tuple[RowSet, dict[str, Any] | None]
        ] = {}  # reloads waiting for their table
        self._built_for: dict[str, RowSet] = {}  # the row set each table was built for
        self._shown: dict[str, RowSet] = {}  # the row set each tab shows
        self._stale: set[ListKind] = set()  # made tabs whose rows are not yet the current query's
        self.facets_widened: set[str] = set()  # fields whose "+N more" was clicked
        # Facets follow a typed query once typing pauses: counting every facet's values is the costliest part
        # of a keystroke (docs/decisions.md, "The finder's engine").
        self._facets_later = QTimer(self, singleShot=True, interval=FACETS_DELAY_MS)
        self._facets_later.timeout.connect(self._typing_paused)
        self._check_later = QTimer(self, singleShot=True, interval=0)  # ``check_said``, after ``_title``
        self._check_later.timeout.connect(self.check_said)
        self._moved_from: set[ListKind] = set()  # tabs left for the results elsewhere (this query)
        self._results_pending = False  # ``show_results_tab`` waits for tables being built
        self._followed: tuple[str | None, str | None] = (None, None)  # the reading's tab and order, followed
        self._said: tuple[str, Callable[[], str | None]] | None = None  # where the results are, and its check
        self._following = False  # a tab shown for the query (``_switch``)
        self._rereading = False  # the text read again (another tab, a new lexicon): no tab left for it
        self.indexer.table_ready.connect(self._table_ready)
        self.indexer.dates_ready.connect(self._dates_ready)
        self.indexer.lexicon_builder.ready.connect(self._lexicon_ready)
        window.query_box.read_with(self.read)
        window.query_box.query_changed.connect(self.set_query)
        window.query_box.edit.returnPressed.connect(self._entered)  # (after the box applied it)
        window.query_box.complete_with(self._completions)
        window.tab_widget.currentChanged.connect(lambda _i: self._current_changed())

    @property
    def engine(self) -> Finder:
        return self.indexer.engine

    @property
    def engine_if_made(self) -> Finder | None:
        """The engine, if anything made it already (no import for a look)."""
        return self.indexer.engine_if_made

    @property
    def active(self) -> bool:
        return self.parsed is not None and self.parsed.root is not None

    def _filters(self, kind: ListKind) -> bool:
        """``kind``'s tab shows only some rows (a query; the Dates tab hides past occasions)."""
        return self.active or (kind is OCCASIONS and not self.show_past)

    # -- rows in ----------------------------------------------------------------------------

    def take_rowset(self, kind: Kind, rowset: RowSet, changes: dict[str, Any] | None) -> None:
        """A collection's rows were (re)read: index them; show them now, or with their matches
        once their table is built when a query is set."""
        self.indexer.index(kind, rowset)
        if self.active and kind.value in self._shown:
            self._held[kind] = (rowset, changes)
            return
        self._show(kind, rowset, changes)

    def take_growing(self, kind: Kind, rowset: RowSet, expected: int, changes: dict[str, Any] | None) -> None:
        if not self.active:
            self.window.show_growing(kind, rowset, expected, changes)

    def _show(self, kind: ListKind, rowset: RowSet, changes: dict[str, Any] | None) -> None:
        self._shown[kind.value] = rowset
        self.window.show_rowset(kind, rowset, changes, self.result(kind))
        self._title(kind)

    def _table_ready(self, name: str) -> None:
        rowset = self.indexer.rowset_of(name)
        if rowset is not None:
            self._built_for[name] = rowset
        kind = OCCASIONS if name == OCCASIONS.value else Kind(name)
        held = self._held.pop(kind, None)
        if held is not None:
            self._show(kind, *held)
        elif self.active and kind is not OCCASIONS:
            self._refresh(kind)
        if kind is self.window.current_kind():
            self.redraw_panel()
        if self._results_pending:
            self.show_results_tab()
        self.evaluated.emit()

    def _dates_ready(self, rowset: RowSet) -> None:
        self._built_for[OCCASIONS.value] = rowset
        self._show(OCCASIONS, rowset, None)
        if self.window.current_kind() is OCCASIONS:
            self.redraw_panel()

    # -- the query ---------------------------------------------------------------------------

    def set_query(self, parsed: Parsed) -> None:
        """Show ``parsed``'s matches: the current tab now, the others' counts in their titles
        now and their rows when shown; the tab a kind word named, in the order asked for."""
        self.parsed = parsed
        self._follow(self.window.query_box.reading)
        if not self.active:
            for kind, (rowset, changes) in list(self._held.items()):
                del self._held[kind]
                self._show(kind, rowset, changes)
        current = self.window.current_kind()
        for kind in self.window.tab_kinds():
            if kind is current:
                self._refresh(kind)
            else:
                self._stale.add(kind)
                self._title(kind)
        typed = self.window.query_box.typed
        if not self.active:
            self._moved_from.clear()
        self.redraw_panel(facets=not typed)
        if typed:
            self._facets_later.start()
        elif not self._rereading:
            self.show_results_tab()
        self.check_said()
        self.evaluated.emit()

    # -- plain words read ------------------------------------------------------------------

    def read(self, text: str, literal: bool) -> Reading:
        """``text`` as the query box reads it: with the catalogue's lexicon, now, the same words
        the same way on every tab (``read_on_tab``: what the tab shown adds to it too)."""
        from catalogue_desktop.core.query.reading import read_on_tab

        table = self.window.current_kind().value
        return read_on_tab(text, self.indexer.lexicon, now(), table, literal=literal)

    def _lexicon_ready(self) -> None:
        """The lexicon was (re)built (a sync, a catalogue opened): the box's words read again."""
        self._read_again()

    def _read_again(self) -> None:
        """The box's text read again (for the tab now shown, with the lexicon now built): its
        query shown, without leaving the tab the user is on for it."""
        box = self.window.query_box
        if not box.text().strip() or box.has_error:
            return
        self._rereading = True
        try:
            box.apply()
        finally:
            self._rereading = False

    def _follow(self, reading: Reading | None) -> None:
        """A kind word shows its tab, and an order asked for sorts it, once each time the reading
        names another (the user may choose another tab or order meanwhile)."""
        table = sort = None
        if reading is not None and not reading.literal:
            table, sort = reading.table, reading.sort
        if (table, sort) == self._followed:
            return
        self._followed = (table, sort)
        kinds = {k.value: k for k in self.window.tab_kinds()}
        kind = kinds.get(table) if table is not None else None
        origin = self.window.current_kind()
        # Read again for a tab the person chose (or a new lexicon), the words' tab is remembered
        # but not shown: a click on Experts after "texas courses" typed on Dates stays on Experts
        # (it showed Courses). Enter shows the words' tab again (``_entered``).
        if kind is not None and kind is not origin and not self._rereading:
            self._moved_from.discard(kind)
            self._switch(kind)
            said = self._named_text(origin, kind)
            if said is not None:
                self._say(said, lambda: self._named_text(origin, kind))
        # An order asked for lasts while the words ask for it: then each tab's order before it.
        asked = None
        if sort is not None:
            from catalogue_desktop.ui.finder.reading_sort import sort_column

            asked = self.window.current_kind()
            column = sort_column(asked, sort)
            if column is not None:  # (the header's indicator shows it)
                self.window.show_tab(asked).order.words_ask(*column)
            else:
                asked = None
        for other in self.window.tab_kinds():
            made = self.window.made_tab(other)
            if made is not None and other is not asked:
                made.order.before_words()

    def _entered(self) -> None:
        """Enter in the box: the tab and order its words name, again (the user may have chosen
        another tab since the same words were first read)."""
        self._followed = (None, None)
        self._follow(self.window.query_box.reading)

    def _switch(self, kind: ListKind) -> None:
        """Show ``kind``'s tab for the query (not a tab the user chose: the text is not read
        again for it, which would change the query being shown)."""
        self._following = True
        try:
            self.window.show_tab(kind)
        finally:
            self._following = False

    # -- where the results are -------------------------------------------------------------

    def _say(self, text: str, check: Callable[[], str | None]) -> None:
        """Say where the results are; ``check()`` says it again as it is now (None: no longer)."""
        self._said = (text, check)
        self.window.show_message(text)

    def check_said(self) -> None:
        """What the status line says of where the results are stays true while the query and the
        tab change: said again as it now is, or taken away."""
        if self._said is None:
            return
        from catalogue_desktop.core.formats.drawn_text import one_line

        text, check = self._said
        bar = self.window.statusBar()
        if bar.currentMessage() != one_line(text):  # (another message, or its time is up)
            self._said = None
            return
        now_true = check()
        if now_true is None:
            self._said = None
            bar.clearMessage()
        elif now_true != text:
            self._say(now_true, check)

    def _only_words(self) -> bool:
        """Whether the query is free words alone (found in any text of a record)."""
        from catalogue_desktop.core.query.syntax import walk

        terms = walk(self.parsed.root if self.parsed is not None else None)
        return bool(terms) and all(t.field is None and t.op == "word" for t in terms)

    def _moved_text(self, origin: ListKind, found: ListKind) -> str | None:
        """ "No webinars match…; showing Courses", while it is true."""
        if not self.active or self.window.current_kind() is not found or self._matched(origin) != 0:
            return None
        number = self.window.tab_kinds().index(origin) + 1
        why = self.engine.evaluate(self._effective(origin), origin.value, now()).message()
        return (
            f"No {origin.label.lower()} match{': ' + why if why else ''}; showing {found.label}. "
            f"Ctrl+{number} goes back to {origin.label}."
        )

    def _named_text(self, origin: ListKind, shown: ListKind) -> str | None:
        """ "Showing Courses: the words name them. Ctrl+9 goes back to Dates.", while it is true."""
        if not self.active or self.window.current_kind() is not shown:
            return None
        number = self.window.tab_kinds().index(origin) + 1
        return f"Showing {shown.label}: the words name them. Ctrl+{number} goes back to {origin.label}."

    def _elsewhere_text(self, origin: ListKind) -> str | None:
        """ "No dates match; the words are found on Situations (1: Ctrl+8).", while it is true."""
        if not self.active or self.window.current_kind() is not origin or self._matched(origin) != 0:
            return None
        kinds = self.window.tab_kinds()
        found = [(k, n) for k in kinds if k is not origin and (n := self._matched(k))]
        if not found:
            return None
        places = ", ".join(f"{k.label} ({n:,}: Ctrl+{kinds.index(k) + 1})" for k, n in found[:3])
        return f"No {origin.label.lower()} match; the words are found on {places}."

    def _typing_paused(self) -> None:
        self.redraw_panel()
        self.show_results_tab()

    def show_results_tab(self) -> None:
        """When the current tab shows nothing under the query (no match, or a field its kind
        lacks) and another tab has matches, show that one and say how to come back. A tab the
        user came back to is not left again while the query is set."""
        self._results_pending = False
        current = self.window.current_kind()
        if not self.active or current in self._moved_from:
            return
        matched = self._matched(current)
        if matched is None:  # its table is being built (a query given at start-up): then
            self._results_pending = True
            return
        if matched:
            return
        found = next((k for k in self.window.tab_kinds() if k is not current and self._matched(k)), None)
        if found is None:  # maybe later: a table being built, rows reloaded after a refresh
            self._results_pending = True
            return
        if self._only_words():
            # Free words found elsewhere may be in any text (an expert's education, a situation's
            # description): the tab stays, the status line says where they are (issue 36).
            said = self._elsewhere_text(current)
            if said is not None:
                self._say(said, lambda: self._elsewhere_text(current))
            return
        self._moved_from.add(current)
        self._switch(found)
        said = self._moved_text(current, found)
        if said is not None:
            self._say(said, lambda: self._moved_text(current, found))

    def _matched(self, kind: ListKind) -> int | None:
        """How many rows ``kind``'s tab shows under the query (None: not known yet)."""
        if not self._ready(kind) or not self.active:
            return None
        table = self.engine.tables.get(kind.value)
        if table is None or not table.ids:  # no rows yet (a first start's catalogue on its way)
            return None
        outcome = self.engine.evaluate(self._effective(kind), kind.value, now())
        return 0 if outcome.missing is not None else outcome.count

    def set_show_past(self, show: bool) -> None:
        self.show_past = show
        self._refresh(OCCASIONS)

    def set_vocabulary(self, vocabulary: Vocabulary) -> None:
        self.engine.set_vocabulary(vocabulary)
        self.indexer.rebuild_offerings()
        if self.parsed is not None:
            self.set_query(self.parsed)

    def _current_changed(self) -> None:
        self._results_pending = False  # (the user chose a tab)
        kind = self.window.current_kind()
        if kind in self._stale:
            self._refresh(kind)
        self.redraw_panel()
        if not self._following:  # the user's choice: read for it (fees on tabs with fees)
            self._read_again()
        self.check_said()

    def _refresh(self, kind: ListKind) -> None:
        """Give ``kind``'s tab (if made) the current query's rows, and its title the count."""
        self._stale.discard(kind)
        tab = self.window.made_tab(kind)
        if tab is not None and tab.model.rowset is self._shown.get(kind.value):
            tab.set_result(*self.result(kind))
        self._title(kind)

    def _title(self, kind: ListKind) -> None:
        rowset = self._shown.get(kind.value)
        total = len(rowset) if rowset is not None else None
        matched = None
        if self._filters(kind) and total is not None and self._ready(kind):
            outcome = self.engine.evaluate(self._effective(kind), kind.value, now())
            if outcome.missing is not None and (again := self._read_for(kind)) is not None:
                outcome = self.engine.evaluate(self._effective(kind, again), kind.value, now())
            matched = outcome.count
        self.window.set_tab_count(kind, total, matched)
        # Whatever changed a tab's matches (the query, rows read again, a table built, the Dates
        # tab's "Show past"), what the status line says of them is checked again: said as it now
        # is, or taken away ("No dates match…" while Dates shows rows was left standing). Once
        # per turn of the event loop, however many tabs' counts changed.
        if self._said is not None:
            self._check_later.start()

    def _ready(self, kind: ListKind) -> bool:
        name = kind.value
        built = self._built_for.get(name)
        return built is not None and built is self._shown.get(name) and name in self.engine.tables

    def result(self, kind: ListKind) -> Result:
        """What ``kind``'s tab shows under the current query (every row when there is none; no
        row while its table is being built)."""
        if not self._filters(kind):
            return NO_RESULT
        rowset = self._shown.get(kind.value)
        if rowset is None:
            return NO_RESULT
        if not self._ready(kind):
            return Matches(len(rowset), rows=[]), None, "Preparing the finder for this tab…"
        from catalogue_desktop.ui.finder.overlay import ChildOverlay

        when = now()
        outcome = self.engine.evaluate(self._effective(kind), kind.value, when)
        if outcome.missing is not None:
            return Matches(len(rowset), rows=[]), None, outcome.message()
        overlay = None
        if outcome.child_bits and ChildOverlay.applies(kind):
            overlay = ChildOverlay(
                kind,
                self.engine.tables[kind.value],
                outcome.child_bits,
                int(when.timestamp() * 1000),
                self.window.formatter.on_demand,
            )
        if outcome.everything:
            return None, None, None
        note = None if outcome.bits else self.withdrawn.note(self.parsed, kind.value, when)
        return outcome, overlay, note  # (a Matches)

    def _read_for(self, kind: ListKind) -> Parsed | None:
        """The box's plain words as ``kind``'s tab reads them when it is clicked (``read_on_tab``),
        when that is another query than the one shown: a tab's title counts what a click on it
        shows ("online ethics" on Dates is ``no:location``, which webinars lack: Webinars said 0,
        dimmed, and showed 2 when clicked, "online" read there as the webinars). None: the same."""
        from catalogue_desktop.core.query.reading import read_on_tab
        from catalogue_desktop.core.query.syntax import parse

        box = self.window.query_box
        reading = box.reading
        if reading is None or reading.literal or not reading.understood or box.has_error:
            return None
        if kind is self.window.current_kind() or reading.text != box.text():
            return None
        again = parse(read_on_tab(reading.text, self.indexer.lexicon, now(), kind.value).query)
        if again.error is not None or self.parsed is None or again.text == self.parsed.text:
            return None
        return again

    def _effective(self, kind: ListKind, parsed: Parsed | None = None) -> Parsed:
        """The query (``parsed``: another reading of the words, else the query shown) as
        ``kind``'s tab applies it: the Dates tab leaves out past occasions unless asked
        (``past``, any date clause, or its "Show past" toggle)."""
        from catalogue_desktop.core.query.offerings import upcoming
        from catalogue_desktop.core.query.syntax import parse

        parsed = parsed or self.parsed or parse("")
        if kind is not OCCASIONS or self.show_past:
            return parsed
        dates: Parsed = upcoming(parsed)
        return dates

    # -- the panel and the box -----------------------------------------------------------------

    @property
    def panel_pending(self) -> bool:
        """Whether the facets still wait for typing to pause."""
        return self._facets_later.isActive()

    def redraw_panel(self, facets: bool = True) -> None:
        """The query box's clause counts and (``facets``) the facet panel, for the current tab."""
        if facets:
            self._facets_later.stop()
        kind = self.window.current_kind()
        box = self.window.query_box
        panel = self.window.facet_panel
        if not self._ready(kind):
            box.set_clause_counts([])
            panel.show_facets(kind, [], "Preparing the finder…")
            return
        parsed = self._effective(kind)
        lines = []
        for clause, count in self.engine.clause_counts(parsed, kind.value, now()):
            text = parsed.text[clause.start : clause.end] or "(past dates hidden)"
            lines.append(f"{text}  —  {'no such field here' if count is None else f'{count:,} rows'}")
        box.set_clause_counts(lines)
        if not facets:
            return
        if panel.isVisible() and kind is OCCASIONS and not self.indexer.ready(OCCASIONS.value):
            # The Dates rows are shown before their table's indexes are all built (in idle time after): facets
            # would build every one at once (docs/decisions.md, "The finder's engine").
            panel.show_facets(kind, [], "Preparing the facets…")
        elif panel.isVisible():
            from catalogue_desktop.core.query.facets import facets as counted_facets

            limits = dict.fromkeys(self.facets_widened, MORE_VALUES)
            panel.show_facets(
                kind, counted_facets(self.engine, parsed, kind.value, now(), limits=limits), None
            )

    def widen_facet(self, field: str) -> None:
        """ "+N more" clicked: the facet shows its other values too."""
        self.facets_widened.add(field)
        self.redraw_panel()

    def toggle_facet(self, field: str, clause: str, how: str) -> None:
        """A facet value clicked: written into the query text, ``how`` "choose" (the facet's one
        choice: the rows are then its count), "add" (Shift: beside the others) or "exclude"
        (Ctrl). Words read as the field's clause ("march") are written as that clause first, with
        the glue before them ("in chicago" is ``city:=Chicago``: the click leaves no "in" behind)."""
        from catalogue_desktop.core.query.facet_keys import ValueKeys
        from catalogue_desktop.core.query.facets import spelled_out, toggle

        box = self.window.query_box
        text = box.text()
        reading = box.reading
        if reading is not None and not reading.literal and reading.text == text:
            read = [(reading.glued_span(i), c.clause) for i, c in enumerate(reading.conditions)]
            text = spelled_out(text, read, field)
        keys = ValueKeys(self.engine, self.window.current_kind().value, now())
        toggled = toggle(text, field, clause, exclude=how == "exclude", add=how == "add", keys=keys)
        if toggled is not None:
            box.set_text(toggled)

    def _completions(self, token: str) -> list[str]:
        from catalogue_desktop.core.query.complete import completions

        kind = self.window.current_kind()
        if not self._ready(kind):
            return []
        return completions(self.engine, kind.value, token)
