"""A certificate's levels as a tree: Level -> Options / Tracks / Other courses -> courses.

Built from ``core.records.certificates.resolve_certificate``. A course the catalogue does not list
(the courses endpoint lists only upcoming courses) is shown as "Course #ID (not in this catalogue)", grey
and italic. What a level asks is said in words; codes the service sends without saying what they
mean (Level.type, selection) are labelled as such, and an option's operator is shown as it comes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QFont, QGuiApplication, QPalette

from catalogue_desktop.core.records.certificates import ResolvedCourse, ResolvedLevel, resolve_certificate
from catalogue_desktop.qt_compat.item_models import guarded
from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from catalogue_desktop.core.records.models import Certificate, Level, Option, Track

__all__ = ["CertificateTreeModel"]

_Index = QModelIndex | QPersistentModelIndex
_ROOT = 0
HEADERS = ("Name", "Details")


class _NodeDetails(TypedDict, total=False):
    """A node's optional fields (``_add`` passes them on)."""

    details: str
    tooltip: str | None
    course_id: int | None
    in_catalogue: bool


@dataclass
class _Node:
    id: int
    parent: int
    row: int
    role: str  # level | group | option | track | course
    name: str
    details: str = ""
    tooltip: str | None = None
    course_id: int | None = None
    in_catalogue: bool = True
    children: list[int] = field(default_factory=list)


def _v(value: object) -> str:
    return "—" if value is None else str(value)


def level_label(number: int, level: Level) -> str:
    """ "Level 1 — at least 1 option and 3 courses": what the level asks, in words."""
    asks = []
    if level.options_min is not None:
        asks.append(_count(level.options_min, "option"))
    if level.courses_min is not None:
        asks.append(_count(level.courses_min, "course"))
    return f"Level {number} — at least {' and '.join(asks)}" if asks else f"Level {number}"


def level_codes(level: Level) -> str:
    """The level's codes the service sends without saying what they mean, labelled so."""
    pairs = (("type", level.type), ("selection", level.selection))
    shown = [f"{name} {value}" for name, value in pairs if value is not None]
    return f"codes the service does not explain: {', '.join(shown)}" if shown else ""


def course_label(course: ResolvedCourse) -> str:
    """A course by its title, else "Course #6085 (not in this catalogue)"."""
    return course.title or f"Course #{course.course_id} (not in this catalogue)"


def level_notes(number: int, resolved: ResolvedLevel) -> list[str]:
    """What a person should know about a level's references, in words: courses the catalogue
    does not list, options and tracks the level does not have."""
    level = resolved.level
    options = {o.option_id for o in level.options or ()}
    tracks = {t.track_id for t in level.tracks or ()}
    listed: dict[int, bool] = {}
    for _group, members in (*resolved.options, *resolved.tracks):
        listed.update({c.course_id: c.in_catalogue for c in members})
    listed.update({c.course_id: c.in_catalogue for c in resolved.other})
    notes = []
    for course in level.courses or ():
        name = f"Course #{course.course_id}"
        if not listed.get(course.course_id, True):
            notes.append(f"Level {number}: {name} (not in this catalogue)")
        if course.option_id is not None and course.option_id not in options:
            notes.append(f"Level {number}: {name} names option #{course.option_id}, not in the level")
        if course.track_id is not None and course.track_id not in tracks:
            notes.append(f"Level {number}: {name} names track #{course.track_id}, not in the level")
    return notes


