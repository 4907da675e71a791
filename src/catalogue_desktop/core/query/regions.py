"""US states (with DC and the territories) and Canadian provinces and territories: their names and
postal codes, so that ``state:illinois`` finds what ``state:IL`` finds (the service writes codes).
"""

from __future__ import annotations

from catalogue_desktop.core.query.text import fold

CODES: dict[str, str] = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "DC": "District of Columbia",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "AS": "American Samoa",
    "GU": "Guam",
    "MP": "Northern Mariana Islands",
    "PR": "Puerto Rico",
    "VI": "U.S. Virgin Islands",
    "AB": "Alberta",
    "BC": "British Columbia",
    "MB": "Manitoba",
    "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador",
    "NS": "Nova Scotia",
    "NT": "Northwest Territories",
    "NU": "Nunavut",
    "ON": "Ontario",
    "PE": "Prince Edward Island",
    "QC": "Quebec",
    "SK": "Saskatchewan",
    "YT": "Yukon",
}
_BY_NAME = {fold(name): code for code, name in CODES.items()} | {
    fold("Washington DC"): "DC",
    fold("Washington D.C."): "DC",
    fold("Virgin Islands"): "VI",
    fold("Newfoundland"): "NL",
    fold("Yukon Territory"): "YT",
    fold("Québec"): "QC",
}


def code_of(text: str) -> str | None:
    """The postal code a state's or province's name stands for (any case, accents ignored);
    None if ``text`` names none (a code itself is no name: ``IL`` gives None)."""
    return _BY_NAME.get(" ".join(fold(text).split()))


def name_of(code: str) -> str | None:
    return CODES.get(code.strip().upper())


def region_code(text: str) -> str | None:
    """The postal code ``text`` names or is (``illinois``, ``IL``, ``il``: ``IL``), or None."""
    code = text.strip().upper()
    return code if code in CODES else code_of(text)
