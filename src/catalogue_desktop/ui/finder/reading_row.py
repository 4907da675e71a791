"""The line under the query box: what the box read the typed words as, or why the query does not
parse, or (nothing typed) how to ask. One line whose height is reserved: what it shows never
pushes the tables down or up (issue 36).

The reading (``core.query.reading``) shows as chips, one per condition understood ("Illinois ×",
"Courses ×"): a click (or Space/Enter on it) removes that condition's words from the box, which stays
the one source of truth. Then the equivalent query, small, so people learn the language; "search
these words instead" turns the reading off for the text as typed ("read them as a question" turns
it back on); a typo's "Did you mean …?" replaces the word. Chips and links are reached with Tab.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QSizePolicy, QToolButton, QWidget

from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent, QResizeEvent

    from catalogue_desktop.core.query.reading import Reading

HINT = "Ask in plain words — texas courses under 1500 — or in the query language (Help ▸ Query language)"
CHIP_STYLE = (
    "QToolButton { border: 1px solid palette(mid); border-radius: 8px; padding: 0px 6px;"
    " background: palette(base); }"
    " QToolButton:hover { background: palette(alternate-base); }"
    " QToolButton:focus { border: 2px solid palette(highlight); }"
)
LINK_STYLE = (
    "QToolButton { border: 1px solid transparent; padding: 0px 2px; color: palette(link);"
    " text-decoration: underline; background: transparent; }"
    " QToolButton:focus { border: 1px dotted palette(highlight); }"
)


class RowButton(QToolButton):
    """A chip or a link of the line: reached with Tab, pressed with Space or Enter."""

    def __init__(self, text: str, name: str, style: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setText(text)
        self.setObjectName(name)
        self.setStyleSheet(style)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # (a click leaves the focus in the box)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAutoRaise(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            self.click()
            return
        super().keyPressEvent(event)


class ReadingRow(QWidget):
    """The reserved line (see the module doc). ``show_reading`` shows a reading, ``show_error``
    the box's error label instead (the label is the box's: ``error``)."""

    remove_requested = Signal(int)  # a chip's condition index
    words_requested = Signal()  # "search these words instead"
    reading_requested = Signal()  # "read them as a question" (back from the words as typed)
    suggestion_chosen = Signal()  # "Did you mean …?"
    other_chosen = Signal(int)  # "Or Washington (state)?": the condition's other reading, by index

    def __init__(self, error: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("query-line")
        self.setAccessibleName("What the query box read")
        self.error = error
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 1, 8, 1)
        layout.setSpacing(6)
        # Its content never widens the window: what does not fit is cut at the right (the
        # equivalent query is elided first).
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.hint = QLabel(HINT)
        self.hint.setObjectName("query-hint")
        self.lead = QLabel("Read as:")
        self.lead.setObjectName("reading-lead")
        self.same = QLabel("Same as")  # (then the equivalent query)
        self.same.setObjectName("reading-same")
        self.query = ElidedLabel()
        self.query.setObjectName("reading-query")
        self.query.setTextFormat(Qt.TextFormat.PlainText)
        self.query.setAccessibleName("Equivalent query")
        self.query.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.query.setMinimumWidth(0)
        small = self.query.font()
        small.setPointSizeF(max(small.pointSizeF() * 0.9, 7.0))
        small.setFamilies(["monospace"])
        small.setStyleHint(small.StyleHint.Monospace)
        self.query.setFont(small)
        self.suggestion = RowButton("", "reading-suggestion", LINK_STYLE)
        self.suggestion.clicked.connect(self.suggestion_chosen)
        # A word read one way that the data also has another way (Washington: the city, or the
        # state): the other offered beside the chips, one click away.
        self._other_index = -1  # the condition whose other reading ``other`` offers
        self.other = RowButton("", "reading-other", LINK_STYLE)
        self.other.clicked.connect(lambda _checked=False: self.other_chosen.emit(self._other_index))
        self.words = RowButton("search these words instead", "reading-words", LINK_STYLE)
        self.words.setAccessibleName("Search these words instead")
        self.words.setToolTip("Turn the reading off for this text: find the words as typed")
        self.words.clicked.connect(self.words_requested)
        self.literal = QLabel("Searching the words as typed.")
        self.literal.setObjectName("reading-literal")
        # What stayed words (found in the records' text), said too: nothing read is left unsaid.
        self.free = QLabel()
        self.free.setObjectName("reading-free-words")
        self.free.setTextFormat(Qt.TextFormat.PlainText)
        self.free.setToolTip("Not read as a condition: looked for as words in the records' text")
        # Nothing read (the query language as typed, or words no rule reads): said, never a blank line.
        self.written = QLabel()
        self.written.setObjectName("reading-as-written")
        self.written.setTextFormat(Qt.TextFormat.PlainText)
        for label in (self.hint, self.lead, self.same, self.query, self.literal, self.free, self.written):
            _mute(label)  # (muted, still readable: WCAG AA)
        self.back = RowButton("read them as a question", "reading-back", LINK_STYLE)
        self.back.setAccessibleName("Read the words as a question")
        self.back.clicked.connect(self.reading_requested)
        # The chips, made once and kept (a chip made per keystroke, each parsing its style sheet,
        # cost ~5 ms of every keystroke at 3 chips): the first ``_count`` are the reading's.
        self._pool: list[RowButton] = []
        self._count = 0
        self._chip_layout = QHBoxLayout()
        self._chip_layout.setContentsMargins(0, 0, 0, 0)
        self._chip_layout.setSpacing(4)
        layout.addWidget(self.error)
        layout.addWidget(self.hint)
        layout.addWidget(self.lead)
        layout.addLayout(self._chip_layout)
        layout.addWidget(self.free)
        layout.addWidget(self.written)
        layout.addWidget(self.literal)
        layout.addWidget(self.back)
        layout.addWidget(self.suggestion)  # (next to the chip of the word it corrects)
        layout.addWidget(self.other)
        layout.addWidget(self.same)
        layout.addWidget(self.query, 100)  # (the room left, less the links)
        layout.addWidget(self.words)
        layout.addStretch(1)  # (what is shown stays at the left when the query is not)
        sample = RowButton("Ag ×", "sample", CHIP_STYLE)
        height = max(sample.sizeHint().height(), self.fontMetrics().height() + 6)
        sample.deleteLater()
        self.setFixedHeight(height + 2)
        self._shown: Reading | None = None
        self.show_reading(None)

    # -- what it shows ---------------------------------------------------------------------

    def show_error(self) -> None:
        """The box's error (its label, set by the box) instead of the reading."""
        self._show(error=True)

    def show_reading(self, reading: Reading | None) -> None:
        """``reading`` of the box's text (None: nothing typed)."""
        self._shown = reading
        conditions = reading.conditions if reading is not None and not reading.literal else ()
        while len(self._pool) < len(conditions):
            chip = RowButton("", "reading-chip", CHIP_STYLE)
            index = len(self._pool)
            chip.clicked.connect(lambda _checked=False, i=index: self.remove_requested.emit(i))
            self._chip_layout.addWidget(chip)
            self._pool.append(chip)
        self._count = len(conditions)
        for chip, condition in zip(self._pool, conditions, strict=False):
            assert reading is not None
            chip.setText(f"{condition.label} ×")
            chip.setAccessibleName(f"Remove {condition.label}")
            typed = reading.text[condition.span[0] : condition.span[1]]
            tip = f"Read from “{typed}” as {condition.clause}. Click to remove it."
            if condition.other:
                tip += f"\nIt may also mean {condition.other}."
            chip.setToolTip(plain_tooltip(tip))
        for chip in self._pool[self._count :]:
            chip.hide()
        self._show(error=False)

    @property
    def chips(self) -> list[RowButton]:
        """The chips of the reading shown, left to right."""
        return self._pool[: self._count]

    def _show(self, *, error: bool) -> None:
        reading = None if error else self._shown
        typed = reading is not None and bool(reading.text.strip())
        understood = typed and reading is not None and not reading.literal and reading.understood
        literal = typed and reading is not None and reading.literal and self.words_off
        suggestion = reading.suggestion if typed and reading is not None else None
        self.error.setVisible(error)
        self.hint.setVisible(not error and not typed)
        self.lead.setVisible(bool(understood))
        for chip in self.chips:
            chip.setVisible(bool(understood))
        free = reading.words if understood and reading is not None else ()
        if free and reading is not None:  # (a title phrase read is its chip: not said twice)
            phrases = {c.clause for c in reading.conditions}
            free = tuple(w for w in free if f'"{w}"' not in phrases)
        self.free.setText(("and the words " + " ".join(f"“{w}”" for w in free)) if free else "")
        self.free.setVisible(bool(free))
        query = reading.query if understood and reading is not None else ""
        self.query.set_full(query)
        self.query.setVisible(bool(understood))
        self.same.setVisible(bool(understood))
        self.query.setToolTip(plain_tooltip(f"The same in the query language: {query}") if query else "")
        self.words.setVisible(bool(understood))
        written = "" if not typed or understood or reading is None or reading.literal else as_written(reading)
        self.written.setText(written)
        self.written.setVisible(bool(written))
        self.literal.setVisible(bool(literal))
        self.back.setVisible(bool(literal))
        self.suggestion.setVisible(bool(suggestion))
        other = reading.offered_other() if understood and not suggestion and reading is not None else None
        self.other.setVisible(other is not None)
        if other is not None:
            self._other_index, said = other
            self.other.setText(f"Or {said}?")
            self.other.setAccessibleName(f"Read it as {said} instead")
            self.other.setToolTip(plain_tooltip(f"Read it as {said} instead"))
        if suggestion:
            from catalogue_desktop.ui.finder.suggestion import suggested

            said = f"Did you mean {suggested(suggestion)}?"
            self.suggestion.setText(said)
            self.suggestion.setAccessibleName(said)
            self.suggestion.setToolTip("Put it in the box instead of the word typed")

    def sizeHint(self) -> QSize:
        return QSize(0, self.height())  # (any width: the toolbar it is in stretches it)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.height())

    words_off = False  # the box searches its words as typed (set by the box before showing)

    @property
    def reading(self) -> Reading | None:
        return self._shown

    def focus_chain(self) -> list[QWidget]:
        """The line's buttons in Tab order (hidden ones are skipped by Qt)."""
        return [*self.chips, self.back, self.suggestion, self.words]  # (the order shown)


def as_written(reading: Reading) -> str:
    """What the line says of a text nothing was read in: the query language as written (its
    free words named), or only words to find in the records' text."""
    from catalogue_desktop.core.query.syntax import parse, walk

    words = " ".join(f"“{w}”" for w in reading.words)
    if all(t.op == "word" and t.field is None for t in walk(parse(reading.query).root)):
        return f"Looking for the words {words} in the records' text" if words else ""
    return "The query language, as written" + (f", and the words {words}" if words else "")


def _mute(label: QLabel) -> None:
    from catalogue_desktop.ui.common.colors import muted

    palette = label.palette()
    palette.setColor(label.foregroundRole(), muted(palette))
    label.setPalette(palette)


class ElidedLabel(QLabel):
    """One line of plain text cut with "…" to the room it is given (the whole text: ``full``)."""

    def __init__(self) -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.full = ""

    def set_full(self, text: str) -> None:
        self.full = text
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = max(self.width(), 0)
        elide = Qt.TextElideMode.ElideRight
        shown = self.fontMetrics().elidedText(self.full, elide, room) if self.full else ""
        if shown != self.text():
            self.setText(shown)
