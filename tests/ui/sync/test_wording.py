"""The status area's words, state by state: each collection state, each failure cause, the banner
(offline, no answer, service error with its code, bad data, offline mode, no cached data yet), in
the panel and the banner as shown; long reasons are whole in the tooltip and the details (Copy)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton

from catalogue_desktop.core.cache.store import CollectionState
from catalogue_desktop.core.connection.proxy_failures import FIXES
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.sync.runner import CollectionOutcome
from catalogue_desktop.ui.sync import wording
from catalogue_desktop.ui.sync.banner import OfflineBanner
from catalogue_desktop.ui.sync.status_details import StatusDetails
from catalogue_desktop.ui.sync.status_panel import StatusPanel

T = Kind.TOPICS
THREE_HOURS_AGO = (datetime.now(UTC) - timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%SZ")


def date_text(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


SHOWN_DATE = date_text(int(datetime.fromisoformat(THREE_HOURS_AGO[:-1] + "+00:00").timestamp() * 1000))
AS_OF = f"as of {SHOWN_DATE} (3 hours ago)"
CACHED = CollectionState(T, snapshot=4, records=1600, fetched_at=THREE_HOURS_AGO)
EMPTY = CollectionState(T)
CAUSES = {
    "offline": ("cannot connect to 127.0.0.1:9: connection refused", "offline", "Offline"),
    "no-answer": (
        "gave up on topics after waiting 60 s for 127.0.0.1:80 (the time allowed per "
        "collection, retries included)",
        "no answer",
        "No answer",
    ),
    "connection-lost": (
        "the connection closed before the whole response arrived",
        "connection lost",
        "Connection lost",
    ),
    "service": ("the service answered HTTP 503 Service Unavailable", "service error", "Service error"),
    "bad-data": ("the service sent an HTML page instead of JSON", "bad data", "Bad data"),
    "error": ("unexpected error: OSError: disk full", "refresh failed", "Refresh failed"),
    # the proxy's own failures name the proxy, with their fix (core.connection.proxy_failures)
    "proxy-unreachable": (
        "cannot connect to the proxy http://bob:***@proxy.corp:3128: connection refused; "
        + FIXES["proxy-unreachable"],
        "proxy unreachable",
        "Proxy unreachable",
    ),
    "proxy-unknown": (
        "the proxy's host name proxy.corp could not be found (the proxy http://proxy.corp:3128); "
        + FIXES["proxy-unknown"],
        "proxy unknown",
        "Proxy unknown",
    ),
    "proxy-credentials-wanted": (
        "the proxy http://proxy.corp:3128 asks for credentials (HTTP 407 Proxy Authentication Required); "
        + FIXES["proxy-credentials-wanted"],
        "proxy credentials needed",
        "Proxy credentials needed",
    ),
    "proxy-credentials-refused": (
        "the proxy http://bob:***@proxy.corp:3128 refused these credentials (HTTP 407 Proxy Authentication "
        "Required); " + FIXES["proxy-credentials-refused"],
        "proxy credentials refused",
        "Proxy credentials refused",
    ),
    "proxy-certificate": (
        "the proxy http://proxy.corp:3128 could not verify the service's certificate: “certificate verify "
        "failed”; " + FIXES["proxy-certificate"],
        "certificate refused by the proxy",
        "Certificate refused by the proxy",
    ),
}


def failed(cause: str, error: str | None = None) -> CollectionOutcome:
    return CollectionOutcome("failed", error=error or CAUSES[cause][0], cause=cause)


@pytest.fixture
def panel(qtbot: Any) -> StatusPanel:
    widget = StatusPanel(date_text)
    qtbot.addWidget(widget)
    widget.resize(1200, 200)
    widget.show()
    return widget


# -- one collection's line ------------------------------------------------------------------------


def test_no_cached_data_yet_and_cached(panel: StatusPanel) -> None:
    panel.set_cached(T, EMPTY)
    assert (panel.status(T), panel.text(T)) == ("empty", "no cached data yet")
    panel.set_cached(T, CACHED)
    assert (panel.status(T), panel.text(T)) == ("cached", f"1,600 from cache {AS_OF}")
    assert not panel.details_visible(T) and not panel.retry_visible(T)


def test_waiting_receiving_validating_done(panel: StatusPanel) -> None:
    panel.set_cached(T, CACHED)
    panel.set_loading(T)
    assert (panel.status(T), panel.text(T)) == ("loading", "waiting for the service…")
    assert panel.cancel_visible()
    panel.set_progress(T, 120 * 1024, 340 * 1024)
    assert panel.text(T) == "receiving… 120 of 340 KiB"
    panel.set_progress(T, 2_000 * 1024, None)
    assert panel.text(T) == "receiving… 2,000 KiB"
    panel.set_phase(T, "validating")
    assert (panel.status(T), panel.text(T)) == ("loading", "validating 2,000 KiB…")
    panel.set_outcome(T, CollectionOutcome("updated", 1600, checked_at=THREE_HOURS_AGO), CACHED)
    assert (panel.status(T), panel.text(T)) == ("current", "1,600 up to date")
    assert not panel.cancel_visible() and not panel.details_visible(T)


@pytest.mark.parametrize("cause", list(CAUSES))
def test_each_failure_says_what_failed_and_what_is_shown(panel: StatusPanel, cause: str) -> None:
    error, label, _ = CAUSES[cause]
    panel.set_cached(T, CACHED)
    panel.set_loading(T)
    panel.set_outcome(T, failed(cause), CACHED)
    assert panel.status(T) == "failed"
    assert panel.text(T) == f"{label}: {error} — showing 1,600 from cache {AS_OF}"
    assert panel.retry_visible(T) and panel.details_visible(T)

    panel.set_cached(T, EMPTY)  # a first run: nothing cached
    panel.set_outcome(T, failed(cause), EMPTY)
    assert panel.text(T) == f"{label}: {error} — no cached data yet"


def test_a_service_error_says_its_code() -> None:
    assert wording.failure(failed("service")) == (
        "service error: the service answered HTTP 503 Service Unavailable"
    )


def test_bad_data_says_how_many_records_were_rejected_and_where(panel: StatusPanel) -> None:
    problems = [
        {"collection": "topics", "record": 2, "record_id": 7, "field": "title", "message": "expected text"},
        {
            "collection": "topics",
            "record": 2,
            "record_id": 7,
            "field": "description",
            "message": "expected text",
        },
        {
            "collection": "topics",
            "record": 9,
            "record_id": None,
            "field": "topicId",
            "message": "missing (required)",
        },
    ]
    panel.set_outcome(T, CollectionOutcome("partial", 14, 2, problems=problems), CACHED)
    assert panel.text(T) == (
        "14 up to date — bad data: 2 rejected records skipped: topics[2] (id 7), topics[9]"
    )
    assert panel.details_visible(T)
    assert panel.details_text(T) == (
        "Topics: 14 up to date — bad data: 2 rejected records skipped: topics[2] (id 7), topics[9]\n\n"
        "Problems (3, 2 records rejected):\n"
        "topics[2] (id 7) title: expected text\n"
        "topics[2] (id 7) description: expected text\n"
        "topics[9] topicId: missing (required)"
    )
    many = [{**problems[2], "record": i} for i in range(10)]
    one = CollectionOutcome("partial", 5, 10, problems=many)
    assert wording.done(one).endswith("skipped: topics[0], topics[1], topics[2] and 7 more")
    assert wording.done(CollectionOutcome("partial", 5, 1, problems=many[:1])) == (
        "5 up to date — bad data: 1 rejected record skipped: topics[0]"
    )


def test_all_records_rejected_is_bad_data_said_once(panel: StatusPanel) -> None:
    panel.set_cached(T, CACHED)
    outcome = failed("bad-data", "all 16 records were rejected; kept the cached copy")
    panel.set_outcome(T, outcome, CACHED)
    assert panel.text(T) == f"bad data: all 16 records were rejected — showing 1,600 from cache {AS_OF}"


def test_cancelled(panel: StatusPanel) -> None:
    panel.set_cached(T, CACHED)
    panel.set_loading(T)
    assert not panel.set_cancelled(T, CACHED)  # the same snapshot: nothing to reload
    assert panel.status(T) == "cached"
    assert panel.text(T) == f"refresh cancelled — showing 1,600 from cache {AS_OF}"
    assert not panel.cancel_visible()
    assert panel.set_cancelled(T, CACHED._replace(snapshot=5))  # an ingest finished meanwhile
    panel.set_cached(T, EMPTY)
    panel.set_cancelled(T, EMPTY)
    assert panel.text(T) == "refresh cancelled — no cached data yet"


def test_a_long_reason_is_shortened_on_screen_and_whole_in_the_tooltip_and_the_details(
    panel: StatusPanel, qtbot: Any
) -> None:
    reason = "the service answered HTTP 502 Bad Gateway: " + "upstream proxy said no; " * 20 + "THE END"
    panel.set_cached(T, CACHED)
    panel.set_outcome(T, failed("service", reason), CACHED)
    whole = panel.text(T)
    assert whole.startswith("service error: the service answered HTTP 502") and "THE END" in whole
    shown = panel.shown_text(T)
    assert shown.endswith("…") and len(shown) <= 100 and whole.startswith(shown[:-1])
    assert wrapped(panel._lines()[T].text.toolTip(), whole)  # whole, in lines that stay on screen
    panel.more.click()  # the collections are one click away from the status line
    button = panel.findChild(QPushButton, f"details-{T.value}")
    assert button is not None and button.isVisible()
    button.click()
    dialog = panel.findChild(StatusDetails, "statusDetails")
    assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Topics — status"
    assert dialog.view.toPlainText() == f"Topics: {whole}"
    QGuiApplication.clipboard().setText("")
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == f"Topics: {whole}"
    dialog.close()


def test_a_notice_lasts_until_dismissed(panel: StatusPanel) -> None:
    panel.show_notice("Webinar #7001 is not in the demo catalogue")
    assert panel.notice() == "Webinar #7001 is not in the demo catalogue"
    assert panel.dismiss.isVisible()
    panel.dismiss.click()
    assert panel.notice() == "" and not panel.dismiss.isVisible()


def wrapped(tip: str, text: str) -> bool:
    """``tip`` is ``text``, its lines over 100 characters broken into shorter ones (at spaces):
    a tooltip stays on screen (``plain_text.plain_tooltip``)."""
    lines = tip.split("\n")
    return max(map(len, lines)) <= 100 and tip.split() == text.split()


# -- the banner -----------------------------------------------------------------------------------


@pytest.mark.parametrize("cause", list(CAUSES))
def test_the_banner_names_what_failed_and_how_old_the_data_is(qtbot: Any, cause: str) -> None:
    error, _, title = CAUSES[cause]
    banner = OfflineBanner(date_text)
    qtbot.addWidget(banner)
    outcomes = [(kind, failed(cause)) for kind in ALL_KINDS]
    banner.show_failure(outcomes, THREE_HOURS_AGO)
    assert banner.text() == f"{title} — {error}. Showing the cached catalogue {AS_OF}."
    assert banner.retry.isVisibleTo(banner) and banner.details.isVisibleTo(banner)
    details = banner.details_text()
    assert details.startswith(banner.text() + "\n\n")
    first = ALL_KINDS[0].label  # the reason said once, the others refer to it
    assert f"{first}: {CAUSES[cause][1]}: {error}" in details and details.count(error) == 2
    assert f"Topics: the same as {first}" in details
    assert wrapped(banner.label.toolTip(), details)

    banner.show_failure(outcomes, None)  # a first run: nothing cached
    assert banner.text() == (
        f"{title} — {error}. No cached data yet: the catalogue appears here once a refresh succeeds."
    )


def test_the_banner_with_mixed_failures_and_in_offline_mode(qtbot: Any) -> None:
    banner = OfflineBanner(date_text)
    qtbot.addWidget(banner)
    banner.show_failure([(T, failed("offline")), (Kind.ROLES, failed("service"))], THREE_HOURS_AGO)
    assert banner.text().startswith("Refresh failed — cannot connect to 127.0.0.1:9")
    banner.show_offline_mode(THREE_HOURS_AGO)
    assert banner.text() == (
        f"Offline mode — the service is not contacted. Showing the cached catalogue {AS_OF}."
    )
    assert not banner.retry.isVisibleTo(banner)
    banner.show_offline_mode(None)
    assert banner.text() == (
        "Offline mode — the service is not contacted, and there is no cached data "
        "yet: start once without --offline to fetch the catalogue."
    )


def test_no_state_reads_like_a_broken_sentence(qtbot: Any) -> None:
    """Today's bug: "Showing the cached catalogue no cached data yet." Every banner and line, for
    every cause, with and without cached data, reads as sentences."""
    banner = OfflineBanner(date_text)
    qtbot.addWidget(banner)
    texts = []
    for cause in CAUSES:
        for stamp in (THREE_HOURS_AGO, None):
            banner.show_failure([(T, failed(cause))], stamp)
            texts.append(banner.text())
            banner.show_offline(CAUSES[cause][0], stamp, cause=cause)
            texts.append(banner.text())
        banner.show_offline_mode(None)
        texts.append(banner.text())
        for state in (CACHED, EMPTY):
            texts.append(wording.failed(failed(cause), state, date_text))
            texts.append(wording.cancelled(state, date_text))
    for text in texts:
        assert "catalogue no cached" not in text and ".." not in text and " ." not in text, text
        assert "cached copy —" not in text, text


def test_every_cause_has_its_words_and_every_proxy_cause_its_fix() -> None:
    """The causes are a closed set (``core.sync.report.Cause``): each one the runner may give
    has a status label and a banner title, and each of the proxy's its fix; no words for a
    cause that does not exist."""
    from typing import get_args

    from catalogue_desktop.core.records.errors import ProxyCause
    from catalogue_desktop.core.sync.report import Cause

    def flat(literal: Any) -> set[str]:
        return {v for a in get_args(literal) for v in (flat(a) if get_args(a) else {a})}

    causes = flat(Cause)
    assert len(causes) == 15
    assert set(wording.LABELS) == causes and set(wording.TITLES) == causes
    assert set(FIXES) == flat(ProxyCause) < causes
