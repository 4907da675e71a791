"""Refresh on its own: while the window is open (and not ``--offline``), a sync every N hours
(Preferences; default 4; 0: never) and as soon as the network comes back after a refresh found it
gone. It is the same refresh as F5: the rows reload keeping the selection, the scroll position
and the query, and nothing is asked, so open dialogs stay as they are.

The network coming back is heard from ``QNetworkInformation`` where the platform has a backend;
without one, a refresh that found the network gone is tried again every ``RETRY_MIN`` minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from catalogue_desktop.ui.common.settings import Settings

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtNetwork import QNetworkInformation

    from catalogue_desktop.core.sync.runner import SyncReport

DEFAULT_HOURS = 4.0
KEY = "sync/refresh_hours"
RETRY_MIN = 10
NETWORK_CAUSES = frozenset({"offline", "no-answer", "connection-lost"})


def sync_hours(settings: Settings) -> float:
    """Hours between refreshes on their own (0: never); the default where unset or not a number."""
    stored = settings.q.value(KEY, DEFAULT_HOURS)
    try:
        hours = float(stored) if isinstance(stored, str | int | float) else DEFAULT_HOURS
    except ValueError:
        return DEFAULT_HOURS
    return hours if 0 <= hours <= 24 * 365 else DEFAULT_HOURS


def set_sync_hours(settings: Settings, hours: float) -> None:
    if hours == DEFAULT_HOURS:
        settings.q.remove(KEY)
    else:
        settings.q.setValue(KEY, f"{hours:g}")


def network_gone(report: SyncReport | None) -> bool:
    """The refresh found no network: it ran nothing, or every collection failed for want of one."""
    if report is None:
        return True
    outcomes = list(report.collections.values())
    return bool(outcomes) and all(o.status == "failed" and o.cause in NETWORK_CAUSES for o in outcomes)


class AutoSync(QObject):
    """Calls ``refresh()`` every ``hours()`` hours, and when the network comes back."""

    def __init__(
        self, refresh: Callable[[], None], hours: Callable[[], float], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._refresh = refresh
        self._hours = hours
        self.offline = False  # the last refresh found the network gone
        self.timer = QTimer(self, singleShot=True)
        self.timer.timeout.connect(self._due)
        self.retry = QTimer(self, singleShot=True, interval=RETRY_MIN * 60_000)
        self.retry.timeout.connect(self._due)
        self._network: QNetworkInformation | None = None
        self._listen_to_network()

    def start(self) -> None:
        """(Re)start the count to the next refresh (Preferences may have changed its period)."""
        hours = self._hours()
        if hours > 0:
            self.timer.start(int(hours * 3_600_000))
        else:
            self.timer.stop()

    def stop(self) -> None:
        self.timer.stop()
        self.retry.stop()

    def synced(self, report: SyncReport | None) -> None:
        """A refresh finished (any: F5, the timer's): the next one is ``hours`` from now; one
        that found the network gone waits for it to come back."""
        self.offline = network_gone(report)
        if self.offline and self._network is None:
            self.retry.start()
        else:
            self.retry.stop()
        self.start()

    def network_changed(self, online: bool) -> None:
        """The platform says the network is (not) reachable: back after a refresh found it gone,
        refresh now."""
        if online and self.offline:
            self.offline = False
            self._due()

    def _due(self) -> None:
        self._refresh()

    def _listen_to_network(self) -> None:
        try:
            from PySide6.QtNetwork import QNetworkInformation
        except ImportError:  # pragma: no cover - a PySide6 without QtNetwork
            return
        if not QNetworkInformation.loadDefaultBackend():
            return
        info = QNetworkInformation.instance()
        if info is None:
            return
        self._network = info
        online = QNetworkInformation.Reachability.Online
        info.reachabilityChanged.connect(lambda reach: self.network_changed(reach == online))


def connect_auto_sync(
    sync: Callable[[], None],
    settings: Settings,
    ready: SignalInstance,
    synced: SignalInstance,
    preferences_changed: SignalInstance,
    parent: QObject,
) -> AutoSync:
    """A sync every N hours (``sync_hours``), counted from ``ready``, from each sync and from
    Preferences changed (the same sync as F5)."""
    auto = AutoSync(sync, lambda: sync_hours(settings), parent)
    ready.connect(auto.start)
    synced.connect(auto.synced)
    preferences_changed.connect(auto.start)
    return auto
