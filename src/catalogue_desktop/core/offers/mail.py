"""The offers as e-mail text: what a customer needs of each occasion — its title, its dates and
times with a zone they know, the venue and address (or "Online"), the fee with its currency, its
credits and its link (``text``: the same words as the offer sheet) — as plain text, one line per
occasion, and as an HTML table with the same cells; then the seller's signature (the letterhead)
and the data's age. Qt-free.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from catalogue_desktop.core.offers.occasions import Occasion, age_line, is_web
from catalogue_desktop.core.offers.sheet import Letterhead
from catalogue_desktop.core.offers.text import Style, place_lines, series_notes, when_text, zone_warning

HEADS = ("Title", "When", "Where", "Fee", "Credits", "Link")
SEP = " — "


def cells(o: Occasion, style: Style) -> list[str]:
    """An occasion's cells (``HEADS``), each on one line."""
    when = when_text(o, style)
    notes = [n for n in (zone_warning(o), *series_notes(o, style)) if n]
    if notes:
        when += f" ({'; '.join(notes)})"
    return [
        one_line(o.title),
        one_line(when),
        one_line(", ".join(place_lines(o))),
        one_line(style.fee(o.fee)),
        one_line(o.credits()),
        one_line(o.url or ""),
    ]


def plain(
    items: Sequence[Occasion], as_of: str | None, style: Style, letterhead: Letterhead | None = None
) -> str:
    """One line per occasion (its cells joined by " — ", empty ones left out), the signature,
    the data's age."""
    lines = [SEP.join(c for c in cells(o, style) if c) for o in items]
    signature = letterhead.lines() if letterhead is not None else []
    if signature:
        lines += ["", *(one_line(x) for x in signature)]
    return "\n".join([*lines, "", age_line(as_of)]) + "\n"


def table(
    items: Sequence[Occasion], as_of: str | None, style: Style, letterhead: Letterhead | None = None
) -> str:
    """An HTML table of the same cells (mail clients paste a table, spreadsheets cells), the
    signature and the data's age."""
    head = "".join(f"<th>{h}</th>" for h in HEADS)
    rows = []
    for o in items:
        values = cells(o, style)
        link = values[-1]
        values[-1] = f'<a href="{_attr(o.url)}">{_text(link)}</a>' if is_web(o.url) else _text(link)
        rows.append(
            "<tr>" + "".join(f"<td>{v if i == 5 else _text(v)}</td>" for i, v in enumerate(values)) + "</tr>"
        )
    signature = letterhead.lines() if letterhead is not None else []
    sign = f"<p>{'<br>'.join(_text(x) for x in signature)}</p>" if signature else ""
    return (
        f'<table border="1" cellspacing="0" cellpadding="4"><tr>{head}</tr>{"".join(rows)}</table>'
        f"{sign}<p><small>{_text(age_line(as_of))}</small></p>"
    )


def one_line(text: Any) -> str:
    """Text with its line breaks and tabs as spaces (one occasion, one line); no-break spaces
    kept (a fee stays whole)."""
    value = "" if text is None else str(text)
    return " ".join(_BREAKS.sub(" ", value).split(" ")).strip()


_BREAKS = re.compile(r"[\t\n\r\v\f\x85\u2028\u2029]+")


def _text(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=False)


def _attr(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)
