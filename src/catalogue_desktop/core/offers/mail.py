"""The offers as e-mail text: what a customer needs of each occasion — its title, its dates and
times with a zone they know, the venue and address (or "Online"), the fee with its currency, its
credits and its link (``text``: the same words as the offer sheet) — as plain text, one line per
occasion, and as an HTML table with the same cells; then the seller's signature (the letterhead)
and the data's age. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence

from catalogue_desktop.core.formats.csv_cells import inert
from catalogue_desktop.core.formats.drawn_text import html_attribute, html_text, one_line
from catalogue_desktop.core.formats.links import web_link
from catalogue_desktop.core.offers.customer_text import (
    Style,
    experts_text,
    place_lines,
    series_notes,
    when_text,
)
from catalogue_desktop.core.offers.occasions import Occasion, age_line
from catalogue_desktop.core.offers.sheet import Letterhead

HEADS = ("Title", "When", "Where", "Experts", "Fee", "Credits", "Link")
SEP = " — "


def cells(o: Occasion, style: Style, *, labelled: bool = False) -> list[str]:
    """An occasion's cells (``HEADS``), each on one line as drawn (``formats.drawn_text.one_line``:
    controls visible, capped) and inert to a spreadsheet it is pasted in; ``labelled``: the
    experts said as such ("Experts: …", as the sheet and calendar say them), for a line of text."""
    when = when_text(o, style)
    notes = series_notes(o, style)
    if notes:
        when += f" ({'; '.join(notes)})"
    experts = experts_text(o.experts) if o.experts else ""
    if experts and labelled:
        experts = f"Experts: {experts}"
    values = (o.title, when, ", ".join(place_lines(o)), experts, style.fee(o.fee), o.credits(), o.url or "")
    return [inert(one_line(v)) for v in values]


def plain(
    items: Sequence[Occasion], as_of: str | None, style: Style, letterhead: Letterhead | None = None
) -> str:
    """One line per occasion (its cells joined by " — ", empty ones left out), the signature,
    the data's age."""
    lines = [SEP.join(c for c in cells(o, style, labelled=True) if c) for o in items]
    signature = letterhead.lines() if letterhead is not None else []
    if signature:
        lines += ["", *(one_line(x) for x in signature)]
    return "\n".join([*lines, "", age_line(as_of)]) + "\n"


def table(
    items: Sequence[Occasion], as_of: str | None, style: Style, letterhead: Letterhead | None = None
) -> str:
    """An HTML table of the same cells (mail clients paste a table, spreadsheets cells; every
    cell escaped), the signature and the data's age."""
    head = "".join(f"<th>{h}</th>" for h in HEADS)
    rows = []
    for o in items:
        values = [html_text(v) for v in cells(o, style)]
        url = web_link(o.url)
        if url:
            values[-1] = f'<a href="{html_attribute(url, 8000)}">{values[-1]}</a>'
        rows.append("<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
    signature = letterhead.lines() if letterhead is not None else []
    sign = f"<p>{'<br>'.join(html_text(x) for x in signature)}</p>" if signature else ""
    return (
        f'<table border="1" cellspacing="0" cellpadding="4"><tr>{head}</tr>{"".join(rows)}</table>'
        f"{sign}<p><small>{html_text(age_line(as_of))}</small></p>"
    )
