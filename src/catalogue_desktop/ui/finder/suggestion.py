"""A "Did you mean …?" taken: the typed word it is for replaced by the suggestion.

The reading (``core.query.reading``) offers ``suggestion`` for a word that matches nothing but is one
edit from a known value; the word is the free word (``Reading.words``) nearest to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace) from ``a`` to ``b``."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def replace_typo(text: str, words: Sequence[str], suggestion: str) -> str:
    """``text`` with the free word nearest to ``suggestion`` replaced by it (as a person would
    retype it: the suggestion's own spelling)."""
    wanted = suggestion.casefold()
    candidates = [w for w in words if w.strip()]
    if not candidates:
        return text
    typo = min(candidates, key=lambda w: _distance(w.casefold(), wanted))
    pattern = re.compile(rf"(?<![\w]){re.escape(typo)}(?![\w])", re.IGNORECASE)
    replaced, count = pattern.subn(lambda _m: suggestion, text, count=1)
    return replaced if count else text
