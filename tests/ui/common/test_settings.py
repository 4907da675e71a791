"""Settings on a real INI file (redirected to tmp by the autouse fixture in conftest)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.searches.book import settings_searches


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
    settings.save_tab(Kind.WEBINARS, QByteArray(b"header"), (4, 1))
    settings.sync()
    ini = _ini(_private_settings_and_cache)
    written = ini.stat().st_mtime_ns, ini.read_text()

    again = Settings()  # the next run, closed without changing anything
    assert (again.window_geometry(), again.window_state()) == (QByteArray(b"geometry"), QByteArray(b"state"))
    assert (again.last_tab, again.sort(Kind.WEBINARS)) == (3, (4, 1))
    again.save_window(again.window_geometry() or QByteArray(), again.window_state() or QByteArray())
    again.last_tab = 3
    again.save_tab(Kind.WEBINARS, QByteArray(b"header"), (4, 1))
    again.sync()
    assert (ini.stat().st_mtime_ns, ini.read_text()) == written

    again.save_tab(Kind.WEBINARS, QByteArray(b"header"), (4, 0))
    again.sync()
    assert Settings().sort(Kind.WEBINARS) == (4, 0)
    assert ini.stat().st_mtime_ns != written[0]


def test_the_sync_timeout_is_remembered_defaults_to_a_minute_and_refuses_nonsense(
    _private_settings_and_cache: Path,
) -> None:
    import pytest

    from catalogue_desktop.core.service.client import DEFAULT_DEADLINE
    from catalogue_desktop.ui.common.settings import DEFAULT_SYNC_TIMEOUT

    assert Settings().sync_timeout == DEFAULT_SYNC_TIMEOUT == DEFAULT_DEADLINE == 60.0
    settings = Settings()
    settings.sync_timeout = 2.5
    settings.sync()
    assert Settings().sync_timeout == 2.5
    for bad in (0, -1, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            settings.sync_timeout = bad
    settings.q.setValue("service/sync_timeout", "soon")  # a hand-edited file
    assert settings.sync_timeout == 60.0
    settings.sync_timeout = None
    settings.sync()
    assert Settings().q.value("service/sync_timeout") is None and Settings().sync_timeout == 60.0


def test_values_of_the_wrong_type_or_out_of_reason_read_as_defaults_with_a_note(
    _private_settings_and_cache: Path,
) -> None:
    ini = _private_settings_and_cache / "catalogue-desktop" / "catalogue-desktop.ini"
    ini.parent.mkdir(parents=True, exist_ok=True)
    ini.write_text(
        "[window]\nlast_tab=1000000000000\ndetail_split=700, 99999999999999\n"
        "[tabs]\nwebinars\\sort_column=abc\nwebinars\\sort_order=7\n"
        "[offers]\nmax_age_days=99999999999999999999\n"
        "[service]\nsync_timeout=1e400\nbase_url=a, b\n"
        f"[display]\ncurrency={'X' * 500}\n"
        "[finder]\nsaved=" + "[" * 100_000 + "\n",
        encoding="utf-8",
    )
    settings = Settings()
    assert settings.last_tab == 0 and settings.detail_split is None
    assert settings.sort(Kind.WEBINARS) == (-1, 0)
    assert settings.offer_max_age_days == 7 and settings.sync_timeout == 60.0
    assert settings.base_url is None and settings.currency is None
    assert settings_searches(settings) == []
    keys = [note.split(": ", 1)[1].split(" = ")[0] for note in settings.notes]
    assert keys == [
        "window/last_tab",
        "window/detail_split",
        "tabs/webinars/sort_column",
        "tabs/webinars/sort_order",
        "offers/max_age_days",
        "service/sync_timeout",
        "service/base_url",
        "display/currency",
        "finder/saved",
    ]
    assert all(note.startswith(str(ini)) and note.endswith("the default is used") for note in settings.notes)
    assert "'1000000000000' is not a whole number from 0 to 100" in settings.notes[0]
