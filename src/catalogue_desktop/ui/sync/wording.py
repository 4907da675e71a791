"""What the status area says, in one place: every state of a collection and of the banner.

Plain functions of plain values (no widgets), so that each state's exact words are easy to test
(``tests/ui/sync/test_wording.py``). A collection is one of:

==================  =========================================================================
no cached data yet  ``no cached data yet`` (first run: nothing fetched so far)
cached              ``60 from cache as of 3/4/26 2:00 PM (3 hours ago)``
waiting             ``waiting for the service…``
receiving           ``receiving… 120 of 340 KiB``
validating          ``validating 340 KiB…``
done                ``60 up to date`` (and ``— bad data: 3 rejected records skipped: …``)
failed              ``<label>: <reason> — showing 60 from cache as of …`` (or ``— no cached data
                    yet``); the label says what failed: ``offline`` (no connection), ``no answer``,
                    ``connection lost``, ``service error`` (an HTTP status: its code is in the
                    reason), ``bad data`` (what came was unusable), ``certificate refused``
                    (TLS: why, and what to do), ``credentials needed`` (401: "the service asks
                    for credentials…"), ``credentials refused`` (403, or a 401 to credentials
                    sent: "these credentials are refused…"), the proxy's failures
                    (``proxy unreachable``, ``proxy unknown``, ``proxy credentials needed``,
                    ``proxy credentials refused``, ``proxy refused``, ``certificate refused by
                    the proxy``: the proxy named, with the fix), ``refresh failed`` (else)
cancelled           ``refresh cancelled — showing 60 from cache as of …``
==================  =========================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.cache.store import CollectionState

if TYPE_CHECKING:
    from catalogue_desktop.core.sync.report import Cause
    from catalogue_desktop.core.sync.runner import CollectionOutcome

DateText = Callable[[int], str]  # epoch ms -> text (the window passes its Formatter's ``date``)

NO_CACHE = "no cached data yet"
WAITING = "waiting for the service…"
# a failed outcome's ``cause`` (core.sync.runner) -> what the status line calls it
LABELS: dict[Cause, str] = {
    "offline": "offline",
    "no-answer": "no answer",
    "connection-lost": "connection lost",
    "service": "service error",
    "bad-data": "bad data",
    "certificate": "certificate refused",
    "credentials-wanted": "credentials needed",
    "credentials-refused": "credentials refused",
    "proxy-unreachable": "proxy unreachable",
    "proxy-unknown": "proxy unknown",
    "proxy-credentials-wanted": "proxy credentials needed",
    "proxy-credentials-refused": "proxy credentials refused",
    "proxy-tunnel": "proxy refused",
    "proxy-certificate": "certificate refused by the proxy",
    "error": "refresh failed",
}
TITLES: dict[Cause, str] = {  # ... and the banner's title, when every collection failed that way
    "offline": "Offline",
    "no-answer": "No answer",
    "connection-lost": "Connection lost",
    "service": "Service error",
    "bad-data": "Bad data",
    "certificate": "Certificate refused",
    "credentials-wanted": "Credentials needed",
    "credentials-refused": "Credentials refused",
    "proxy-unreachable": "Proxy unreachable",
    "proxy-unknown": "Proxy unknown",
    "proxy-credentials-wanted": "Proxy credentials needed",
    "proxy-credentials-refused": "Proxy credentials refused",
    "proxy-tunnel": "Proxy refused",
    "proxy-certificate": "Certificate refused by the proxy",
    "error": "Refresh failed",
}
_KEPT = "; kept the cached copy"  # the ingest's own words; the status line says it its own way
_WHERE_SHOWN = 3  # rejected records named on the status line (the details list them all)


def parse_time(stamp: str | None) -> datetime | None:
    """The store's ``2026-03-04T19:00:00Z`` stamps as aware datetimes."""
    if not stamp:
        return None
    if len(stamp) != 20 or not stamp.endswith("Z"):
        return None
    try:  # fromisoformat: strptime would import _strptime during start-up
        return datetime.fromisoformat(stamp[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


def format_age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return "just now"
    for size, unit in ((86400 * 7, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"  # pragma: no cover


def as_of(stamp: str | None, date_text: DateText, now: datetime | None = None) -> str:
    """``"as of 3/4/26 2:00 PM (3 hours ago)"`` in the user's locale and time zone."""
    when = parse_time(stamp)
    if when is None:
        return "age unknown"
    now = now or datetime.now(UTC)
    text = date_text(int(when.timestamp() * 1000))
    return f"as of {text} ({format_age((now - when).total_seconds())})"


def data_time(state: CollectionState) -> str | None:
    """When the cached copy was last known current: last contact, else when it was fetched."""
    return state.checked_at or state.fetched_at


# -- a collection's line -------------------------------------------------------------------------


def cached(state: CollectionState | None, date_text: DateText) -> str:
    """``60 from cache as of …``, or ``no cached data yet``."""
    if state is None or not state.has_data:
        return NO_CACHE
    return f"{state.records:,} from cache {as_of(data_time(state), date_text)}"


def receiving(received: int, total: int | None) -> str:
    if total:
        return f"receiving… {received / 1024:,.0f} of {total / 1024:,.0f} KiB"
    return f"receiving… {received / 1024:,.0f} KiB"


def validating(received: int | None) -> str:
    return f"validating {received / 1024:,.0f} KiB…" if received else "validating…"


def done(outcome: CollectionOutcome) -> str:
    """An updated, unchanged or partial outcome: ``60 up to date`` (and the rejected records)."""
    text = f"{outcome.records:,} up to date"
    if outcome.rejected:
        noun = "record" if outcome.rejected == 1 else "records"
        text += f" — bad data: {outcome.rejected:,} rejected {noun} skipped"
        where = rejected_where(outcome.problems)
        if where:
            text += f": {where}"
    return text


def rejected_where(problems: Iterable[Mapping[str, Any]], shown: int = _WHERE_SHOWN) -> str:
    """``topics[2] (id 7), topics[5] and 3 more``: the records the problems are about."""
    seen: dict[int, str] = {}
    for p in problems:
        index = p.get("record")
        if isinstance(index, int) and index not in seen:
            rid = p.get("record_id")
            seen[index] = f"{p.get('collection')}[{index}]" + (f" (id {rid})" if rid is not None else "")
    names = list(seen.values())
    if len(names) <= shown:
        return ", ".join(names)
    return ", ".join(names[:shown]) + f" and {len(names) - shown} more"


def failed(outcome: CollectionOutcome, state: CollectionState | None, date_text: DateText) -> str:
    """``offline: cannot connect to … — showing 60 from cache as of …``."""
    return f"{failure(outcome)} — {kept(state, date_text)}"


def failure(outcome: CollectionOutcome) -> str:
    """``offline: cannot connect to 127.0.0.1:9: connection refused``: what failed, and why."""
    return f"{LABELS.get(outcome.cause or 'error', LABELS['error'])}: {reason(outcome.error)}"


def cancelled(state: CollectionState | None, date_text: DateText) -> str:
    return f"refresh cancelled — {kept(state, date_text)}"


def kept(state: CollectionState | None, date_text: DateText) -> str:
    """What a collection shows when its refresh did not replace it."""
    if state is None or not state.has_data:
        return NO_CACHE
    return f"showing {cached(state, date_text)}"


def reason(error: str | None) -> str:
    text = (error or "unknown error").strip().rstrip(".")
    return text[: -len(_KEPT)] if text.endswith(_KEPT) else text


def problem_lines(problems: Sequence[Mapping[str, Any]], rejected: int = 0) -> list[str]:
    """The problems of a refresh, one line each (``topics[2] (id 7) title: …``), for the details."""
    from catalogue_desktop.core.records.problems import Problem

    lines = [str(Problem.from_json(dict(p))) for p in problems]
    if lines:
        lines.insert(0, f"Problems ({len(lines)}{f', {rejected} records rejected' if rejected else ''}):")
    return lines


# -- the banner ----------------------------------------------------------------------------------


def banner(cause: Cause | None, why: str, data_stamp: str | None, date_text: DateText) -> tuple[str, str]:
    """(title, text) of the bar across the window when no collection could be refreshed."""
    title = TITLES.get(cause or "error", TITLES["error"])
    if data_stamp:
        rest = f"Showing the cached catalogue {as_of(data_stamp, date_text)}."
    else:
        rest = "No cached data yet: the catalogue appears here once a refresh succeeds."
    return title, f"— {reason(why)}. {rest}"


def offline_mode(data_stamp: str | None, date_text: DateText) -> tuple[str, str]:
    """(title, text) of the banner with ``--offline``."""
    if data_stamp:
        return (
            "Offline mode",
            f"— the service is not contacted. Showing the cached catalogue {as_of(data_stamp, date_text)}.",
        )
    return (
        "Offline mode",
        "— the service is not contacted, and there is no cached data yet: "
        "start once without --offline to fetch the catalogue.",
    )


def common_cause(outcomes: Iterable[CollectionOutcome]) -> Cause:
    """The failures' cause if they share one, else ``error``."""
    return common_cause_of(o.cause for o in outcomes)


# -- the status line (all collections in one sentence) ------------------------------------------


def age_line(stamp: str | None, date_text: DateText, now: datetime | None = None) -> str:
    """``Catalogue from 2 hours ago`` (``Catalogue checked just now``; a week or more: its date
    too)."""
    when = parse_time(stamp)
    if when is None:
        return "Catalogue of unknown age"
    seconds = ((now or datetime.now(UTC)) - when).total_seconds()
    if seconds < 60:
        return "Catalogue checked just now"
    if seconds >= 7 * 86400:
        return f"Catalogue from {date_text(int(when.timestamp() * 1000))} ({format_age(seconds)})"
    return f"Catalogue from {format_age(seconds)}"


def names(labels: Sequence[str]) -> str:
    """``Courses``, ``Courses and Webinars``, ``Courses, Topics and Webinars``."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def status_line(
    states: Mapping[str, str],
    causes: Mapping[str, Cause | None],
    stamp: str | None,
    date_text: DateText,
    now: datetime | None = None,
) -> str:
    """The status line: the catalogue's age in words, then what failed, said once per cause.

    ``states``: collection label -> ``loading`` / ``current`` / ``cached`` / ``failed`` /
    ``empty``; ``causes``: a failed collection's cause; ``stamp``: the oldest data shown."""
    total = len(states)
    loading = sum(1 for s in states.values() if s == "loading")
    if loading:
        return f"Refreshing the catalogue… {total - loading} of {total} collections done"
    if all(s == "empty" for s in states.values()):
        return f"{NO_CACHE.capitalize()}: the catalogue appears here once a refresh succeeds"
    failed = [label for label, s in states.items() if s == "failed"]
    if failed and len(failed) == total:
        cause = common_cause_of(causes[label] for label in failed)
        when = parse_time(stamp)
        if when is None:
            return f"{TITLES[cause]} — no cached data yet"
        return f"{TITLES[cause]} — showing the copy from {date_text(int(when.timestamp() * 1000))}"
    line = age_line(stamp, date_text, now)
    groups: dict[str, list[str]] = {}
    for label in failed:
        groups.setdefault(LABELS.get(causes.get(label) or "error", LABELS["error"]), []).append(label)
    said = [f"{names(labels)} failed ({why})" for why, labels in groups.items()]
    return "; ".join([line, *said])


def common_cause_of(causes: Iterable[Cause | None]) -> Cause:
    """The causes' common one, else ``error``."""
    found: set[Cause] = {c or "error" for c in causes}
    return found.pop() if len(found) == 1 else "error"
