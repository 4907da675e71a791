"""Detail pages: one :class:`Page` per kind, filled again in place for each record shown.

Each kind has a builder function that describes the page of one record through the ``Page``
helpers (title, form, text sections, link lists, expert cards). The helpers keep their widgets
from one record to the next (see ``widgets.Slots``): showing another record sets texts and photos
instead of building, polishing and laying out a new widget tree. Rarer, richer blocks (a series'
sessions table, a certificate's tree, a course's locations) are built fresh with :meth:`Page.add`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.diff import describe_fields
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.ui.detail.certificate_model import CertificateTreeModel
from catalogue_desktop.ui.detail.widgets import (
    BLANK,
    FormGrid,
    Link,
    PhotoLabel,
    Slots,
    W,
    WrapBox,
    cap_text,
    fill_text,
    heading,
    internal_href,
    join_nonblank,
    link_label,
    muted,
    new_text_widget,
    plain_label,
    plain_tooltip,
    set_links,
    set_plain_text,
    settle,
    text_variant,
    text_widget,
    wrap_size_hint,
)

if TYPE_CHECKING:
    from catalogue_desktop.ui.detail.context import DetailContext
    from catalogue_desktop.ui.detail.pane import DetailPane

PHOTO = 96
SMALL_PHOTO = 72
_BANNER_STYLE = ("QLabel#changes { background: #fff4d6; color: #5c4300; border: 1px solid #e8c872;"
                 " border-radius: 4px; padding: 4px 8px; }")


class Page:
    """One kind's content widget: a vertical list of sections, filled for one record at a time."""

    def __init__(self, pane: DetailPane, kind: Kind) -> None:
        self.pane = pane
        self.fmt = pane.formatter
        self.kind = kind
        self.record: Any = None
        self.ctx: DetailContext  # set by fill()
        self.widget = WrapBox()
        self.widget.setObjectName(f"detail_{kind.value}")
        self.layout = QVBoxLayout(self.widget)
        self.layout.setContentsMargins(16, 14, 16, 16)
        self.layout.setSpacing(8)
        self.slots = Slots(self.layout, stretch=True)
        self._grids: list[FormGrid] = []  # the kept form grids filled by this fill
        self._cards: list[ExpertCard] = []  # and the kept expert cards

    def fill(self, record: Any, context: DetailContext) -> None:
        """Show ``record``: the kind's builder asks for its widgets, the rest are removed."""
        self.record, self.ctx = record, context
        self.slots.begin()
        self._grids, self._cards = [], []
        _BUILDERS[self.kind](self, record)
        self.other_fields()
        for grid in self._grids:
            grid.finish()
        self.slots.finish()
        for box in (*self._grids, *self._cards):
            settle(box)

    # -- pieces ---------------------------------------------------------------------------------

    def add(self, widget: QWidget) -> QWidget:
        """A widget built for this record only (replaced at the next fill)."""
        return self.slots.add(widget)

    def take(self, key: Hashable, make: Callable[[], W]) -> W:
        """The widget kept under ``key`` (made the first time), placed next on the page."""
        return self.slots.take(key, make)

    def plain(self, key: Hashable, text: str, make: Callable[[], QLabel]) -> QLabel:
        label = self.take(key, make)
        set_plain_text(label, text)
        return label

    def title(self, text: str | None, fallback: str) -> None:
        self.plain("title", text or fallback, lambda: heading("", "title", size_delta=5))

    def subtitle(self, text: str) -> None:
        self.plain("subtitle", text, lambda: muted(plain_label("", "subtitle")))

    def note(self, key: str, text: str) -> None:
        """A muted line of our own text, named ``key``."""
        self.plain(("note", key), text, lambda: muted(plain_label("", key)))

    def changes_banner(self) -> None:
        changes = self.ctx.changes
        if not changes:
            return
        fields = changes.get("fields")
        if fields:
            text = f"Changed in last refresh: {describe_fields(fields)}"
        elif changes.get("added") or changes.get("status") == "added":
            text = "New in last refresh"
        else:
            return
        self.plain("changes", text, _banner)

    def section(self, text: str, slug: str | None = None) -> QLabel:
        slug = slug or _slug(text)
        return self.plain(("section", slug), text, lambda: _section_heading(slug))

    def text(self, heading_text: str, text: str | None, slug: str | None = None) -> None:
        """A section with a block of plain text; omitted when blank."""
        if not text or not text.strip():
            return
        slug = slug or _slug(heading_text)
        self.section(heading_text, slug)
        variant = text_variant(text)
        fill_text(self.take(("text", slug, variant), lambda: new_text_widget(variant, f"text_{slug}")), text)

    def form(self, name: str = "fields") -> FormGrid:
        """The kept key/value grid ``name``, emptied for this record's rows."""
        grid = self.take(("form", name), lambda: FormGrid(name=name))
        grid.restart()
        self._grids.append(grid)
        return grid

    def links(self, heading_text: str, links: list[Link], slug: str | None = None,
              empty: str | None = None) -> None:
        slug = slug or _slug(heading_text)
        if not links and empty is None:
            return
        self.section(heading_text, slug)
        if not links:
            self.plain(("links_empty", slug), empty or BLANK, lambda: muted(plain_label("", f"links_{slug}")))
            return
        self.link_list(("links", slug), links, f"links_{slug}")

    def link_list(self, key: Hashable, links: list[Link], name: str) -> QLabel:
        """A kept label listing ``links``; its links are activated through the pane."""
        def make() -> QLabel:
            label = link_label([], name)
            label.linkActivated.connect(self.pane.activate_href)
            return label

        label = self.take(key, make)
        set_links(label, links)
        return label

    def record_link(self, kind: Kind, record_id: int, title: str | None) -> Link:
        """A link when the catalogue lists the record, else plain text with a note."""
        index = self.ctx.index
        shown = title or index.title(kind, record_id) or f"{kind.singular.capitalize()} #{record_id}"
        if index.has(kind, record_id):
            return Link(shown, internal_href(kind, record_id))
        return Link(shown, None, "(not in catalogue)")

    def referrer_links(self, target: Kind, record_id: int, source: Kind) -> list[Link]:
        ids = self.ctx.index.referrers(target, record_id).get(source, [])
        links = [self.record_link(source, i, None) for i in ids]
        return sorted(links, key=lambda link: link.text.casefold())

    def other_fields(self) -> None:
        extra = getattr(self.record, "model_extra", None) or {}
        if not extra:
            return
        self.section("Other fields", "other_fields")
        self.note("other_note", "Fields the service sent that this version does not know:")
        grid = self.form("other")
        for key, value in extra.items():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
            grid.add(str(key), text if text else '""', f"extra_{_slug(str(key))}")

    # -- shared blocks ---------------------------------------------------------------------------

    def bool_text(self, value: bool | None) -> str:
        return self.fmt.boolean(value) or BLANK

    def date_text(self, value: Any) -> str:
        return self.fmt.date_long(value) or BLANK

    def expert_cards(self, experts: Iterable[Any], heading_text: str = "Experts") -> None:
        experts = list(experts or ())
        if not experts:
            return
        self.section(heading_text, "experts")
        for i, expert in enumerate(experts):
            card = self.take(("expert", i), lambda: ExpertCard(self.pane))
            card.fill(expert, self.ctx)
            self._cards.append(card)


