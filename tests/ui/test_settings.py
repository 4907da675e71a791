"""Settings on a real INI file (redirected to tmp by the autouse fixture in conftest)."""

from __future__ import annotations

from pathlib import Path

from catalogue_desktop.ui.settings import Settings


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
