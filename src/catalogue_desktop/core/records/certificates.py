"""A certificate's levels resolved against the catalogue: each LevelCourse to its Course, Option
and Track. A reference the catalogue does not list (the courses endpoint lists only upcoming
courses) is reported and shown as such, never fatal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pydantic's: imported when records are decoded)
    from catalogue_desktop.core.records.models import Certificate, Level, Option, Track


@dataclass(frozen=True, slots=True)
class ResolvedCourse:
    course_id: int
    title: str | None  # None: the catalogue does not list this course
    option_id: int | None
    track_id: int | None

    @property
    def in_catalogue(self) -> bool:
        return self.title is not None

    @property
    def label(self) -> str:
        return self.title if self.title is not None else f"Course #{self.course_id} (not in catalogue)"


@dataclass
class ResolvedLevel:
    level: Level
    options: list[tuple[Option, list[ResolvedCourse]]] = field(default_factory=list)
    tracks: list[tuple[Track, list[ResolvedCourse]]] = field(default_factory=list)
    other: list[ResolvedCourse] = field(default_factory=list)  # in no known option or track
    problems: list[str] = field(default_factory=list)


def resolve_certificate(
    certificate: Certificate, course_title: Callable[[int], str | None]
) -> list[ResolvedLevel]:
    """Levels with their options and tracks (by displayOrder), each holding its courses."""
    out = []
    for index, level in enumerate(certificate.levels or ()):
        resolved = ResolvedLevel(level)
        courses = [
            ResolvedCourse(c.course_id, course_title(c.course_id), c.option_id, c.track_id)
            for c in level.courses or ()
        ]
        options = {o.option_id: o for o in level.options or ()}
        tracks = sorted(level.tracks or (), key=lambda t: (t.display_order is None, t.display_order or 0))
        for option in options.values():
            resolved.options.append((option, [c for c in courses if c.option_id == option.option_id]))
        track_ids = {t.track_id for t in tracks}
        for track in tracks:
            resolved.tracks.append((track, [c for c in courses if c.track_id == track.track_id]))
        for c in courses:
            where = f"levels[{index}] course {c.course_id}"
            if not c.in_catalogue:
                resolved.problems.append(f"{where}: the catalogue does not list this course")
            if c.option_id is not None and c.option_id not in options:
                resolved.problems.append(f"{where}: refers to option {c.option_id}, not in level")
            if c.track_id is not None and c.track_id not in track_ids:
                resolved.problems.append(f"{where}: refers to track {c.track_id}, not in level")
            if c.option_id not in options and c.track_id not in track_ids:
                resolved.other.append(c)
        out.append(resolved)
    return out
