"""Deterministic synthetic catalogues of any size, for load tests and the ``--size`` demo.

``generate(size, seed)`` returns the compact JSON payload of every collection. Records are built from
domain word lists (``demo.words``; no lorem ipsum), every embedded record is a full copy of the top-level
one and the output is byte-identical for the same ``(size, seed)``. Speed matters (size=100,000 is about
800 MB of JSON in all): each expert, topic, role and situation is serialized once and its bytes are
spliced into every record that embeds it, webinars are formatted directly as JSON text, and series
sessions are slices of the webinars payload. Stdlib only: no pydantic at import time or run time.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from json.encoder import encode_basestring_ascii as _q

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.words import (
    ANGLES,
    AREAS,
    BIO_SENTENCES,
    CLIENTS,
    DEGREES,
    DESC_SENTENCES,
    FIRMS,
    FIRST,
    LAST,
    OFFSETS,
    POSITIONS,
    ROLES,
    SESSION_TITLES,
    SITUATIONS,
    SLOTS,
    SUBJECTS,
    TOPIC_AREAS,
    TOPIC_QUALIFIERS,
    UNIVERSITIES,
    VENUES,
)

__all__ = ["generate", "plan"]

_EPOCH = datetime(2026, 1, 5)
_CATALOGUE = "https://catalogue.example.org"
_IMAGES = "https://images.example.org"


# --------------------------------------------------------------------------- helpers


def _fill(rng: random.Random, template: str, **fixed: str) -> str:
    values = {
        "a": rng.choice(AREAS),
        "b": rng.choice(AREAS),
        "c": rng.choice(CLIENTS),
        "f": rng.choice(FIRMS),
        "y": str(rng.randint(5, 25)),
        "k": str(rng.randint(3, 20) * 10),
    }
    values.update(fixed)
    text = template.format(**values)
    return text[0].upper() + text[1:]


def _date(day: int, minutes: int, offset: str) -> str:
    moment = _EPOCH + timedelta(days=day, minutes=minutes)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.000{offset}"


def _array(fragments: list[str]) -> str:
    return "[" + ",".join(fragments) + "]"


def _obj(fields: list[tuple[str, str]]) -> str:
    """A JSON object from (name, already-encoded JSON value) pairs."""
    return "{" + ",".join(f'"{k}":{v}' for k, v in fields) + "}"


def _s(value: str | None) -> str:
    return "null" if value is None else _q(value)


def plan(size: int) -> dict[Kind, int]:
    """How many records of each kind ``generate(size)`` produces."""
    if size < 0:
        raise ValueError("size must be >= 0")
    return {
        Kind.WEBINARS: size,
        Kind.SERIES: size // 10 if size >= 3 else 0,
        Kind.COURSES: max(5, size // 10),
        Kind.CERTIFICATES: max(3, size // 200),
        Kind.EXPERTS: max(10, size // 20),
        Kind.TOPICS: max(10, size // 100),
        Kind.ROLES: len(ROLES),
        Kind.SITUATIONS: len(SITUATIONS),
    }


# --------------------------------------------------------------------------- generator


def generate(size: int, seed: int = 0) -> dict[Kind, bytes]:
    """A synthetic catalogue with ``size`` webinars: compact JSON bytes per collection."""
    counts = plan(size)
    rng = random.Random(f"catalogue-demo/{size}/{seed}")
    # (the order of the steps is the order the random numbers are drawn in: keep it)
    experts = _experts(rng, counts[Kind.EXPERTS])
    topics = _topics(rng, counts[Kind.TOPICS])
    roles = [_titled("roleId", 301 + i, t, d) for i, (t, d) in enumerate(ROLES)]
    situations = [_titled("situationId", 401 + i, t, d) for i, (t, d) in enumerate(SITUATIONS)]
    words = _Writer(rng, size)
    links = _Links(topics, roles, situations, experts)
    webinars, spans = _webinars(words, size, links)
    series = _series(words, counts[Kind.SERIES], size, webinars, spans)
    course_ids = [600_001 + i for i in range(counts[Kind.COURSES])]
    location_ids = itertools.count(800_001)
    courses = [_course(words, course_id, location_ids, links) for course_id in course_ids]
    certificates = _certificates(words, counts[Kind.CERTIFICATES], course_ids)
    return {
        Kind.WEBINARS: webinars,
        Kind.SERIES: series,
        Kind.COURSES: _array(courses).encode(),
        Kind.CERTIFICATES: _array(certificates).encode(),
        Kind.EXPERTS: _array(experts).encode(),
        Kind.TOPICS: _array(topics).encode(),
        Kind.ROLES: _array(roles).encode(),
        Kind.SITUATIONS: _array(situations).encode(),
    }


def _experts(rng: random.Random, count: int) -> list[str]:
    """Experts, with bios of roughly 600-1000 characters."""
    experts: list[str] = []
    for i in range(count):
        expert_id = 10_001 + i
        first, last = rng.choice(FIRST), rng.choice(LAST)
        name = f"{first} {last}"
        if rng.random() < 0.4:
            name += rng.choice((", CPA", ", CPA, CFE", ", CPA, CISA"))
        target = rng.randint(600, 1000)
        bio = ""
        while len(bio) < target:
            sentence = _fill(rng, rng.choice(BIO_SENTENCES), n=first, p=rng.choice(("her", "his")))
            bio = f"{bio} {sentence}" if bio else sentence
        education = "; ".join(
            rng.choice(DEGREES).format(u=rng.choice(UNIVERSITIES)) for _ in range(rng.randint(1, 2))
        )
        image = f"{_IMAGES}/experts/{expert_id}.jpg" if rng.random() > 0.05 else None
        image2x = f"{_IMAGES}/experts/{expert_id}@2x.jpg" if image and rng.random() > 0.2 else None
        experts.append(
            _obj(
                [
                    ("expertId", str(expert_id)),
                    ("name", _s(name)),
                    ("title", _s(f"{rng.choice(POSITIONS)}, {rng.choice(FIRMS)}")),
                    ("bio", _s(bio)),
                    ("education", _s(education)),
                    ("imageUrl", _s(image)),
                    ("image2xUrl", _s(image2x)),
                ]
            )
        )
    return experts


def _topics(rng: random.Random, count: int) -> list[str]:
    topics: list[str] = []
    for i in range(count):
        area = TOPIC_AREAS[i % len(TOPIC_AREAS)]
        qualifier = TOPIC_QUALIFIERS[(i // len(TOPIC_AREAS)) % len(TOPIC_QUALIFIERS)]
        round_ = i // (len(TOPIC_AREAS) * len(TOPIC_QUALIFIERS))
        title = f"{area}: {qualifier}" if qualifier else area
        if round_:
            title += f" ({round_ + 1})"
        description = " ".join(_fill(rng, rng.choice(DESC_SENTENCES)) for _ in range(3))
        topics.append(_titled("topicId", 201 + i, title, description))
    return topics


def _titled(id_name: str, record_id: int, title: str, description: str) -> str:
    """A topic, role or situation."""
    return _obj([(id_name, str(record_id)), ("title", _s(title)), ("description", _s(description))])


class _Writer:
    """The texts every later record draws on: descriptions from a pool of sentences (formatted
    once), titles, and random picks of linked records."""

    def __init__(self, rng: random.Random, size: int) -> None:
        self.rng = rng
        self.pool = [_fill(rng, rng.choice(DESC_SENTENCES)) for _ in range(max(400, min(4000, size // 10)))]
        self.titles = [f"{s}: {a}" for s in SUBJECTS for a in ANGLES]

    def description(self, target: int) -> str:
        """Sentences of the pool until ``target`` characters."""
        parts: list[str] = []
        length = 0
        while length < target:
            sentence = self.rng.choice(self.pool)
            parts.append(sentence)
            length += len(sentence) + 1
        return " ".join(parts)

    def pick(self, items: list[str], low: int, high: int, weights: tuple[int, ...] | None = None) -> str:
        """A JSON array of ``low`` to ``high`` of ``items`` (each encoded already)."""
        rng = self.rng
        k = rng.choices(range(low, high + 1), weights)[0] if weights else rng.randint(low, high)
        if k == 0:
            return "[]"
        return _array(rng.sample(items, k) if k > 1 else [rng.choice(items)])


@dataclass(frozen=True)
class _Links:
    """The linked records, encoded: what webinars and courses embed."""

    topics: list[str]
    roles: list[str]
    situations: list[str]
    experts: list[str]


def _webinars(words: _Writer, size: int, links: _Links) -> tuple[bytes, list[tuple[int, int]]]:
    """The webinars' payload (formatted as JSON text directly, then encoded once) and where each
    webinar lies in it (series copy them from there)."""
    webinar_parts: list[bytes] = []
    spans: list[tuple[int, int]] = []
    position = 1  # after the opening "["
    for i in range(size):
        text = _webinar(words, 100_001 + i, 700_001 + i, links)
        if i:
            position += 1  # the separating comma
        spans.append((position, position + len(text)))
        position += len(text)
        webinar_parts.append(text)
    return b"[" + b",".join(webinar_parts) + b"]", spans


def _webinar(words: _Writer, webinar_id: int, session_id: int, links: _Links) -> bytes:
    rng = words.rng
    kind_roll = rng.random()
    code = 3 if kind_roll < 0.002 else 1 if kind_roll < 0.6 else 2
    offset = rng.choice(OFFSETS)
    minutes = rng.choice((540, 600, 660, 720, 780, 840))
    duration = rng.choice((60, 90, 100, 120))
    if code == 2:  # live: upcoming
        day = rng.randint(330, 540)
        production = "null"
        access = _s(f"{_CATALOGUE}/live/{webinar_id}/join")
    else:  # on-demand (or unknown): recorded in the past
        day = rng.randint(0, 300)
        production = _q(_date(day, minutes, offset))
        access = _s(f"{_CATALOGUE}/watch/{webinar_id}")
    if rng.random() < 0.03:
        access = "null"
    cle = rng.random() < 0.55
    cpe = not cle or rng.random() < 0.2
    return (
        f'{{"webinarId":{webinar_id},"sessionId":{session_id},"type":{code},'
        f'"title":{_q(rng.choice(words.titles))},'
        f'"description":{_q(words.description(rng.randint(740, 900)))},'
        f'"fee":{rng.randrange(99, 400, 10)},'
        f'"cleAccreditation":{"true" if cle else "false"},'
        f'"cpeAccreditation":{"true" if cpe else "false"},'
        f'"productionDate":{production},'
        f'"startDate":"{_date(day, minutes, offset)}",'
        f'"endDate":"{_date(day, minutes + duration, offset)}",'
        f'"detailUrl":"{_CATALOGUE}/webinars/{webinar_id}",'
        f'"accessUrl":{access},'
        f'"topics":{words.pick(links.topics, 1, 3)},'
        f'"roles":{words.pick(links.roles, 1, 3)},'
        f'"situations":{words.pick(links.situations, 0, 2)},'
        f'"experts":{words.pick(links.experts, 1, 3, (2, 3, 5))}}}'
    ).encode()


def _series(words: _Writer, count: int, size: int, webinars: bytes, spans: list[tuple[int, int]]) -> bytes:
    """The series' payload: their sessions are slices of the webinars' payload."""
    rng = words.rng
    series_parts: list[bytes] = []
    with memoryview(webinars) as view:
        for i in range(count):
            series_id = 500_001 + i
            chosen = rng.sample(range(size), rng.randint(3, min(6, size)))
            sessions = b",".join(view[a:b] for a, b in (spans[j] for j in chosen))
            head = _obj(
                [
                    ("seriesId", str(series_id)),
                    ("title", _s(f"{rng.choice(SUBJECTS)} Series")),
                    ("description", _s(words.description(rng.randint(300, 500)))),
                    ("fee", str(rng.randrange(399, 1000, 50))),
                    ("detailUrl", _s(f"{_CATALOGUE}/series/{series_id}")),
                ]
            )
            series_parts.append(head[:-1].encode() + b',"sessions":[' + sessions + b"]}")
    return b"[" + b",".join(series_parts) + b"]"


def _course(words: _Writer, course_id: int, location_ids: Iterator[int], links: _Links) -> str:
    rng = words.rng
    days = rng.randint(1, 3)
    locations = [_location(rng, course_id, next(location_ids), days) for _ in range(rng.randint(1, 4))]
    schedule = [entry for day in range(1, days + 1) for entry in _day_schedule(words, day)]
    return _obj(
        [
            ("courseId", str(course_id)),
            ("title", _s(f"{rng.choice(SUBJECTS)} Workshop")),
            ("description", _s(words.description(rng.randint(400, 700)))),
            ("curriculum", _s(words.description(rng.randint(200, 300)))),
            ("cleAccreditation", "true" if rng.random() < 0.5 else "false"),
            ("cpeAccreditation", "true" if rng.random() < 0.6 else "false"),
            ("experts", words.pick(links.experts, 1, 2)),
            ("level", str(rng.randint(1, 3))),
            ("url", _s(f"{_CATALOGUE}/courses/{course_id}")),
            ("topics", words.pick(links.topics, 1, 3)),
            ("locations", _array(locations)),
            ("schedule", _array(schedule)),
        ]
    )


def _location(rng: random.Random, course_id: int, location_id: int, days: int) -> str:
    venue, address, city, state, zip_code, offset = rng.choice(VENUES)
    start = rng.randint(335, 700)
    return _obj(
        [
            ("locationId", str(location_id)),
            ("venue", _s(venue)),
            ("address", _s(address)),
            ("city", _s(city)),
            ("state", _s(state)),
            ("zip", _s(zip_code)),
            ("detailUrl", _s(f"{_CATALOGUE}/courses/{course_id}/{location_id}")),
            ("startDate", _q(_date(start, 510, offset))),
            ("endDate", _q(_date(start + days - 1, 990, offset))),
            ("fee", str(rng.randrange(495, 2000, 50))),
            ("travelInfo", _s(f"The venue is in downtown {city}; parking is limited.")),
            (
                "travelGroupRate",
                _s(f"Group rate ${rng.randrange(159, 330, 10)} per night") if rng.random() < 0.8 else "null",
            ),
        ]
    )


def _day_schedule(words: _Writer, day: int) -> list[str]:
    """One course day's sessions (2 to 4), the last without a break after it."""
    rng = words.rng
    slots = SLOTS[: rng.randint(2, 4)]
    return [
        _obj(
            [
                ("day", str(day)),
                ("startTime", _q(start_time)),
                ("endTime", _q(end_time)),
                ("breakMins", "0" if n == len(slots) - 1 else str(break_mins)),
                ("title", _s(rng.choice(SESSION_TITLES))),
                ("description", _s(rng.choice(words.pool))),
            ]
        )
        for n, (start_time, end_time, break_mins) in enumerate(slots)
    ]


