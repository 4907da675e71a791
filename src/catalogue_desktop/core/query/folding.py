"""Text as the finder compares it: case- and accent-insensitive ("muller" finds "Müller").

``fold`` is applied to both the catalogue's text and the query's words; a word matches text that
contains it. ``pieces`` are the runs of letters and digits a word is made of: a word occurs in a
text only where each of its pieces occurs inside one of the text's tokens, which is what the
token index of ``index.TextIndex`` looks up before it confirms a match on the whole text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_TOKEN = re.compile(r"\w+")
_MARKS = {"Mn", "Mc", "Me"}


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower case (``casefold``: "ß" is "ss"), accents removed, compatibility forms unified."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) not in _MARKS).casefold()


def tokens(folded: str) -> list[str]:
    """The runs of letters and digits of a folded text."""
    return _TOKEN.findall(folded)


def pieces(folded_word: str) -> list[str]:
    """The runs of letters and digits of a folded word (none for "&" or "-")."""
    return _TOKEN.findall(folded_word)
