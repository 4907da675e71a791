"""The detail pane: one full record, by kind, with links to related records.

``DetailPane.show_record(kind, record, context)`` fills the page of that kind (a scroll area in a
stacked widget) for the record: each kind's page is made once, on first use, and filled again in
place after that (see ``page`` and ``kind_pages``). Cross-links emit ``link_activated(kind, id)``;
http(s) links emit ``open_url(url)``. Server text is always shown as plain text (see
``plain_labels`` and ``page_links``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QLabel,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.qt_compat.lifetime import is_alive
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.common.urls import is_web_url
from catalogue_desktop.ui.detail.images import ImageLoader, choose_url
from catalogue_desktop.ui.detail.page_links import parse_internal_href
from catalogue_desktop.ui.detail.photo import PhotoLabel

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent  # (its enums are made at the first key press)

    from catalogue_desktop.core.records.models import Record
    from catalogue_desktop.ui.detail.context import DetailContext
    from catalogue_desktop.ui.detail.page import Page

__all__ = ["DetailPane"]


class DetailPane(QWidget):
    """Shows one record of any kind; empty with a message when nothing is selected."""

    link_activated = Signal(object, int)  # Kind, record id
    open_url = Signal(str)  # an http(s) URL the user clicked
    leave_requested = Signal()  # Escape in the pane: back to the table

    def __init__(
        self, formatter: Formatter, images: ImageLoader | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.formatter = formatter
        self.images = images
        self.current: tuple[Kind, int] | None = None
        self._photos: dict[str, list[PhotoLabel]] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._stack = QStackedWidget(self)
        layout.addWidget(self._stack)
        self._message = QLabel()
        self._message.setObjectName("detail_message")
        self._message.setTextFormat(Qt.TextFormat.PlainText)
        self._message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._message.setWordWrap(True)
        self._message.setEnabled(False)  # muted
        self._stack.addWidget(self._message)
        self._pages: dict[Kind, QScrollArea] = {}
        self._contents: dict[Kind, Page] = {}  # made on first use
        for kind in Kind:
            page = QScrollArea()
            page.setObjectName(f"page_{kind.value}")
            page.setWidgetResizable(True)
            page.setFrameShape(QFrame.Shape.NoFrame)
            page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self._pages[kind] = page
            self._stack.addWidget(page)
        if images is not None:
            images.loaded.connect(self._photo_loaded)
            images.failed.connect(self._photo_failed)
        self.clear()

    # -- public API ----------------------------------------------------------------------------

    def show_record(self, kind: Kind, record: Record | None, context: DetailContext) -> None:
        """Show ``record`` (a pydantic model of ``kind``); None shows "not found"."""
        if record is None:
            self.clear("This record is not in the catalogue.")
            return
        self._photos = {}
        scroll = self._pages[kind]
        content = self._content(kind)
        try:
            content.fill(record, context)
        except Exception:
            self.clear("This record could not be shown.")  # not a half-filled page
            raise
        # The scroll area sizes the page when told its layout changed, a round of events after
        # the page's own layout ran at the old height (squeezed for a frame): told here, at once.
        QApplication.sendEvent(scroll, QEvent(QEvent.Type.LayoutRequest))
        scroll.verticalScrollBar().setValue(0)
        scroll.horizontalScrollBar().setValue(0)  # (a link reached by Tab may have moved it)
        self._stack.setCurrentWidget(scroll)
        self.current = (kind, _record_id(kind, record))

    def _content(self, kind: Kind) -> Page:
        content = self._contents.get(kind)
        if content is None:
            from catalogue_desktop.ui.detail.kind_pages import make_page

            content = self._contents[kind] = make_page(self, kind)
            self._pages[kind].setWidget(content.widget)
        return content

    def clear(self, message: str = "") -> None:
        """Show ``message`` (or nothing) instead of a record."""
        self._photos = {}
        self.current = None
        self._message.setText(message)
        self._stack.setCurrentWidget(self._message)

    def focus_record(self) -> bool:
        """The keyboard to the shown record (arrows scroll, Tab walks its links); False if none."""
        shown = self._stack.currentWidget()
        if self.current is None or shown is None:
            return False
        shown.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.leave_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def current_page(self) -> QWidget | None:
        """The content widget shown (for tests and screenshots)."""
        widget = self._stack.currentWidget()
        if isinstance(widget, QScrollArea):
            return widget.widget()
        return widget

    # -- used by the page builders --------------------------------------------------------------

    def activate_href(self, href: str) -> None:
        """A link in a page was activated: an internal record link or an http(s) URL."""
        target = parse_internal_href(href)
        if target is not None:
            self.link_activated.emit(target[0], target[1])
        elif is_web_url(href):
            self.open_url.emit(href.strip())

    def photo(
        self, size: int, image_url: str | None, image2x_url: str | None = None, placeholder_text: str = ""
    ) -> PhotoLabel:
        """A photo label: from the cache at once, else a placeholder replaced when it loads."""
        label = PhotoLabel(size, placeholder_text)
        self.load_photo(label, image_url, image2x_url, placeholder_text)
        return label

    def load_photo(
        self,
        label: PhotoLabel,
        image_url: str | None,
        image2x_url: str | None = None,
        placeholder_text: str = "",
    ) -> None:
        """Show a photo in ``label`` (new or shown before): from the cache at once, else a
        placeholder replaced when it loads. The 2x image is chosen on high-density screens."""
        label.reset()
        dpr = label.devicePixelRatioF()
        url = choose_url(image_url, image2x_url, dpr)
        target = round(label.photo_size * dpr)
        usable = bool(url) and is_web_url(url)
        if usable and self.images is not None:
            pixmap = self.images.pixmap_for(url, target)  # type: ignore[arg-type]
            if pixmap is not None:
                label.url = url
                label.set_photo(pixmap)
                return
        label.set_placeholder(placeholder_text)
        if not url:
            label.set_failed("no image")
            return
        label.url = url
        if not usable:
            label.set_failed("not a web address")  # never fetched
            return
        if self.images is None:
            return
        self._photos.setdefault(url, []).append(label)
        self.images.request(url, target)

    def _photo_loaded(self, url: str, pixmap: QPixmap) -> None:
        for label in self._photos.pop(url, ()):
            if is_alive(label) and label.url == url and not label.has_photo:
                label.set_photo(pixmap)

    def _photo_failed(self, url: str, reason: str) -> None:
        for label in self._photos.pop(url, ()):
            if is_alive(label) and label.url == url and not label.has_photo:
                label.set_failed(reason)


_ID_ATTRS = {
    Kind.WEBINARS: "webinar_id",
    Kind.SERIES: "series_id",
    Kind.COURSES: "course_id",
    Kind.CERTIFICATES: "certificate_id",
    Kind.EXPERTS: "expert_id",
    Kind.TOPICS: "topic_id",
    Kind.ROLES: "role_id",
    Kind.SITUATIONS: "situation_id",
}


def _record_id(kind: Kind, record: Record) -> int:
    return int(getattr(record, _ID_ATTRS[kind]))