class ExpertCard(QFrame):
    """One expert on a webinar or course page: photo, name (a link when listed), title,
    education and bio. Kept and filled again for the next record's expert at its position."""

    def __init__(self, pane: DetailPane) -> None:
        super().__init__()
        self.pane = pane
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 4, 0, 8)
        row.setSpacing(12)
        self.photo = PhotoLabel(SMALL_PHOTO)
        row.addWidget(self.photo, 0, Qt.AlignmentFlag.AlignTop)
        column = QVBoxLayout()
        column.setSpacing(2)
        row.addLayout(column, 1)
        self.slots = Slots(column)

    def fill(self, expert: Any, context: DetailContext) -> None:
        self.setObjectName(f"expert_{expert.expert_id}")
        self.pane.load_photo(self.photo, expert.image_url, expert.image2x_url, expert.name or "")
        slots = self.slots
        slots.begin()
        name = expert.name or f"Expert #{expert.expert_id}"
        if context.index.has(Kind.EXPERTS, expert.expert_id):
            link = slots.take("name_link", self._name_link)
            set_links(link, [Link(name, internal_href(Kind.EXPERTS, expert.expert_id))])
        else:
            set_plain_text(slots.take("name", lambda: _bold(plain_label("", "expert_name"))), name)
        if expert.title:
            set_plain_text(slots.take("title", lambda: plain_label("", "expert_title")), expert.title)
        if expert.education:
            edu = slots.take("education", lambda: muted(plain_label("", "expert_education")))
            set_plain_text(edu, expert.education)
        if expert.bio:
            variant = text_variant(expert.bio)
            fill_text(slots.take(("bio", variant), lambda: _bio_widget(variant)), expert.bio)
        slots.finish()

    def sizeHint(self) -> QSize:  # see widgets.WrapBox
        return wrap_size_hint(self)

    def _name_link(self) -> QLabel:
        label = _bold(link_label([], "expert_name"))
        label.linkActivated.connect(self.pane.activate_href)
        return label


