"""Text as drawn: the offer sheet (PDF, print), the window and the e-mail text show what the
service wrote, but never let it steer the drawing.

* Bidi controls (embeddings, overrides, isolates, the marks LRM/RLM/ALM) are shown as
  ``[U+202E]``: a title with U+202E cannot be drawn reversed ("evil.exe" as "exe.live").
* Other control characters (C0 but tab and line feed, DEL, C1) are shown as Unicode's control
  pictures (U+2400...) or ``[U+0085]``: nothing invisible, nothing that moves the text.
* On a terminal (``terminal_text``), the same characters are written as escapes (``\\x1b``,
  ``\\u202e``): an escape sequence of the data never reaches the terminal as one.
* At most ``DRAWN_LIMIT`` characters of one field are drawn (``SHORT_LIMIT`` of places, names
  and links): a longer text is cut with "…" and
  its full length noted, so that laying out a page never takes long whatever the data (Qt's text
  layout grows faster than the text: docs/decisions.md, "Detail pane and offers"). The cache keeps
  data whole.
"""

from __future__ import annotations

DRAWN_LIMIT = 2000  # characters drawn of one field: a title, a description, a fee
SHORT_LIMIT = 300  # ... of a field that is short by nature: a place, a name, a link

# U+202A-202E (embeddings, overrides), U+2066-2069 (isolates), U+200E/F (LRM, RLM), U+061C (ALM)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

_CONTROLS: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
_CONTROLS[0x0D] = "\n"  # a line break, whichever way it was written (CRLF: see ``visible``)
_CONTROLS[0x7F] = "\u2421"
_CONTROLS.update({c: f"[U+{c:04X}]" for c in range(0x80, 0xA0)})
_VISIBLE: dict[int, str] = {**_CONTROLS, **{ord(c): f"[U+{ord(c):04X}]" for c in BIDI_CONTROLS}}
_VISIBLE.update({c: " " for c in (0x2028, 0x2029)})  # line and paragraph separators


_TERMINAL: dict[int, str] = {
    c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (0x09, 0x0A)
}
_TERMINAL.update({ord(c): f"\\u{ord(c):04x}" for c in (*BIDI_CONTROLS, "\u2028", "\u2029")})


def terminal_text(text: str) -> str:
    """``text`` as a terminal may be given it (a command's output for people): control characters
    (C0 but line feed and tab, DEL, C1), bidi controls and the line and paragraph separators
    written as escapes (``\\x1b``, ``\\u202e``), so that none of them steers the terminal."""
    return text.translate(_TERMINAL)


def visible_controls(text: str) -> str:
    """``text`` with control characters (but tab and line feed) made visible, CR and CRLF as
    LF: what a calendar's TEXT may hold (bidi controls are kept: data, not drawn here)."""
    return text.replace("\r\n", "\n").translate(_CONTROLS)


def visible(text: str) -> str:
    """``text`` with bidi and other control characters made visible (CR and CRLF as LF)."""
    return text.replace("\r\n", "\n").translate(_VISIBLE)


def drawn(value: object, limit: int = DRAWN_LIMIT) -> str:
    """What a drawn output shows of one field: made visible, then capped ("" for None); only
    the first ``limit`` characters are ever looked at."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    shown = visible(text[: limit + 1])
    if len(shown) <= limit and len(text) <= limit:
        return shown
    return f"{shown[:limit]}… ({len(text):,} characters in all)"


def one_line(value: object, limit: int = DRAWN_LIMIT) -> str:
    """``drawn`` on one line: line breaks and tabs as spaces ("" when only blanks)."""
    text = drawn(value, limit)
    return " ".join(text.replace("\t", " ").split("\n")) if text.strip() else ""


def html_text(value: object, limit: int = DRAWN_LIMIT) -> str:
    """``drawn`` text escaped for an HTML element's content (no tag of the data survives)."""
    import html  # (only pages and sheets need it: its entities table is ~1 ms of the window's start-up)

    return html.escape(drawn(value, limit), quote=False)


def html_attribute(value: object, limit: int = DRAWN_LIMIT) -> str:
    """``drawn`` text escaped for a double-quoted HTML attribute."""
    import html

    return html.escape(drawn(value, limit), quote=True)
