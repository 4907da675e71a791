"""A "Did you mean …?" taken: the typed word it is for replaced by the known one.

The reading (``core.query.reading``) offers ``suggestion`` ("Did you mean Chicago?") for a word that
matches nothing but is one edit from a known value (a city, an expert's name). The word replaced is
the typed word nearest to a word of that value (one edit or two, never one already right).
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w'’.-]+")
_MOST = 2  # edits: farther than this, a typed word is not the one meant


def suggested(suggestion: str) -> str:
    """The value a suggestion offers ("Did you mean Chicago?" -> "Chicago")."""
    value = suggestion.strip()
    if value.lower().startswith("did you mean "):
        value = value[len("did you mean ") :]
    return value.rstrip("?").strip().strip("“”\"'")


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace) from ``a`` to ``b``."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def corrected(text: str, suggestion: str) -> str:
    """``text`` with the typo ``suggestion`` is for replaced by the word it meant (as the
    suggestion spells it); unchanged if no typed word is one."""
    meant = [w.group() for w in _WORD.finditer(suggested(suggestion))]
    best: tuple[int, int, int, str] | None = None  # distance, start, end, replacement
    for typed in _WORD.finditer(text):
        for word in meant:
            d = _distance(typed.group().casefold(), word.casefold())
            if 0 < d <= _MOST and (best is None or d < best[0]):
                best = (d, typed.start(), typed.end(), word)
    if best is None:
        return text
    _d, start, end, word = best
    return text[:start] + word + text[end:]
