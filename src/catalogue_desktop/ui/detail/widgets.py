"""Small shared widgets for detail panes: plain-text labels, link lists, photos, key/value grids.

Detail pages are filled again for every record shown, so most widgets come as a pair: a function
that makes one (``plain_label``) and one that sets its content (``set_plain_text``). :class:`Slots`
keeps a layout's widgets from one record to the next; :class:`FormGrid` reuses its rows.

SAFETY: server text is data. Every label that shows server text uses ``Qt.PlainText``; the only
rich text is built here from ``html.escape()``d titles and hrefs we make ourselves
(``catalogue:webinars/7001``) or http(s) URLs checked by :func:`is_web_url`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPixmap, QTextOption
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QWidget,
)

from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.qt_compat.lifetime import delete_later
from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.common.urls import is_web_url

__all__ = [
    "BLANK",
    "LONG_TEXT",
    "MAX_TEXT",
    "FormGrid",
    "Link",
    "PhotoLabel",
    "Slots",
    "TextLabel",
    "WrapBox",
    "cap_text",
    "discard",
    "fill_text",
    "heading",
    "internal_href",
    "link_label",
    "muted",
    "new_text_widget",
    "parse_internal_href",
    "plain_label",
    "plain_tooltip",
    "set_links",
    "set_plain_text",
    "set_url",
    "settle",
    "text_variant",
    "text_widget",
    "url_label",
    "url_variant",
]

MAX_TEXT = 200_000  # characters shown of one text field (a 1 MB description must not freeze)
LONG_TEXT = 6_000  # above this, a scrollable read-only text box instead of a label
BLANK = "—"
SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
LINKS = (
    SELECTABLE
    | Qt.TextInteractionFlag.LinksAccessibleByMouse
    | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
)
_HREF = re.compile(r"^catalogue:([a-z]+)/(-?\d+)$")
W = TypeVar("W", bound=QWidget)


def cap_text(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… (truncated: {len(text):,} characters in all)"


def internal_href(kind: Kind, record_id: int) -> str:
    return f"catalogue:{kind.value}/{record_id}"


def parse_internal_href(href: str) -> tuple[Kind, int] | None:
    match = _HREF.match(href)
    if not match:
        return None
    try:
        return Kind(match.group(1)), int(match.group(2))
    except ValueError:
        return None


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
    _text_height(label, wrap)
    if name:
        label.setObjectName(name)
    return label


def set_plain_text(label: QLabel, text: str) -> None:
    """Set the text of a :func:`plain_label` (capped: laying out a wrapped 1 MB label takes seconds)."""
    label.setText(cap_text(text, LONG_TEXT))


def _text_height(label: QLabel, wrap: bool) -> None:
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
    # Word boundaries only: the default (word boundary, else anywhere) takes seconds to lay out
    # a long unbroken run (5 s for 200,000 characters); such a run scrolls sideways instead.
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
        widget.setPlainText(text)
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


@dataclass(frozen=True, slots=True)
class Link:
    """One entry of a link list: an internal record link, or plain text when ``href`` is None."""

    text: str
    href: str | None = None
    note: str = ""


def link_label(links: Sequence[Link], name: str | None = None, *, separator: str = "<br>") -> QLabel:
    """A label with our own rich text: escaped titles, hrefs we built. ``linkActivated(href)``."""
    label = TextLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    set_links(label, links, separator=separator)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    _text_height(label, True)
    label.setOpenExternalLinks(False)
    label.setTextInteractionFlags(LINKS)
    if name:
        label.setObjectName(name)
    return label


def set_links(label: QLabel, links: Sequence[Link], *, separator: str = "<br>") -> None:
    """Set the links of a :func:`link_label`."""
    parts = []
    for link in links:
        text = html.escape(link.text)
        part = f'<a href="{html.escape(link.href, quote=True)}">{text}</a>' if link.href else text
        if link.note:
            part += f' <span style="color: gray">{html.escape(link.note)}</span>'
        parts.append(part)
    label.setText(separator.join(parts))


def url_variant(url: str) -> str:
    """How :func:`url_label` shows ``url``: as a "link", or as "inert" text."""
    return "link" if is_web_url(url) else "inert"


def url_label(url: str, name: str | None = None) -> QLabel:
    """An http(s) URL as a link; anything else (javascript:, file:, ...) as inert plain text."""
    if url_variant(url) == "link":
        label = link_label([], name)
    else:
        label = plain_label("", name)
        label.setProperty("inert", True)
    set_url(label, url)
    return label


def set_url(label: QLabel, url: str) -> None:
    """Set the URL of a :func:`url_label` made for the same :func:`url_variant`."""
    if label.property("inert") is True:
        set_plain_text(label, f"{url} (not a web address; not opened)")
    else:
        set_links(label, [Link(url, url.strip())])


def discard(widget: QWidget) -> None:
    """Take ``widget`` out of its page at once (``findChildren`` no longer sees it) and delete it
    when control returns to the event loop (it may be emitting the signal being handled)."""
    widget.hide()
    widget.setParent(None)
    delete_later(widget)  # parentless now: held until Qt deletes it, on this (the GUI) thread


def _show_added(widget: QWidget) -> None:
    """Show a widget just added to a visible parent now: Qt would show it only on the next pass of
    the event loop, and until then it is hidden (``isVisibleTo`` is false)."""
    if widget.isHidden() and not widget.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide):
        widget.show()


def settle(widget: QWidget) -> None:
    """Lay out a kept widget that was just refilled (a form, a card) at once.

    A new text in a child marks the widget's layout dirty but not the page's cached height for the
    widget: that is updated only when the widget's own layout runs. Run in the event loop, that
    comes after the page's layout, which then places everything with the old height and needs a
    second pass (a second round of events) to get it right. Activated here, bottom-up, the page's
    single pass uses the new heights.
    """
    layout = widget.layout()
    if layout is not None:
        layout.activate()


class Slots:
    """The widgets of one box layout, kept from one record to the next.

    A page is filled by asking for its widgets in order: :meth:`take` returns the widget kept
    under a key (``make()`` makes it the first time), :meth:`add` places a fresh widget that is
    dropped at the next fill. :meth:`finish` lays out exactly the widgets asked for, in that order,
    and deletes the others, so the layout ends as a fresh build would leave it, without making,
    polishing and laying out every widget again. A key names the widget's role and its variant
    (``("text", "description", "label")``), so a kept widget is always of the kind asked for.
    """

    def __init__(self, layout: QBoxLayout, *, stretch: bool = False) -> None:
        self.layout = layout
        if stretch:
            layout.addStretch(1)  # stays last: widgets are inserted before it
        self._kept: dict[Hashable, QWidget] = {}
        self._shown: list[QWidget] = []
        self._taken: dict[Hashable, QWidget] = {}
        self._order: list[QWidget] = []

    def begin(self) -> None:
        """Start filling (a fill that stopped half-way, on an exception, is finished first)."""
        if self._order or self._taken:
            self.finish()

    def take(self, key: Hashable, make: Callable[[], W]) -> W:
        widget = self._kept.pop(key, None)
        if widget is None:
            widget = make()
        self._taken[key] = widget
        self._order.append(widget)
        return widget  # type: ignore[return-value]

    def add(self, widget: W) -> W:
        self._order.append(widget)
        return widget

    def finish(self) -> None:
        order, shown = self._order, self._shown
        if len(order) != len(shown) or any(a is not b for a, b in zip(order, shown, strict=False)):
            keep = {id(w) for w in order}
            for widget in shown:
                if id(widget) in keep:
                    # removeWidget deletes the layout item. (takeAt would leave it alive and still
                    # registered with the widget, whose updateGeometry would then reset that item's
                    # cached heights instead of the new item's: stale heights after a new text.)
                    self.layout.removeWidget(widget)
                else:
                    discard(widget)  # leaves the layout with its parent
            for i, widget in enumerate(order):
                self.layout.insertWidget(i, widget)  # before the stretch, if any
                _show_added(widget)
        self._kept, self._taken = self._taken, {}
        self._shown, self._order = order, []


class WrapBox(QWidget):
    """A widget laying out wrapped labels, whose size hint skips a pass of text layout.

    ``QWidget.sizeHint`` asks its layout for the height at the hint's own width
    (``QLayout.totalSizeHint``): every wrapped label below is laid out again at a width it is never
    shown at, and a selectable label lays out its text document twice per call. The vertical
    layouts of a detail page take the heights of such widgets from ``heightForWidth`` at their
    real width, so the hint's height is unused: here it is the layout's plain hint.
    """

    def sizeHint(self) -> QSize:
        return wrap_size_hint(self)


def wrap_size_hint(widget: QWidget) -> QSize:
    """:class:`WrapBox`'s size hint, for other widget classes holding wrapped labels."""
    layout = widget.layout()
    if layout is None:
        return QWidget.sizeHint(widget)
    margins = widget.contentsMargins()
    return layout.sizeHint() + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())


