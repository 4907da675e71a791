"""The query language in words, for Help ▸ Query language (and README): what to write, what it
finds. The fields per kind come from ``fields.reference_markdown``."""

from __future__ import annotations

SYNTAX: tuple[tuple[str, str], ...] = (
    (
        "`illinois cpe next month` `texas courses under 1500` `cle webinars by okafor`",
        "plain words, read first into the language below (shown under the box; "
        '"search these words instead" reads nothing)',
    ),
    (
        '`tax "estate planning"` `feldman ethics`',
        "words anywhere in the title, names, topics and listed columns (case and "
        "accents ignored: `muller` finds Müller)",
    ),
    ("`city:dallas`", 'a field containing the text; `title:="Exact Title"` the exact text'),
    ("`fee:<300` `fee:>=1,300` `fee:200..400` `fee:..400`", "numbers: comparisons and ranges (inclusive)"),
    (
        "`starts:2027-03` `starts:2027-03..2027-05` `starts:>2027-03-01`",
        "dates as the service wrote them, in the event's own UTC offset",
    ),
    (
        '`starts:march` `starts:"march 2027"` `mar-2027` `2027-Q1`',
        "months by name (`march`: the coming March, this one while it lasts) and quarters",
    ),
    (
        "`today` `this-week` `next-month` `this-quarter` `next-quarter` `next30d` `last30d`",
        "windows relative to now (a bare date or window means the start date)",
    ),
    (
        '`state:illinois` `state:IL` `state:"british columbia"`',
        "US states and Canadian provinces by name or postal code, alike",
    ),
    ("`past` `future`", "occasions that have ended, or not (on-demand ones are never past)"),
    (
        "`added:last7d` `changed:last30d` `changed:fee` `changed:fee@this-month` `removed:last30d`",
        "the history: records added, changed (a field: `FIELD@WINDOW` within a window) or "
        "withdrawn within a window; withdrawn ones are named in the empty tab, never its rows",
    ),
    ("`cle:yes` `cpe:no` `has:accessUrl` `no:experts`", "yes/no fields; whether a field has a value"),
    ('`expert:nakamura` `topic:"estate tax"` `series:tax`', "related records by their names"),
    ("`webinars:>5` `courses:0`", "counts of linked records (experts, topics, roles, situations)"),
    ("`kind:courses` `sort:fee` `sort:-starts`", "the tab to show; the order (`-`: descending)"),
    (
        "`a OR b` `a | b` `-word` `NOT (a b)` `(a OR b) c`",
        "OR, leave out, group; clauses side by side "
        "must all hold; OR binds tighter: `a OR b c` is `(a OR b) c`",
    ),
)

NOTES = """\
**Same location.** On courses, the clauses on a location's fields (city, state, venue, zip, starts,
ends, fee) hold for one location: `city:dallas starts:2027-03 fee:<1300` finds a course with a
Dallas date in March 2027 under 1,300, and its row shows that location's date, city and fee. The
same holds for the sessions of a series. A tab whose kind has no field the query names shows no
rows and says why; when the tab you are on shows nothing and another has matches, the window shows
that one (the status line says how to go back) and dims the tabs without matches.

**Facets** (View ▸ Facets): a value's count is the rows that would show if it were chosen, given
the rest of the query. Click a value to choose it (the table then shows that many rows), Shift+click
to add it beside the facet's other choice, Ctrl+click to leave it out; the choice is written into
the query. A value you typed is the facet's value, ticked (`type:live`: "✓ Live"); a clause that
names no one value (`city:dal`, `fee:<300`) is shown in words in the facet's title ("City: contains
“dal”"), and a click on a value replaces it. Save a query with Searches ▸ Save search (Ctrl+D);
open anything with Ctrl+K."""


def syntax_markdown() -> str:
    """The table of ``SYNTAX`` and the notes. A cell's examples are parted by " · ": shown, code
    spans have no border, and "`illinois cpe next month` `texas courses under 1500`" read as one."""
    rows = "\n".join(f"| {write.replace('` `', '` · `')} | {finds} |" for write, finds in SYNTAX)
    return (
        "**Query language** — one query for every tab (Ctrl+F); each tab's title shows its "
        f"count.\n\n| you write | it finds |\n|---|---|\n{rows}\n\n{NOTES}\n"
    )
