"""The core's one writer of days and times: a locale's patterns as Qt writes them, Qt-free."""

from __future__ import annotations

from datetime import date, datetime, time

from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText

MOMENT = datetime(2026, 12, 3, 13, 5)

GERMAN = TimeText(
    short_date="dd.MM.yy",
    long_date="dddd, d. MMMM yyyy",
    clock_pattern="HH:mm",
    months=(
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
    days=("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
)


def test_us_english_short_and_long() -> None:
    assert US_ENGLISH.short(MOMENT) == "12/3/26 1:05 PM"
    assert US_ENGLISH.long(MOMENT) == "Thursday, December 3, 2026 1:05 PM"
    assert US_ENGLISH.day(date(2027, 2, 8), long=True) == "Monday, February 8, 2027"
    assert US_ENGLISH.hour12


def test_a_24_hour_locale_writes_its_own_clock_and_names() -> None:
    assert GERMAN.short(MOMENT) == "03.12.26 13:05"
    assert GERMAN.long(MOMENT) == "Donnerstag, 3. Dezember 2026 13:05"
    assert not GERMAN.hour12
    assert GERMAN.clock(time(8, 30)) == "08:30"


def test_a_service_wall_clock_is_written_in_the_locale_clock() -> None:
    assert US_ENGLISH.clock_of("08:30") == "8:30 AM"
    assert US_ENGLISH.clock_of("13:15:00") == "1:15 PM"
    assert US_ENGLISH.clock_of("noon") == "noon"  # not a time: shown as written
    assert US_ENGLISH.clock_of(None) is None
    assert GERMAN.clock_of("08:30") == "08:30"


def test_quoted_text_and_zone_letters_in_a_pattern() -> None:
    quoted = TimeText(long_date="d 'de' MMMM 'de' yyyy", clock_pattern="h:mm ap t")
    assert quoted.day(MOMENT, long=True) == "3 de December de 2026"
    assert quoted.clock(MOMENT) == "1:05 pm"  # the zone ("t") is the caller's to write