class FormGrid(WrapBox):
    """Key/value rows: muted keys on the left, selectable values on the right.

    To fill it again for another record, call :meth:`restart`, add the rows, then :meth:`finish`:
    rows are reused by position (a value widget when it is of the same variant).
    """

    def __init__(self, parent: QWidget | None = None, name: str | None = None) -> None:
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(16)
        self._grid.setVerticalSpacing(4)
        self._grid.setColumnStretch(1, 1)
        self.rows = 0
        self._cells: list[tuple[QLabel, QWidget, str | None]] = []  # key, value, value variant
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        if name:
            self.setObjectName(name)

    def restart(self) -> None:
        """Fill from the first row again (a fill that stopped half-way is finished first)."""
        self.finish()
        self.rows = 0

    def add(self, key: str, value: str | QWidget | None, slug: str | None = None) -> QWidget:
        """Add a row; a None or empty value shows as "—"."""
        slug = slug or _slug(key)
        if isinstance(value, QWidget):
            if not value.objectName():
                value.setObjectName(f"value_{slug}")
            return self._row(key, slug, None, lambda: value, None)
        text = value or BLANK
        variant = text_variant(text)
        widget = self._row(key, slug, variant, lambda: new_text_widget(variant), lambda w: fill_text(w, text))
        widget.setObjectName(f"value_{slug}")
        return widget

    def add_url(self, key: str, url: str | None, name: str,
                activate: Callable[[str], None]) -> QWidget:
        """Add a row with a :func:`url_label` (named ``name``; "—" without a URL); its links call
        ``activate(href)``."""
        if not url:
            return self.add(key, None)

        def make() -> QLabel:
            label = url_label(url, name)
            label.linkActivated.connect(activate)
            return label

        return self._row(key, _slug(key), f"url_{url_variant(url)}", make,
                         lambda w: set_url(w, url))  # type: ignore[arg-type]

    def _row(self, key: str, slug: str, variant: str | None, make: Callable[[], QWidget],
             fill: Callable[[QWidget], None] | None) -> QWidget:
        row = self.rows
        if row == len(self._cells):
            key_label = muted(plain_label(key, f"key_{slug}", wrap=False))
            self._grid.addWidget(key_label, row, 0, Qt.AlignmentFlag.AlignTop)
            _show_added(key_label)
            self._cells.append((key_label, self._place(make, row), variant))
        else:
            key_label, widget, old_variant = self._cells[row]
            set_plain_text(key_label, key)
            key_label.setObjectName(f"key_{slug}")
            if variant is None or variant != old_variant:
                discard(widget)
                self._cells[row] = (key_label, self._place(make, row), variant)
        widget = self._cells[row][1]
        if fill is not None:
            fill(widget)
        self.rows += 1
        return widget

    def _place(self, make: Callable[[], QWidget], row: int) -> QWidget:
        widget = make()
        self._grid.addWidget(widget, row, 1)
        _show_added(widget)
        return widget

    def finish(self) -> None:
        """Remove the rows beyond those added since :meth:`restart`."""
        for key_label, widget, _ in self._cells[self.rows:]:
            discard(key_label)
            discard(widget)
        del self._cells[self.rows:]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _initials(name: str) -> str:
    words = [w for w in re.split(r"[\s,.]+", name) if w and w[0].isalpha()]
    return "".join(w[0].upper() for w in words[:2]) or "?"


