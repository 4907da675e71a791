"""A word when a refresh brings news for a watched search: a desktop notification through the
system tray where the desktop has one, else a notice in the window's status bar; clicking either
opens What's new. The notice goes once What's new was seen, whichever way it was opened."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

if TYPE_CHECKING:
    # (named at the first word said, not at import: the import made PySide make its two enums,
    # ~1.6 M instructions of the start-up before every cached row is read)
    from PySide6.QtWidgets import QSystemTrayIcon

    from catalogue_desktop.core.searches.news import News


class Notifier(QObject):
    """Says that watched searches have news (``say``); ``open_news()`` shows What's new."""

    def __init__(
        self, window: QMainWindow, open_news: Callable[[], None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._window = window
        self._open = open_news
        self._tray: QSystemTrayIcon | None = None
        self.last: str | None = None  # what was said last (tests, accessibility)
        self._news = self._offers = ""  # what the notice says until opened: news, offers
        self.notice = QLabel()
        self.notice.setObjectName("whats-new-notice")
        self.notice.setTextFormat(Qt.TextFormat.RichText)
        self.notice.setAccessibleName("What's new notice")
        self.notice.linkActivated.connect(lambda _link: self.open())
        self.notice.hide()
        window.statusBar().addPermanentWidget(self.notice)

    @staticmethod
    def tray_available() -> bool:
        from PySide6.QtWidgets import QSystemTrayIcon

        return QSystemTrayIcon.isSystemTrayAvailable()

    def say(self, count: int, news: Sequence[News]) -> None:
        """Tell of ``count`` news (``news``: per watched search)."""
        names = [item.search.name for item in news if item.count]
        self._news = f"{count} news for {_names(names)}" if names else f"{count} news in watched searches"
        self._tell()

    def say_offers(self, count: int) -> None:
        """Tell that a refresh left ``count`` open offers no longer matching the catalogue (they
        are listed in What's new, and in Go ▸ Offers)."""
        ending = "es" if count == 1 else ""
        self._offers = f"{count} offer{'s' if count != 1 else ''} no longer match{ending} the catalogue"
        self._tell()

    def _tell(self) -> None:
        """Say the news and the offers not said since the notice was last opened."""
        text = "; ".join(t for t in (self._news, self._offers) if t)
        self.last = text
        if self.tray_available():
            from PySide6.QtWidgets import QSystemTrayIcon

            if self._tray is None:
                self._tray = QSystemTrayIcon(self._icon(), self)
                self._tray.messageClicked.connect(self.open)
                self._tray.activated.connect(lambda _reason: self.open())
            self._tray.show()
            self._tray.showMessage("What's new", text, QSystemTrayIcon.MessageIcon.Information, 10_000)
        from html import escape

        self.notice.setText(f'<a href="whats-new">{escape(text)} — show</a>')
        self.notice.show()

    def _icon(self) -> QIcon:
        """The app's icon, else the style's information icon (a tray icon must have one)."""
        icon = QApplication.windowIcon()
        if icon.isNull():
            from PySide6.QtWidgets import QStyle

            icon = self._window.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
        return icon

    def open(self) -> None:
        self.seen()
        self._open()

    def seen(self) -> None:
        """What's new was looked at (however it was opened): the notice has said its piece."""
        self._news = self._offers = ""
        self.notice.hide()


def _names(names: list[str]) -> str:
    quoted = [f"“{n}”" for n in names[:3]]
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(quoted) + more