def option_label(option: Option) -> str:
    operator = f" ({option.courses_operator})" if option.courses_operator else ""
    return (
        f"Option {_v(option.num)} — at least {_v(option.courses_min)} of "
        f"{_v(option.courses_total)} courses{operator}"
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class CertificateTreeModel(QAbstractItemModel):
    """Two columns: name and details. Read-only."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._nodes: list[_Node] = [_Node(_ROOT, -1, 0, "root", "")]
        self._problems: list[str] = []
        self.stacked = False  # each row's details after its name, in one column (``set_stacked``)

    # -- building ------------------------------------------------------------------------------

    def set_certificate(
        self, certificate: Certificate | None, course_title: Callable[[int], str | None]
    ) -> None:
        """Rebuild the tree for ``certificate`` (a models.Certificate); None empties it."""
        self.beginResetModel()
        self._nodes = [_Node(_ROOT, -1, 0, "root", "")]
        self._problems = []
        if certificate is not None:
            self._build(certificate, course_title)
        self.endResetModel()

    def set_stacked(self, stacked: bool) -> None:
        """Each row's details after its name, in the first column (a narrow pane: one column)."""
        if stacked != self.stacked:
            self.stacked = stacked
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, 0))
            self.layoutChanged.emit()

    def clear(self) -> None:
        self.set_certificate(None, lambda _id: None)

    @property
    def problems(self) -> list[str]:
        """Reference problems found while resolving (unknown option/track, unlisted course)."""
        return list(self._problems)

    def _add(self, parent: int, role: str, name: str, **kw: Unpack[_NodeDetails]) -> int:
        siblings = self._nodes[parent].children
        node = _Node(len(self._nodes), parent, len(siblings), role, name, **kw)
        self._nodes.append(node)
        siblings.append(node.id)
        return node.id

    def _build(self, certificate: Certificate, course_title: Callable[[int], str | None]) -> None:
        for number, resolved in enumerate(resolve_certificate(certificate, course_title), start=1):
            level = resolved.level
            notes = level_notes(number, resolved)
            self._problems.extend(notes)
            courses = len(level.courses or ())
            details = [f"level id {level.id}", _count(courses, "course"), level_codes(level)]
            level_id = self._add(
                _ROOT,
                "level",
                level_label(number, level),
                details=" · ".join(d for d in details if d),
                tooltip="\n".join(notes) or None,
            )
            options: dict[int | None, Option] = {o.option_id: o for o, _ in resolved.options}
            tracks: dict[int | None, Track] = {t.track_id: t for t, _ in resolved.tracks}
            if resolved.options:
                group = self._add(
                    level_id, "group", "Options", details=_count(len(resolved.options), "option")
                )
                for option, members in resolved.options:
                    node = self._add(
                        group, "option", option_label(option), details=f"option id {option.option_id}"
                    )
                    for course in members:
                        track = tracks.get(course.track_id)
                        where = f"track {track.name}" if track is not None and track.name else ""
                        self._add_course(node, course, where)
            if resolved.tracks:
                group = self._add(level_id, "group", "Tracks", details=_count(len(resolved.tracks), "track"))
                for track, members in resolved.tracks:
                    node = self._add(
                        group,
                        "track",
                        f"Track: {track.name or f'#{track.track_id}'}",
                        details=f"display order {_v(track.display_order)} · track id {track.track_id}",
                    )
                    for course in members:
                        in_option = options.get(course.option_id)
                        where = f"option {_v(in_option.num)}" if in_option is not None else ""
                        self._add_course(node, course, where)
            if resolved.other:
                group = self._add(
                    level_id, "group", "Other courses", details="in no option or track of this level"
                )
                for course in resolved.other:
                    self._add_course(group, course, "")

    def _add_course(self, parent: int, course: ResolvedCourse, where: str) -> None:
        details = f"course #{course.course_id}" + (f" · {where}" if where else "")
        tooltip = None
        if not course.in_catalogue:
            tooltip = "This catalogue does not list this course (it lists only upcoming courses)."
        self._add(
            parent,
            "course",
            course_label(course),
            details=details,
            tooltip=tooltip,
            course_id=course.course_id,
            in_catalogue=course.in_catalogue,
        )

    # -- queries -------------------------------------------------------------------------------

    def _node(self, index: _Index) -> _Node:
        if not index.isValid():
            return self._nodes[_ROOT]
        return self._nodes[index.internalId()]

    def course_id(self, index: _Index) -> int | None:
        """The course id of a course node (listed or not), else None."""
        if not index.isValid():
            return None
        return self._node(index).course_id

    def in_catalogue(self, index: _Index) -> bool:
        """True for a course node whose course the catalogue lists."""
        node = self._node(index)
        return node.course_id is not None and node.in_catalogue

    # -- Qt model API --------------------------------------------------------------------------

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(HEADERS) or row < 0:
            return QModelIndex()
        if parent.isValid() and parent.column() != 0:
            return QModelIndex()
        children = self._node(parent).children
        if row >= len(children):
            return QModelIndex()
        return self.createIndex(row, column, children[row])

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        node = self._nodes[index.internalId()]
        if node.parent <= _ROOT:
            return QModelIndex()
        parent = self._nodes[node.parent]
        return self.createIndex(parent.row, 0, parent.id)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(HEADERS)

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        return self.rowCount(parent) > 0

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled

    @guarded
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._nodes[index.internalId()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0 and self.stacked and node.details:
                return f"{node.name} — {node.details}"
            return node.name if column == 0 else node.details
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole text, for narrow panes
            return plain_tooltip(node.tooltip or " — ".join(t for t in (node.name, node.details) if t))
        if role == Qt.ItemDataRole.UserRole:
            return node.course_id
        if role == Qt.ItemDataRole.FontRole:
            if node.role == "course" and not node.in_catalogue:
                font = QFont()
                font.setItalic(True)
                return font
            if node.role in ("level", "group") and column == 0:
                font = QFont()
                font.setBold(True)
                return font
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            if (node.role == "course" and not node.in_catalogue) or column == 1:
                palette = QGuiApplication.palette()
                return QBrush(palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
            return None
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(HEADERS)
        ):
            return HEADERS[section]
        return None
