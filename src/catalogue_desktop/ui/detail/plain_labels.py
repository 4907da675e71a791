"""Plain text in a detail page: labels that never interpret server text as HTML, capped lengths,
a scrollable box for long text, headings and muted notes.

Pages are filled again for every record shown, so most widgets come as a pair: a function that
makes one (``plain_label``) and one that sets its content (``set_plain_text``).

SAFETY: server text is data. Every label that shows server text uses ``Qt.PlainText``, and its
bidi and other control characters are made visible (``core.formats.drawn_text.visible``: U+202E cannot
draw a title reversed).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QFont, QPalette, QTextOption
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSizePolicy, QWidget

from catalogue_desktop.core.formats.drawn_text import visible

__all__ = [
    "BLANK",
    "LONG_TEXT",
    "MAX_TEXT",
    "SELECTABLE",
    "TextLabel",
    "cap_text",
    "fill_text",
    "heading",
    "join_nonblank",
    "muted",
    "new_text_widget",
    "plain_label",
    "set_plain_text",
    "text_height",
    "text_variant",
    "text_widget",
]

MAX_TEXT = 200_000  # characters shown of one text field (a 1 MB description must not freeze)
LONG_TEXT = 6_000  # above this, a scrollable read-only text box instead of a label
BLANK = "—"
SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard


def cap_text(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… (truncated: {len(text):,} characters in all)"


class TextLabel(QLabel):
    """A QLabel that remembers its heights for width until its text or font changes.

    ``QLabel.heightForWidth`` lays out the label's text document twice for every call (at the
    width asked for, then back at the width it had), even at a width it was just asked for, and
    the layouts of a detail page ask each wrapped label several times per record, at the same one
    or two widths (with and without the vertical scroll bar). The heights are QLabel's own.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._for_text: str | None = None  # the text the remembered heights are for
        self._heights: dict[int, int] = {}

    def heightForWidth(self, width: int) -> int:
        text = self.text()
        if text != self._for_text:
            self._heights.clear()
            self._for_text = text
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = QLabel.heightForWidth(self, width)
        return height

    def _forget(self) -> None:
        self._for_text = None
        self._heights.clear()

    def changeEvent(self, event: QEvent) -> None:
        self._forget()  # a new font, style or contents margins: measure again
        super().changeEvent(event)

    # Properties that change the heights without an event: measure again after them.

    def setWordWrap(self, on: bool) -> None:
        super().setWordWrap(on)
        self._forget()

    def setTextFormat(self, format: Qt.TextFormat) -> None:
        super().setTextFormat(format)
        self._forget()

    def setAlignment(self, alignment: Qt.AlignmentFlag) -> None:
        super().setAlignment(alignment)
        self._forget()

    def setIndent(self, indent: int) -> None:
        super().setIndent(indent)
        self._forget()

    def setMargin(self, margin: int) -> None:
        super().setMargin(margin)
        self._forget()

    def setMinimumWidth(self, width: int) -> None:
        super().setMinimumWidth(width)
        self._forget()


def plain_label(text: str, name: str | None = None, *, wrap: bool = True) -> QLabel:
    """A selectable label that never interprets its text as HTML."""
    label = TextLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    set_plain_text(label, text)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(SELECTABLE)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    text_height(label, wrap)
    if name:
        label.setObjectName(name)
    return label


def set_plain_text(label: QLabel, text: str) -> None:
    """Set the text of a :func:`plain_label` (capped: laying out a wrapped 1 MB label takes seconds)."""
    label.setText(visible(cap_text(text, LONG_TEXT)))


def text_height(label: QLabel, wrap: bool) -> None:
    """At least the height the text needs at the label's width (height-for-width). A ``Fixed``
    vertical policy capped wrapped labels at QLabel's size hint, computed for a wider line: in a
    narrow pane bios and descriptions were cut off, with gaps above them."""
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    policy.setHeightForWidth(wrap)
    label.setSizePolicy(policy)


def muted(label: QLabel) -> QLabel:
    """Grey text that stays selectable (a disabled label would not be)."""
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(108, 114, 124))
    label.setPalette(palette)
    label.setProperty("muted", True)
    return label


def text_variant(text: str) -> str:
    """Which widget :func:`text_widget` shows ``text`` in: "label", or "box" for long text."""
    return "box" if len(text) > LONG_TEXT else "label"


def new_text_widget(variant: str, name: str | None = None) -> QWidget:
    """An empty widget of a :func:`text_variant`, to be filled by :func:`fill_text`."""
    if variant == "label":
        return plain_label("", name)
    box = QPlainTextEdit()
    box.setReadOnly(True)
    # Word boundaries only: the default (word boundary, else anywhere) takes seconds to lay out a long
    # unbroken run (docs/decisions.md, "Detail pane and offers"); such a run scrolls sideways instead.
    box.setWordWrapMode(QTextOption.WrapMode.WordWrap)
    box.setMinimumHeight(240)
    box.setMaximumHeight(360)
    box.setTextInteractionFlags(SELECTABLE)
    if name:
        box.setObjectName(name)
    return box


def fill_text(widget: QWidget, text: str) -> None:
    """Show ``text`` (capped) in a widget made by :func:`new_text_widget`."""
    text = cap_text(text)
    if isinstance(widget, QPlainTextEdit):
        widget.setPlainText(visible(text))
    elif isinstance(widget, QLabel):
        set_plain_text(widget, text)


def text_widget(text: str, name: str | None = None) -> QWidget:
    """Plain text, capped: a wrapped label, or a scrollable read-only box for long text."""
    widget = new_text_widget(text_variant(text), name)
    fill_text(widget, text)
    return widget


def heading(text: str, name: str | None = None, *, size_delta: float = 1.0) -> QLabel:
    label = plain_label(text, name)
    font = QFont(label.font())
    font.setBold(True)
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() + size_delta)
    label.setFont(font)
    return label


def join_nonblank(parts: Iterable[str | None], sep: str = ", ") -> str:
    return sep.join(p for p in parts if p)
