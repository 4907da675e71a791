"""Small shared widgets for detail panes: plain-text labels, link lists, photos, key/value grids.

SAFETY: server text is data. Every label that shows server text uses ``Qt.PlainText``; the only
rich text is built here from ``html.escape()``d titles and hrefs we make ourselves
(``catalogue:webinars/7001``) or http(s) URLs checked by :func:`is_web_url`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPixmap, QTextOption
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QWidget,
)

from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.ui.images import is_web_url

__all__ = [
    "BLANK",
    "LONG_TEXT",
    "MAX_TEXT",
    "FormGrid",
    "Link",
    "PhotoLabel",
    "cap_text",
    "heading",
    "internal_href",
    "link_label",
    "muted",
    "parse_internal_href",
    "plain_label",
    "plain_tooltip",
    "text_widget",
    "url_label",
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


def cap_text(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… (truncated: {len(text):,} characters in all)"


def plain_tooltip(text: str | None) -> str | None:
    """``text`` as a tooltip that shows literally: Qt renders a tooltip that looks like HTML
    (``Qt.mightBeRichText``) as rich text, so such text is escaped into rich text of itself."""
    if not text or not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, GuiQt.WhiteSpaceMode.WhiteSpaceNormal)


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


def plain_label(text: str, name: str | None = None, *, wrap: bool = True) -> QLabel:
    """A selectable label that never interprets its text as HTML."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(cap_text(text, LONG_TEXT))  # laying out a wrapped 1 MB label takes seconds
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(SELECTABLE)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    _fixed_height(label, wrap)
    if name:
        label.setObjectName(name)
    return label


def _fixed_height(label: QLabel, wrap: bool) -> None:
    """Take the height the text needs at the given width, no more (keeps height-for-width)."""
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
    policy.setHeightForWidth(wrap)
    label.setSizePolicy(policy)


def muted(label: QLabel) -> QLabel:
    """Grey text that stays selectable (a disabled label would not be)."""
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(108, 114, 124))
    label.setPalette(palette)
    label.setProperty("muted", True)
    return label


def text_widget(text: str, name: str | None = None) -> QWidget:
    """Plain text, capped: a wrapped label, or a scrollable read-only box for long text."""
    text = cap_text(text)
    if len(text) <= LONG_TEXT:
        return plain_label(text, name)
    box = QPlainTextEdit()
    box.setReadOnly(True)
    # Word boundaries only: the default (word boundary, else anywhere) takes seconds to lay out
    # a long unbroken run (5 s for 200,000 characters); such a run scrolls sideways instead.
    box.setWordWrapMode(QTextOption.WrapMode.WordWrap)
    box.setPlainText(text)
    box.setMinimumHeight(240)
    box.setMaximumHeight(360)
    box.setTextInteractionFlags(SELECTABLE)
    if name:
        box.setObjectName(name)
    return box


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
    parts = []
    for link in links:
        text = html.escape(link.text)
        part = f'<a href="{html.escape(link.href, quote=True)}">{text}</a>' if link.href else text
        if link.note:
            part += f' <span style="color: gray">{html.escape(link.note)}</span>'
        parts.append(part)
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setText(separator.join(parts))
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    _fixed_height(label, True)
    label.setOpenExternalLinks(False)
    label.setTextInteractionFlags(LINKS)
    if name:
        label.setObjectName(name)
    return label


def url_label(url: str, name: str | None = None) -> QLabel:
    """An http(s) URL as a link; anything else (javascript:, file:, ...) as inert plain text."""
    if is_web_url(url):
        return link_label([Link(url, url.strip())], name)
    label = plain_label(f"{url} (not a web address; not opened)", name)
    label.setProperty("inert", True)
    return label


class FormGrid(QWidget):
    """Key/value rows: muted keys on the left, selectable values on the right."""

    def __init__(self, parent: QWidget | None = None, name: str | None = None) -> None:
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(16)
        self._grid.setVerticalSpacing(4)
        self._grid.setColumnStretch(1, 1)
        self.rows = 0
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        if name:
            self.setObjectName(name)

    def add(self, key: str, value: str | QWidget | None, slug: str | None = None) -> QWidget:
        """Add a row; a None or empty value shows as "—"."""
        slug = slug or re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_")
        key_label = plain_label(key, f"key_{slug}", wrap=False)
        key_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        muted(key_label)
        if isinstance(value, QWidget):
            widget = value
            if not widget.objectName():
                widget.setObjectName(f"value_{slug}")
        else:
            widget = text_widget(value, f"value_{slug}") if value else plain_label(BLANK, f"value_{slug}")
        self._grid.addWidget(key_label, self.rows, 0, Qt.AlignmentFlag.AlignTop)
        self._grid.addWidget(widget, self.rows, 1)
        self.rows += 1
        return widget


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
        self.setPixmap(placeholder_pixmap(size, placeholder_text, self.devicePixelRatioF()))

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

    def set_failed(self, reason: str) -> None:
        self.failure = reason
        self.setToolTip(f"Photo not available: {reason}")


def join_nonblank(parts: Iterable[str | None], sep: str = ", ") -> str:
    return sep.join(p for p in parts if p)