def _bold(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


def _bio_widget(variant: str) -> QWidget:
    bio = new_text_widget(variant, "expert_bio")
    bio.setContentsMargins(0, 4, 0, 0)
    return bio


def _banner() -> QLabel:
    label = plain_label("", "changes")
    label.setStyleSheet(_BANNER_STYLE)
    return label


def _section_heading(slug: str) -> QLabel:
    label = heading("", f"section_{slug}", size_delta=1)
    label.setContentsMargins(0, 10, 0, 0)
    return label


# -- per kind ------------------------------------------------------------------------------------


def _webinar(p: Page, r: Any) -> None:
    p.title(r.title, f"Webinar #{r.webinar_id}")
    p.subtitle(join_nonblank([f"Webinar #{r.webinar_id}",
                              f"session {r.session_id}" if r.session_id is not None else None], " · "))
    p.changes_banner()
    end = r.end_date or r.start_date
    if end is not None and p.ctx.now_ms and end.timestamp() * 1000 < p.ctx.now_ms:
        p.note("past", "This webinar is in the past.")
    grid = p.form()
    grid.add("Type", None if r.type is None else str(r.type))
    grid.add("Fee", p.fmt.money(r.fee) or None)
    grid.add("CLE", p.bool_text(r.cle_accreditation))
    grid.add("CPE", p.bool_text(r.cpe_accreditation))
    grid.add("Starts", p.date_text(r.start_date), "start")
    grid.add("Ends", p.date_text(r.end_date), "end")
    grid.add("Produced", p.date_text(r.production_date), "production")
    grid.add_url("Details", r.detail_url, "detail_url", p.pane.activate_href)
    grid.add_url("Access", r.access_url, "access_url", p.pane.activate_href)
    p.text("Description", r.description)
    series = p.ctx.index.referrers(Kind.WEBINARS, r.webinar_id).get(Kind.SERIES, [])
    p.links("Part of series", [p.record_link(Kind.SERIES, i, None) for i in series], "series")
    p.links("Topics", [p.record_link(Kind.TOPICS, t.topic_id, t.title) for t in r.topics or ()])
    p.links("Roles", [p.record_link(Kind.ROLES, t.role_id, t.title) for t in r.roles or ()])
    p.links("Situations",
            [p.record_link(Kind.SITUATIONS, t.situation_id, t.title) for t in r.situations or ()])
    p.expert_cards(r.experts)


def _series(p: Page, r: Any) -> None:
    p.title(r.title, f"Series #{r.series_id}")
    sessions = list(r.sessions or ())
    p.subtitle(f"Series #{r.series_id} · {len(sessions)} session{'s' if len(sessions) != 1 else ''}")
    p.changes_banner()
    grid = p.form()
    grid.add("Fee", p.fmt.money(r.fee) or None)
    if sessions:
        starts = sorted(s.start_date for s in sessions if s.start_date is not None)
        if starts:
            grid.add("First session", p.date_text(starts[0]), "first")
            grid.add("Last session", p.date_text(starts[-1]), "last")
    grid.add_url("Details", r.detail_url, "detail_url", p.pane.activate_href)
    p.text("Description", r.description)
    p.section("Sessions", "sessions")
    if not sessions:
        p.plain("no_sessions", "No sessions.", lambda: plain_label("", "no_sessions"))
        return
    p.add(_sessions_table(p, sessions))


def _sessions_table(p: Page, sessions: list[Any]) -> QTableWidget:
    def key(s: Any) -> tuple[bool, float]:
        return (s.start_date is None, s.start_date.timestamp() if s.start_date else 0.0)

    ordered = sorted(sessions, key=key)
    table = QTableWidget(len(ordered), 4)
    table.setObjectName("sessions")
    table.setHorizontalHeaderLabels(["Start", "Title", "Fee", "Type"])
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(False)
    table.setAlternatingRowColors(True)
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    for row, s in enumerate(ordered):
        start = QTableWidgetItem(p.fmt.date(_ms(s.start_date)))
        start.setData(Qt.ItemDataRole.UserRole, s.webinar_id)
        start.setTextAlignment(right)
        title = QTableWidgetItem(s.title or f"Webinar #{s.webinar_id}")
        title.setToolTip(plain_tooltip(cap_text(s.title or "", 2000)))
        fee = QTableWidgetItem(p.fmt.money(s.fee))
        fee.setTextAlignment(right)
        type_ = QTableWidgetItem("" if s.type is None else str(s.type))
        for column, item in enumerate((start, title, fee, type_)):
            item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
            if not p.ctx.index.has(Kind.WEBINARS, s.webinar_id):
                item.setToolTip("This webinar is not in the webinars list")
            table.setItem(row, column, item)
    header = table.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
    table.resizeRowsToContents()
    shown = min(len(ordered), 15)
    height = header.sizeHint().height() + 2 * table.frameWidth()
    height += sum(table.rowHeight(i) for i in range(shown))
    table.setFixedHeight(height + 2)
    table.setToolTip("Double-click or press Enter to open a session")

    def activated(index: QModelIndex) -> None:
        webinar_id = table.item(index.row(), 0).data(Qt.ItemDataRole.UserRole)
        if webinar_id is not None:
            p.pane.link_activated.emit(Kind.WEBINARS, int(webinar_id))

    table.activated.connect(activated)
    return table


def _course(p: Page, r: Any) -> None:
    p.title(r.title, f"Course #{r.course_id}")
    p.subtitle(f"Course #{r.course_id}")
    p.changes_banner()
    grid = p.form()
    grid.add("Level", None if r.level is None else str(r.level))
    grid.add("CLE", p.bool_text(r.cle_accreditation))
    grid.add("CPE", p.bool_text(r.cpe_accreditation))
    fees = [loc.fee for loc in r.locations or () if loc.fee is not None]
    if fees:
        grid.add("Fee", p.fmt.money_range([min(fees), max(fees)]))
    grid.add_url("Details", r.url, "detail_url", p.pane.activate_href)
    p.text("Description", r.description)
    p.text("Curriculum", r.curriculum)
    p.links("Topics", [p.record_link(Kind.TOPICS, t.topic_id, t.title) for t in r.topics or ()])
    p.expert_cards(r.experts)
    locations = list(r.locations or ())
    if locations:
        p.section("Locations", "locations")
        for loc in sorted(locations, key=lambda x: (x.start_date is None, _ms(x.start_date) or 0)):
            p.add(_location(p, loc))
    schedule = list(r.schedule or ())
    if schedule:
        p.section("Schedule", "schedule")
        p.add(_schedule(p, schedule))


def _location(p: Page, loc: Any) -> QWidget:
    box = QFrame()
    box.setObjectName(f"location_{loc.location_id}")
    box.setFrameShape(QFrame.Shape.StyledPanel)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(10, 8, 10, 8)
    layout.setSpacing(4)
    title = join_nonblank([loc.venue, loc.city], " — ") or f"Location #{loc.location_id}"
    layout.addWidget(heading(title, "location_title", size_delta=0))
    grid = FormGrid()
    city = join_nonblank([loc.city, join_nonblank([loc.state, loc.zip], " ")])
    grid.add("Address", join_nonblank([loc.address, city], "\n") or None)
    start, end = p.fmt.date_long(loc.start_date), p.fmt.date_long(loc.end_date)
    grid.add("Dates", f"{start} – {end}" if start and end and start != end else (start or end or None))
    grid.add("Fee", p.fmt.money(loc.fee) or None)
    if loc.travel_info:
        grid.add("Travel", text_widget(loc.travel_info, "travel_info"))
    grid.add("Group rate", loc.travel_group_rate or None, "group_rate")
    if loc.detail_url:
        grid.add_url("Details", loc.detail_url, "location_url", p.pane.activate_href)
    layout.addWidget(grid)
    return box


def _schedule(p: Page, items: list[Any]) -> QWidget:
    box = QWidget()
    box.setObjectName("schedule")
    grid = QGridLayout(box)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setHorizontalSpacing(16)
    grid.setVerticalSpacing(4)
    grid.setColumnStretch(1, 1)
    row = 0
    days: dict[Any, list[Any]] = {}
    for item in items:
        days.setdefault(item.day, []).append(item)
    for day in sorted(days, key=lambda d: (d is None, d or 0)):
        label = heading(f"Day {day}" if day is not None else "Day not given", "schedule_day",
                        size_delta=0)
        label.setContentsMargins(0, 6 if row else 0, 0, 0)
        grid.addWidget(label, row, 0, 1, 3)
        row += 1
        for item in days[day]:
            time = join_nonblank([item.start_time, item.end_time], "–") or BLANK
            grid.addWidget(plain_label(time, "schedule_time", wrap=False), row, 0, Qt.AlignmentFlag.AlignTop)
            column = QVBoxLayout()
            column.setSpacing(1)
            title = plain_label(item.title or BLANK, "schedule_title")
            font = QFont(title.font())
            font.setBold(True)
            title.setFont(font)
            column.addWidget(title)
            if item.description:
                column.addWidget(text_widget(item.description, "schedule_description"))
            grid.addLayout(column, row, 1)
            if item.break_mins:
                brk = plain_label(f"break {item.break_mins} min", "schedule_break", wrap=False)
                muted(brk)
                grid.addWidget(brk, row, 2, Qt.AlignmentFlag.AlignTop)
            row += 1
    return box


def _certificate(p: Page, r: Any) -> None:
    top = QWidget()
    row = QHBoxLayout(top)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(12)
    photo = p.pane.photo(PHOTO, r.image_url, None, r.title or "")
    photo.setObjectName("certificate_image")
    row.addWidget(photo, 0, Qt.AlignmentFlag.AlignTop)
    column = QVBoxLayout()
    column.addWidget(heading(r.title or f"Certificate #{r.certificate_id}", "title", size_delta=5))
    sub = plain_label(f"Certificate #{r.certificate_id}", "subtitle")
    muted(sub)
    column.addWidget(sub)
    column.addStretch(1)
    row.addLayout(column, 1)
    p.add(top)
    p.changes_banner()
    grid = p.form()
    grid.add("Fee", p.fmt.money(None if r.fee is None else str(r.fee)) or None)
    levels = list(r.levels or ())
    grid.add("Levels", str(len(levels)))
    p.text("Description", r.description)
    p.section("Levels and courses", "levels")
    model = CertificateTreeModel()
    model.set_certificate(r, p.ctx.course_title)
    tree = QTreeView()
    tree.setObjectName("levels")
    tree.setModel(model)
    model.setParent(tree)
    tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.expandAll()
    tree.header().setStretchLastSection(True)
    tree.resizeColumnToContents(0)
    tree.setColumnWidth(0, min(tree.columnWidth(0) + 16, 560))
    rows = _visible_rows(model)
    row_height = tree.sizeHintForRow(0) if rows else 20
    tree.setFixedHeight(tree.header().sizeHint().height() + row_height * min(rows, 30) + 6)
    tree.setToolTip("Double-click or press Enter on a course to open it")

    def activated(index: QModelIndex) -> None:
        course_id = model.course_id(index)
        if course_id is not None and model.in_catalogue(index):
            p.pane.link_activated.emit(Kind.COURSES, course_id)

    tree.activated.connect(activated)
    p.add(tree)
    problems = model.problems
    if problems:
        note = plain_label("\n".join(problems[:50]), "certificate_problems")
        muted(note)
        p.add(note)


def _visible_rows(model: CertificateTreeModel) -> int:
    count = 0
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        for i in range(model.rowCount(parent)):
            count += 1
            stack.append(model.index(i, 0, parent))
    return count


def _expert(p: Page, r: Any) -> None:
    top = QWidget()
    row = QHBoxLayout(top)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(14)
    row.addWidget(p.pane.photo(PHOTO, r.image_url, r.image2x_url, r.name or ""), 0, Qt.AlignmentFlag.AlignTop)
    column = QVBoxLayout()
    column.setSpacing(3)
    column.addWidget(heading(r.name or f"Expert #{r.expert_id}", "title", size_delta=5))
    if r.title:
        column.addWidget(plain_label(r.title, "expert_title"))
    if r.education:
        edu = plain_label(r.education, "expert_education")
        muted(edu)
        column.addWidget(edu)
    column.addStretch(1)
    row.addLayout(column, 1)
    p.add(top)
    p.changes_banner()
    p.text("Biography", r.bio, "bio")
    webinars = p.referrer_links(Kind.EXPERTS, r.expert_id, Kind.WEBINARS)
    courses = p.referrer_links(Kind.EXPERTS, r.expert_id, Kind.COURSES)
    p.section("Appears in", "appears_in")
    if not webinars and not courses:
        p.note("appears_none", "No webinars or courses in the catalogue.")
    _link_group(p, "Webinars", webinars, "webinars")
    _link_group(p, "Courses", courses, "courses")


def _link_group(p: Page, label: str, links: list[Link], slug: str) -> None:
    if not links:
        return
    p.plain(("group", slug), f"{label} ({len(links)})", lambda: _italic(plain_label("", f"group_{slug}")))
    p.link_list(("links", slug), links, f"links_{slug}")


def _italic(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setItalic(True)
    label.setFont(font)
    return label


def _titled(kind: Kind, id_attr: str) -> Callable[[Page, Any], None]:
    def build(p: Page, r: Any) -> None:
        record_id = getattr(r, id_attr)
        p.title(r.title, f"{kind.singular.capitalize()} #{record_id}")
        p.subtitle(f"{kind.singular.capitalize()} #{record_id}")
        p.changes_banner()
        p.text("Description", r.description)
        webinars = p.referrer_links(kind, record_id, Kind.WEBINARS)
        p.links(f"Webinars ({len(webinars)})", webinars, "webinars",
                empty=f"No webinars carry this {kind.singular}.")
        if kind is Kind.TOPICS:
            courses = p.referrer_links(kind, record_id, Kind.COURSES)
            p.links(f"Courses ({len(courses)})", courses, "courses",
                    empty="No courses carry this topic.")

    return build


_BUILDERS: dict[Kind, Callable[[Page, Any], None]] = {
    Kind.WEBINARS: _webinar,
    Kind.SERIES: _series,
    Kind.COURSES: _course,
    Kind.CERTIFICATES: _certificate,
    Kind.EXPERTS: _expert,
    Kind.TOPICS: _titled(Kind.TOPICS, "topic_id"),
    Kind.ROLES: _titled(Kind.ROLES, "role_id"),
    Kind.SITUATIONS: _titled(Kind.SITUATIONS, "situation_id"),
}


def _ms(value: Any) -> int | None:
    return None if value is None else int(value.timestamp() * 1000)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
