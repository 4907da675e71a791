"""Currencies as an offer may name them: ISO 4217 codes only ("USD", "EUR"), so that what a
customer reads is a real currency ("DOLLARS 1,495" never reaches a document). What a person
types is read (``read``): a code in any case, or a common word or symbol that names one currency
("euro", "€", "pounds", "yen"); a word that names several ("dollars", "$") or anything else is
refused, with the codes it may mean. Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass

# ISO 4217's current codes (2024), with the names offered as suggestions for the common ones.
NAMES = {
    "USD": "US dollar", "EUR": "euro", "GBP": "pound sterling", "CAD": "Canadian dollar",
    "AUD": "Australian dollar", "NZD": "New Zealand dollar", "CHF": "Swiss franc", "JPY": "yen",
    "CNY": "yuan renminbi", "HKD": "Hong Kong dollar", "SGD": "Singapore dollar", "INR": "Indian rupee",
    "MXN": "Mexican peso", "BRL": "Brazilian real", "SEK": "Swedish krona", "NOK": "Norwegian krone",
    "DKK": "Danish krone", "PLN": "zloty", "CZK": "Czech koruna", "HUF": "forint", "ZAR": "rand",
    "ILS": "new Israeli shekel", "AED": "UAE dirham", "SAR": "Saudi riyal", "KRW": "won",
    "TRY": "Turkish lira", "ISK": "Iceland krona", "RON": "Romanian leu", "BGN": "Bulgarian lev",
}  # fmt: skip
_OTHERS = (
    "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AWG", "AZN", "BAM", "BBD", "BDT", "BHD", "BIF", "BMD",
    "BND", "BOB", "BSD", "BTN", "BWP", "BYN", "BZD", "CDF", "CLP", "COP", "CRC", "CUP", "CVE", "DJF",
    "DOP", "DZD", "EGP", "ERN", "ETB", "FJD", "FKP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD",
    "HNL", "HTG", "IDR", "IQD", "IRR", "JMD", "JOD", "KES", "KGS", "KHR", "KMF", "KPW", "KWD", "KYD",
    "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP",
    "MRU", "MUR", "MVR", "MWK", "MYR", "MZN", "NAD", "NGN", "NIO", "NPR", "OMR", "PAB", "PEN", "PGK",
    "PHP", "PKR", "PYG", "QAR", "RSD", "RUB", "RWF", "SBD", "SCR", "SDG", "SHP", "SLE", "SOS", "SRD",
    "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TTD", "TWD", "TZS", "UAH",
    "UGX", "UYU", "UZS", "VES", "VND", "VUV", "WST", "XAF", "XCD", "XOF", "XPF", "YER", "ZMW", "ZWG",
)  # fmt: skip
CODES = frozenset(NAMES) | frozenset(_OTHERS)
# Words and symbols people type for a currency: the codes each may mean (the first most likely).
_DOLLARS = ("USD", "CAD", "AUD", "NZD", "SGD", "HKD")
WORDS: dict[str, tuple[str, ...]] = {
    "$": _DOLLARS, "dollar": _DOLLARS, "dollars": _DOLLARS, "bucks": _DOLLARS,
    "us$": ("USD",), "us dollar": ("USD",), "us dollars": ("USD",), "u.s. dollars": ("USD",),
    "c$": ("CAD",), "ca$": ("CAD",), "canadian dollar": ("CAD",), "canadian dollars": ("CAD",),
    "a$": ("AUD",), "au$": ("AUD",), "australian dollar": ("AUD",), "australian dollars": ("AUD",),
    "€": ("EUR",), "euro": ("EUR",), "euros": ("EUR",),
    "£": ("GBP",), "pound": ("GBP",), "pounds": ("GBP",), "sterling": ("GBP",), "pound sterling": ("GBP",),
    "¥": ("JPY", "CNY"), "yen": ("JPY",), "yuan": ("CNY",), "renminbi": ("CNY",), "rmb": ("CNY",),
    "franc": ("CHF",), "francs": ("CHF",), "swiss franc": ("CHF",), "swiss francs": ("CHF",), "fr.": ("CHF",),
    "₹": ("INR",), "rupee": ("INR",), "rupees": ("INR",),
    "peso": ("MXN", "ARS", "CLP", "COP", "PHP"), "pesos": ("MXN", "ARS", "CLP", "COP", "PHP"),
    "real": ("BRL",), "reais": ("BRL",), "r$": ("BRL",),
    "krona": ("SEK",), "kronor": ("SEK",), "krone": ("NOK", "DKK"), "kroner": ("NOK", "DKK"),
    "zloty": ("PLN",), "rand": ("ZAR",), "₩": ("KRW",), "won": ("KRW",), "₪": ("ILS",), "shekel": ("ILS",),
}  # fmt: skip
COMMON = ("USD", "EUR", "GBP", "CAD")  # named as examples


def label(code: str) -> str:
    """ "USD (US dollar)", or the code alone."""
    name = NAMES.get(code)
    return f"{code} ({name})" if name else code


@dataclass(frozen=True)
class Reading:
    """What a typed currency was read as: ``code`` (None: refused, or nothing typed), ``problem``
    (why refused, in words), ``suggestions`` (codes it may mean, the likeliest first)."""

    code: str | None
    problem: str = ""
    suggestions: tuple[str, ...] = ()


def read(text: str | None) -> Reading:
    """``text`` as a currency: its ISO 4217 code (any case, spaces around ignored), or the one
    currency a common word or symbol names ("euro", "€"); else refused (module doc). Nothing
    typed reads as no currency (plain numbers), without a problem."""
    typed = " ".join((text or "").split())
    if not typed:
        return Reading(None)
    upper = typed.upper()
    if upper in CODES:
        return Reading(upper)
    meant = WORDS.get(typed.lower())
    if meant is not None and len(meant) == 1:
        return Reading(meant[0])
    shown = typed[:40]
    if meant is not None:
        return Reading(
            None,
            f"“{shown}” may be several currencies: {', '.join(label(c) for c in meant)}. Type its code",
            meant,
        )
    import difflib  # (only for a refusal: not at start-up)

    close = tuple(difflib.get_close_matches(upper, sorted(CODES), n=3, cutoff=0.6))
    named = tuple(code for code, name in NAMES.items() if typed.lower() in name.lower() and code not in close)
    suggestions = (close + named)[:4] or COMMON
    return Reading(
        None,
        f"“{shown}” is not a currency code. Type an ISO 4217 code, e.g. "
        + ", ".join(label(c) for c in suggestions),
        suggestions,
    )