def placeholder_pixmap(size: int, text: str = "", dpr: float = 1.0) -> QPixmap:
    """A grey rounded square with initials (or a dash), drawn locally."""
    pixmap = QPixmap(QSize(round(size * dpr), round(size * dpr)))
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(200, 204, 210))
    painter.drawRoundedRect(0, 0, size, size, size / 8, size / 8)
    font = QFont()
    font.setPixelSize(max(8, size // 3))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor(110, 116, 125))
    painter.drawText(0, 0, size, size, Qt.AlignmentFlag.AlignCenter, _initials(text) if text else "—")
    painter.end()
    return pixmap


class PhotoLabel(QLabel):
    """A fixed-size photo; shows a placeholder until (or unless) the image arrives."""

    def __init__(self, size: int, placeholder_text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.photo_size = size
        self.setObjectName("photo")
        self.setFixedSize(size, size)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.has_photo = False
        self.url: str | None = None
        self.failure: str | None = None
        self._placeholder: str | None = None  # the text of the placeholder shown
        self.set_placeholder(placeholder_text)

    def reset(self) -> None:
        """Forget the photo, URL and failure (the label is reused for another record); the
        caller then sets a photo or a placeholder."""
        self.has_photo = False
        self.url = None
        if self.failure is not None:
            self.failure = None
            self.setToolTip("")

    def set_placeholder(self, text: str) -> None:
        """Show the placeholder for ``text`` (drawn only when it is not already shown)."""
        self.has_photo = False
        if self._placeholder != text:
            self.setPixmap(placeholder_pixmap(self.photo_size, text, self.devicePixelRatioF()))
            self._placeholder = text

    def set_photo(self, pixmap: QPixmap) -> None:
        dpr = self.devicePixelRatioF()
        target = round(self.photo_size * dpr)
        if pixmap.width() > target or pixmap.height() > target:
            pixmap = pixmap.scaled(target, target, Qt.AspectRatioMode.KeepAspectRatio,
                                   Qt.TransformationMode.SmoothTransformation)
        else:
            pixmap = QPixmap(pixmap)
        pixmap.setDevicePixelRatio(dpr)
        self.setPixmap(pixmap)
        self.has_photo = True
        self._placeholder = None

    def set_failed(self, reason: str) -> None:
        self.failure = reason
        self.setToolTip(f"Photo not available: {reason}")


def join_nonblank(parts: Iterable[str | None], sep: str = ", ") -> str:
    return sep.join(p for p in parts if p)
