"""Settings on a real INI file (redirected to tmp by the autouse fixture in conftest)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray

from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.ui.common.settings import Settings


def _ini(settings_dir: Path) -> Path:
    [path] = settings_dir.rglob("*.ini")
    return path


def test_text_settings_round_trip_and_an_unchanged_value_does_not_rewrite_the_file(
    _private_settings_and_cache: Path,
) -> None:
    settings = Settings()
    settings.base_url = "http://catalogue.example.org"
    settings.currency = "EUR"
    settings.sync()
    ini = _ini(_private_settings_and_cache)
    written = ini.stat().st_mtime_ns, ini.read_text()

    again = Settings()  # a later start, told the same on its command line
    assert (again.base_url, again.currency) == ("http://catalogue.example.org", "EUR")
    again.base_url = "http://catalogue.example.org"
    again.currency = "EUR"
    again.sync()
    assert (ini.stat().st_mtime_ns, ini.read_text()) == written

    again.base_url = None
    again.currency = "USD"
    again.sync()
    third = Settings()
    assert (third.base_url, third.currency) == (None, "USD")
    assert ini.stat().st_mtime_ns != written[0]


def test_window_and_tab_layout_unchanged_since_the_start_are_not_written_again(
    _private_settings_and_cache: Path,
) -> None:
    settings = Settings()
    settings.save_window(QByteArray(b"geometry"), QByteArray(b"state"))
    settings.last_tab = 3
    settings.save_tab(Kind.WEBINARS, QByteArray(b"header"), QByteArray(b"splitter"), (4, 1))
    settings.sync()
    ini = _ini(_private_settings_and_cache)
    written = ini.stat().st_mtime_ns, ini.read_text()

    again = Settings()  # the next run, closed without changing anything
    assert (again.window_geometry(), again.window_state()) == (QByteArray(b"geometry"),
                                                               QByteArray(b"state"))
    assert (again.last_tab, again.sort(Kind.WEBINARS)) == (3, (4, 1))
    again.save_window(again.window_geometry() or QByteArray(), again.window_state() or QByteArray())
    again.last_tab = 3
    again.save_tab(Kind.WEBINARS, QByteArray(b"header"), QByteArray(b"splitter"), (4, 1))
    again.sync()
    assert (ini.stat().st_mtime_ns, ini.read_text()) == written

    again.save_tab(Kind.WEBINARS, QByteArray(b"header"), QByteArray(b"splitter"), (4, 0))
    again.sync()
    assert Settings().sort(Kind.WEBINARS) == (4, 0)
    assert ini.stat().st_mtime_ns != written[0]