@dataclass(frozen=True)
class _CertificateIds:
    """The ids certificates' parts take, in order (and those of past courses no longer listed)."""

    levels: Iterator[int]
    options: Iterator[int]
    tracks: Iterator[int]
    past_courses: Iterator[int]


def _certificates(words: _Writer, count: int, course_ids: list[int]) -> list[str]:
    ids = _CertificateIds(*(itertools.count(first) for first in (910_001, 920_001, 930_001, 599_001)))
    rng = words.rng
    certificates: list[str] = []
    for i in range(count):
        certificate_id = 900_001 + i
        levels = [_level(rng, ids, course_ids) for _ in range(rng.randint(1, 3))]
        cents = rng.randrange(149_900, 399_900, 50)
        certificates.append(
            _obj(
                [
                    ("certificateId", str(certificate_id)),
                    ("title", _s(f"Certificate in {rng.choice(TOPIC_AREAS)}")),
                    ("description", _s(words.description(rng.randint(300, 500)))),
                    ("fee", f"{cents // 100}.{cents % 100:02d}"),
                    ("imageUrl", _s(f"{_IMAGES}/certificates/{certificate_id}.jpg")),
                    ("levels", _array(levels)),
                ]
            )
        )
    return certificates


def _level(rng: random.Random, ids: _CertificateIds, course_ids: list[int]) -> str:
    """A certificate's level: its options, tracks and courses (each course in an option and a
    track; one in ten a past course, not listed by the courses endpoint)."""
    level_id = next(ids.levels)
    option_ids: list[int] = []
    options: list[str] = []
    for n in range(1, rng.randint(1, 3) + 1):
        option_ids.append(next(ids.options))
        total = rng.randint(2, 4)
        options.append(
            _obj(
                [
                    ("optionId", str(option_ids[-1])),
                    ("num", str(n)),
                    ("coursesMin", str(rng.randint(1, total))),
                    ("coursesTotal", str(total)),
                    ("coursesOperator", _q(rng.choice(("AND", "OR")))),
                ]
            )
        )
    track_ids = [next(ids.tracks) for _ in range(rng.randint(1, 3))]
    tracks = [
        _obj([("trackId", str(t)), ("name", _s(rng.choice(TOPIC_AREAS))), ("displayOrder", str(n))])
        for n, t in enumerate(track_ids, 1)
    ]
    level_courses: list[str] = []
    for _ in range(rng.randint(2, 6)):
        course = next(ids.past_courses) if rng.random() < 0.1 else rng.choice(course_ids)
        level_courses.append(
            _obj(
                [
                    ("courseId", str(course)),
                    ("optionId", str(rng.choice(option_ids))),
                    ("trackId", str(rng.choice(track_ids))),
                ]
            )
        )
    return _obj(
        [
            ("id", str(level_id)),
            ("type", str(rng.randint(1, 2))),
            ("selection", str(rng.randint(1, 2))),
            ("optionsMin", str(rng.randint(1, len(options)))),
            ("coursesMin", str(rng.randint(1, len(level_courses)))),
            ("options", _array(options)),
            ("tracks", _array(tracks)),
            ("courses", _array(level_courses)),
        ]
    )
