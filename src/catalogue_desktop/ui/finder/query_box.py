"""The query box: one line for every tab (Ctrl+F), with errors people can fix and completion.

The box's text is read first (``core.query.reading``: plain words such as "texas courses under
1500" read as conditions); the equivalent query is what the tables show. Beneath the toolbar one
line of reserved height (``reading_row``) shows what was read, as removable chips, or, for a query
that does not parse, a red outline and the position and what was expected (the tables keep the last
valid result meanwhile). Completion offers
the current tab's field names, then values of fields with few values. The tooltip says how many
rows each clause matches alone, so a user sees which clause emptied the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.finder.reading_row import ReadingRow

if TYPE_CHECKING:
    # (QKeyEvent: QEvent's 179 enum members, made at the first key press)
    from PySide6.QtGui import QKeyEvent

    from catalogue_desktop.core.query.reading import Reading
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.ui.finder.completion_list import CompletionList

Reader = Callable[[str, bool], "Reading"]  # (text, literal) -> its reading

DELAY_MS = 30  # coalesces fast typing; a query is evaluated in a few ms
_SEPARATORS = " ()|"


class QueryEdit(QLineEdit):
    """The line itself: Escape clears it (also where no shortcut can fire); Enter applies at once;
    Down goes to the results (``down_pressed``). While completions are offered (``completions``)
    Up/Down choose one, Enter or Tab insert it and Escape closes the list.

    A ``keyPressEvent`` override, not an event filter (``qt_compat``'s notes). The list is made
    when completions are first offered (not at start-up: nothing is typed before the first paint)."""

    escape_pressed = Signal()
    down_pressed = Signal()
    completion_chosen = Signal(str)  # the list's ``chosen``

    def __init__(self, placeholder: str) -> None:
        super().__init__(placeholderText=placeholder, clearButtonEnabled=True)
        self._completions: CompletionList | None = None

    @property
    def completions(self) -> CompletionList:
        """The completion list (made now if it was not yet)."""
        if self._completions is None:
            # (its module too: importing QListView and QWindow makes their enums, ~9 of them)
            from catalogue_desktop.ui.finder.completion_list import CompletionList

            self._completions = CompletionList(self)
            self._completions.chosen.connect(self.completion_chosen)
        return self._completions

    def offering(self) -> bool:
        """Whether completions are shown."""
        return self._completions is not None and self._completions.isVisible()

    def hide_completions(self) -> None:
        if self._completions is not None:
            self._completions.hide()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        offering = self.offering()
        if offering and self._drive_completions(event):
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and self.text() and not offering:
            self.escape_pressed.emit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Down and not offering:
            self.down_pressed.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def _drive_completions(self, event: QKeyEvent) -> bool:
        """A key for the completion list: handled (True), or for the line."""
        key = event.key()
        steps = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -8, Qt.Key.Key_PageDown: 8}
        if key in steps:
            self.completions.step(steps[Qt.Key(key)])
            return True
        if key == Qt.Key.Key_Escape:
            self.completions.hide()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            chosen = self.completions.current_text()
            self.completions.hide()
            if chosen is not None:
                self.completions.chosen.emit(chosen)
                return True
        return False

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab while a completion is chosen inserts it (the focus stays)."""
        listed = self._completions
        chosen = listed.current_text() if next and listed is not None else None
        if chosen is not None:
            self.completions.hide()
            self.completions.chosen.emit(chosen)
            return True
        return super().focusNextPrevChild(next)

    def focusOutEvent(self, event: object) -> None:
        self.hide_completions()  # (a click in the list itself takes no focus)
        super().focusOutEvent(event)  # type: ignore[arg-type]

    def hideEvent(self, event: object) -> None:
        self.hide_completions()
        super().hideEvent(event)  # type: ignore[arg-type]


class QueryBox(QObject):
    """The query line and the line beneath it (widgets the window places: ``edit`` in the toolbar,
    ``line`` beneath it, which shows the reading or the error). ``query_changed`` carries each
    valid equivalent query, debounced; ``reading`` is what the text was read as."""

    query_changed = Signal(object)  # Parsed (valid)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.edit = QueryEdit(
            "Find: words, field:value, e.g. city:dallas fee:<1300 starts:2027-03 — Ctrl+F; "
            "Help ▸ Query language"
        )
        self.edit.setObjectName("query")
        self.edit.setAccessibleName("Query")
        self.edit.setAccessibleDescription(
            "Find records on every tab: words, field:value clauses, OR, -word, parentheses"
        )
        self.edit.setMinimumWidth(300)  # (wider: in a small window it went behind the tool bar's »)
        self.error = QLabel()
        self.error.setObjectName("query-error")
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setAccessibleName("Query error")
        self.error.setContentsMargins(0, 0, 0, 0)
        self.line = ReadingRow(self.error)
        self.line.remove_requested.connect(self._remove_condition)
        self.line.words_requested.connect(lambda: self._read_words(True))
        self.line.reading_requested.connect(lambda: self._read_words(False))
        self.line.suggestion_chosen.connect(self._take_suggestion)
        self.line.other_chosen.connect(self._take_other)
        self.parsed: Parsed | None = None  # the last valid query (the parser: at the first one)
        self.reading: Reading | None = None  # what the text of ``parsed`` was read as
        self._reader: Reader | None = None  # ``read_with`` (none: the text is the query)
        self._words_text: str | None = None  # the text searched as typed ("search these words instead")
        self._completions: Callable[[str], list[str]] = lambda _token: []  # ``complete_with``
        self._timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self._timer.timeout.connect(self._apply_typed)
        self.typed = False  # the query being applied was typed (not set: a facet, a saved search)
        self.edit.textChanged.connect(lambda _text: self._timer.start())
        self.edit.textEdited.connect(self._complete)
        self.edit.returnPressed.connect(self.apply)
        self.edit.escape_pressed.connect(self.clear)
        self.edit.textChanged.connect(self._hide_completions_when_empty)
        self.edit.textChanged.connect(self._words_until_changed)
        self.edit.completion_chosen.connect(self._insert)
        self._token: tuple[int, int] = (0, 0)

    # -- text ----------------------------------------------------------------------------------

    def text(self) -> str:
        return self.edit.text()

    def set_text(self, text: str) -> None:
        """Put ``text`` in the box and apply it now (a facet, a saved search, --query)."""
        self.edit.setText(text)
        self.apply()

    def clear(self) -> None:
        """Empty the box and apply it (Escape). An edit, not a reset: Ctrl+Z in the box brings
        the words back (``setText`` forgot them)."""
        self.edit.selectAll()
        self.edit.del_()
        self.apply()

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def read_with(self, reader: Reader) -> None:
        """Read the box's text with ``reader(text, literal)`` (the finder's: its lexicon, now)."""
        self._reader = reader

    def apply(self) -> None:
        """Read and parse the text: show its error, or take its equivalent query as the query."""
        from catalogue_desktop.core.query.syntax import parse

        self._timer.stop()
        reading = self._read(self.edit.text())
        parsed = parse(reading.query)
        if parsed.error is not None:
            self._show_error(parsed)
            return
        self.reading = reading
        self._show_error(None)
        if self.parsed is None or parsed.text != self.parsed.text:
            self.parsed = parsed
            self.query_changed.emit(parsed)

    def equivalent(self, text: str) -> str:
        """The query ``text`` is read as (the box's own text: as it is searched now); what a
        saved search keeps. Words searched as typed are kept as words (``word:``), never read."""
        if text == self._words_text:
            from catalogue_desktop.core.query.reading import literal_query

            return literal_query(text)
        return self._read(text).query

    def _read(self, text: str) -> Reading:
        literal = text == self._words_text
        if self._reader is not None:
            return self._reader(text, literal)
        from catalogue_desktop.core.query.reading import Reading

        return Reading(text=text, query=text, literal=True)

    @property
    def words_as_typed(self) -> bool:
        """Whether "search these words instead" is on for the text in the box."""
        return self._words_text is not None and self._words_text == self.edit.text()

    def _words_until_changed(self, text: str) -> None:
        if text != self._words_text:
            self._words_text = None

    def _read_words(self, as_typed: bool) -> None:
        """ "search these words instead" (``as_typed``), or back to the reading."""
        had_focus = self.line.focus_chain()
        focused = next((w for w in had_focus if w.hasFocus()), None)
        self._words_text = self.edit.text() if as_typed else None
        self.apply()
        if focused is not None:  # (from the keyboard: the focus goes to the link shown instead)
            (self.line.back if as_typed else self.line.words).setFocus(Qt.FocusReason.TabFocusReason)

    def _remove_condition(self, index: int) -> None:
        """A chip's ×: the box's text less the words it was read from (the result widens)."""
        reading = self.reading
        if reading is None or not 0 <= index < len(reading.conditions):
            return
        from_keys = any(chip.hasFocus() for chip in self.line.chips)
        self.set_text(reading.text_without(index))
        if from_keys:  # the next chip (or the box) takes the focus of the one removed
            chips = self.line.chips
            target: QWidget = chips[min(index, len(chips) - 1)] if chips else self.edit
            target.setFocus(Qt.FocusReason.TabFocusReason)

    def _take_suggestion(self) -> None:
        """ "Did you mean …?": the word it is for replaced by the one meant."""
        from catalogue_desktop.ui.finder.suggestion import corrected

        reading = self.reading
        if reading is None or not reading.suggestion:
            return
        self.set_text(corrected(reading.text, reading.suggestion))
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _take_other(self, index: int) -> None:
        """ "Or Washington (state)?": the words of condition ``index`` written as its other reading."""
        reading = self.reading
        if reading is None or not 0 <= index < len(reading.conditions) or not reading.conditions[index].other:
            return
        self.set_text(reading.with_other(index))
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _apply_typed(self) -> None:
        self.typed = True
        try:
            self.apply()
        finally:
            self.typed = False

    def _show_error(self, parsed: Parsed | None) -> None:
        if parsed is None or parsed.error is None:
            self.edit.setStyleSheet("")
            self.error.clear()
            self.line.words_off = self.words_as_typed
            text = self.reading.text if self.reading is not None else ""
            self.line.show_reading(self.reading if text.strip() else None)
            self.chain_focus()
            self._follow_line()
            return
        from catalogue_desktop.ui.common.colors import error as error_color

        error = parsed.error
        from PySide6.QtWidgets import QApplication

        red = error_color(QApplication.palette()).name()  # AA on the palette, light or dark
        self.edit.setStyleSheet(f"QLineEdit {{ border: 2px solid {red}; border-radius: 3px; }}")
        self.error.setStyleSheet(f"QLabel {{ color: {red}; }}")
        shown = parsed.text[error.position : error.end] or "end"
        self.error.setText(f"{error.describe()}: “{shown}”. The tables show the last valid query.")
        self.error.setToolTip(plain_tooltip(self.error.text()))  # (the query's text in it)
        self.line.show_error()
        self._follow_line()

    @property
    def has_error(self) -> bool:
        return self.error.isVisible() or bool(self.error.text())

    @property
    def shown_query(self) -> str | None:
        """While the box's text has an error, the text of the last valid query, which the tables
        still show ("" for none: every row); None when the box holds the query shown."""
        if not self.has_error:
            return None
        if self.reading is not None and self.reading.text.strip():
            return self.reading.text.strip()
        return self.parsed.text.strip() if self.parsed is not None else ""

    def chain_focus(self) -> QWidget:
        """Tab from the box walks the line's chips and links; the last of them (or the box)."""
        previous: QWidget = self.edit
        for widget in self.line.focus_chain():
            QWidget.setTabOrder(previous, widget)
            previous = widget
        return previous

    def complete_with(self, completions: Callable[[str], list[str]]) -> None:
        """Offer ``completions(token)`` for the word being typed (none by default)."""
        self._completions = completions

    def set_clause_counts(self, lines: list[str]) -> None:
        """The tooltip: each clause and how many rows it matches alone."""
        self.edit.setToolTip("\n".join(lines) if lines else self.edit.accessibleDescription())

    # -- completion ----------------------------------------------------------------------------

    def _hide_completions_when_empty(self, text: str) -> None:
        if not text:
            self.edit.hide_completions()

    def _complete(self, text: str) -> None:
        cursor = self.edit.cursorPosition()
        start = cursor
        in_quote = text[:cursor].count('"') % 2 == 1
        while start > 0 and (in_quote or text[start - 1] not in _SEPARATORS):
            start -= 1
            if text[start] == '"' and in_quote:
                in_quote = False
        token = text[start:cursor].lstrip("-")
        start = cursor - len(token)
        self._token = (start, cursor)
        found = self._completions(token) if token else []
        if not found:
            self.edit.hide_completions()
            return
        self.edit.completions.offer(found, self._below())

    def _below(self) -> QRect:
        """Where the completions go: under the word typed, or under the error line while it
        shows (never over it)."""
        cursor_rect = self.edit.cursorRect()
        below = QRect(self.edit.mapToGlobal(cursor_rect.topLeft()), cursor_rect.size())
        if self.error.isVisible():
            error_bottom = self.error.mapToGlobal(QPoint(0, self.error.height()))
            below.moveBottom(max(below.bottom(), error_bottom.y()))
        return below

    def _follow_line(self) -> None:
        """The line beneath the box changed (an error came or went after the list was placed,
        the typing's pause later): the list moves to stay clear of it."""
        if self.edit.offering():
            self.edit.completions.place(self._below())

    def _insert(self, completion: str) -> None:
        text = self.edit.text()
        start, end = self._token
        tail = text[end:]
        spacer = "" if completion.endswith(":") or tail.startswith(" ") else " "
        self.edit.setText(text[:start] + completion + spacer + tail)
        self.edit.setCursorPosition(start + len(completion) + len(spacer))
        self.edit.hide_completions()
        self._timer.start()
