"""Each kind's detail page: a builder per kind that describes one record's page through the
``Page`` helpers, and ``make_page(pane, kind)``, the page of a kind (made once, filled per record).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.records.kinds import Kind, per_kind
from catalogue_desktop.ui.common.a11y import name_inner_buttons
from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.detail.certificate_model import CertificateTreeModel
from catalogue_desktop.ui.detail.fitted_views import LevelsTree, SessionsTable
from catalogue_desktop.ui.detail.layout import FormGrid
from catalogue_desktop.ui.detail.page import PHOTO, Page, PageHost
from catalogue_desktop.ui.detail.page_links import Link
from catalogue_desktop.ui.detail.photo_row import PhotoRow
from catalogue_desktop.ui.detail.plain_labels import (
    BLANK,
    cap_text,
    heading,
    join_nonblank,
    muted,
    plain_label,
    text_widget,
)

if TYPE_CHECKING:  # (the models only as types: the window starts without pydantic)
    from catalogue_desktop.core.records.models import (
        Certificate,
        Course,
        Expert,
        Location,
        Role,
        Schedule,
        Series,
        Situation,
        Topic,
        Webinar,
    )

__all__ = ["make_page"]

# SALES ORDER: one rule for the sections of every kind that is sold: what it costs and when (the
# form), then where and when it is held or what it takes (a course's locations and schedule, a
# series' sessions, a certificate's levels, a webinar's series: what a sales person reads first and
# quotes), then what it is about (description, curriculum, topics), then who teaches (experts).
# (A course's dates came after its description, curriculum, topics and every expert's biography:
# screens of scrolling at 1024x700.)


def make_page(pane: PageHost, kind: Kind) -> Page:
    """``kind``'s page, shown in ``pane``: made once, then filled for each record shown."""
    return Page(pane, kind, _BUILDERS[kind])


# -- per kind ------------------------------------------------------------------------------------


def _webinar(p: Page, r: Webinar) -> None:
    p.title(r.title, f"Webinar #{r.webinar_id}")
    p.subtitle(
        join_nonblank(
            [f"Webinar #{r.webinar_id}", f"session {r.session_id}" if r.session_id is not None else None],
            " · ",
        )
    )
    p.changes_banner()
    end = r.end_date or r.start_date
    if p.fmt.on_demand(r.type):
        p.note("ondemand", "On demand: bookable at any time.")
    elif end is not None and p.ctx.now_ms and end.timestamp() * 1000 < p.ctx.now_ms:
        p.note("past", f"Past: this webinar ended {p.date_text(end)}.")
    grid = p.form()
    grid.add("Type", p.fmt.code("type", r.type) or None)
    grid.add("Fee", p.fmt.money(r.fee) or None)
    grid.add("CLE", p.bool_text(r.cle_accreditation))
    grid.add("CPE", p.bool_text(r.cpe_accreditation))
    if p.fmt.on_demand(r.type):  # its start is when it was recorded, not a missed event
        grid.add("Starts", p.fmt.on_demand_text(), "start")
        grid.add("Recorded", p.date_text(r.production_date or r.start_date), "production")
    else:
        grid.add("Starts", p.date_text(r.start_date), "start")
        grid.add("Ends", p.date_text(r.end_date), "end")
        grid.add("Produced", p.date_text(r.production_date), "production")
    grid.add_url("Details", r.detail_url, "detail_url", p.pane.activate_href)
    grid.add_url("Access", r.access_url, "access_url", p.pane.activate_href)
    series = p.ctx.index.referrers(Kind.WEBINARS, r.webinar_id).get(Kind.SERIES, [])
    p.links("Part of series", [p.record_link(Kind.SERIES, i, None) for i in series], "series")
    p.text("Description", r.description)
    p.links("Topics", [p.record_link(Kind.TOPICS, t.topic_id, t.title) for t in r.topics or ()])
    p.links("Roles", [p.record_link(Kind.ROLES, t.role_id, t.title) for t in r.roles or ()])
    p.links(
        "Situations", [p.record_link(Kind.SITUATIONS, t.situation_id, t.title) for t in r.situations or ()]
    )
    p.expert_cards(r.experts or ())


def _series(p: Page, r: Series) -> None:
    p.title(r.title, f"Series #{r.series_id}")
    sessions = list(r.sessions or ())
    p.subtitle(f"Series #{r.series_id} · {len(sessions)} session{'s' if len(sessions) != 1 else ''}")
    p.changes_banner()
    grid = p.form()
    session = next((s for s in sessions if s.webinar_id == p.ctx.occasion), None)
    if session is not None:  # shown for one of its sessions (a Dates row): that session's facts
        said = join_nonblank([session.title, p.date_text(session.start_date)], " — ")
        grid.add("This session", said, "this_date")
        grid.add("Session fee", p.fmt.money(session.fee) or None, "session_fee")
    grid.add("Series fee" if session is not None else "Fee", p.fmt.money(r.fee) or None, "fee")
    if sessions:
        # an on-demand session's date is when it was recorded, never a start: not the first one
        starts = sorted(
            s.start_date for s in sessions if s.start_date is not None and not p.fmt.on_demand(s.type)
        )
        if starts:
            grid.add("First session", p.date_text(starts[0]), "first")
            grid.add("Last session", p.date_text(starts[-1]), "last")
        elif any(p.fmt.on_demand(s.type) for s in sessions):
            grid.add("Sessions", p.fmt.on_demand_text(), "first")
    grid.add_url("Details", r.detail_url, "detail_url", p.pane.activate_href)
    p.section("Sessions", "sessions")  # when: read first (SALES ORDER, above)
    if not sessions:
        p.plain("no_sessions", "No sessions.", lambda: plain_label("", "no_sessions"))
    else:
        p.add(_sessions_table(p, sessions))
    p.text("Description", r.description)


def _sessions_table(p: Page, sessions: list[Webinar]) -> QTableWidget:
    def key(s: Webinar) -> tuple[bool, float]:
        return (s.start_date is None, s.start_date.timestamp() if s.start_date else 0.0)

    ordered = sorted(sessions, key=key)
    table = SessionsTable(len(ordered), title=1, start=0)  # (sized to the pane: ``fitted_views``)
    table.setObjectName("sessions")
    table.setAccessibleName("Sessions")
    table.setAccessibleDescription("The series' sessions: title, date, fee and type")
    table.horizontalHeader().setAccessibleName("Session columns")
    table.verticalHeader().setAccessibleName("Session rows")
    name_inner_buttons(table)  # (a detail page: made after the window is ready)
    table.setHorizontalHeaderLabels(["Start", "Title", "Fee", "Type"])
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().setVisible(False)
    table.setAlternatingRowColors(True)
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    for row, s in enumerate(ordered):
        start = QTableWidgetItem(
            p.fmt.on_demand_text(s.start_date) if p.fmt.on_demand(s.type) else p.fmt.moment(s.start_date)
        )
        start.setData(Qt.ItemDataRole.UserRole, s.webinar_id)
        start.setTextAlignment(right)
        title = QTableWidgetItem(s.title or f"Webinar #{s.webinar_id}")
        title.setToolTip(plain_tooltip(cap_text(s.title or "", 2000)))
        fee = QTableWidgetItem(p.fmt.money(s.fee))
        fee.setTextAlignment(right)
        type_ = QTableWidgetItem(p.fmt.code("type", s.type))
        for column, item in enumerate((start, title, fee, type_)):
            item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
            if not p.ctx.index.has(Kind.WEBINARS, s.webinar_id):
                item.setToolTip("This webinar is not in the webinars list")
            table.setItem(row, column, item)
    table.fit()
    table.setToolTip("Double-click or press Enter to open a session")

    def activated(index: QModelIndex) -> None:
        item = table.item(index.row(), 0)
        webinar_id = None if item is None else item.data(Qt.ItemDataRole.UserRole)
        if webinar_id is not None:
            p.pane.link_activated.emit(Kind.WEBINARS, int(webinar_id))

    table.activated.connect(activated)
    return table


def _course(p: Page, r: Course) -> None:
    p.title(r.title, f"Course #{r.course_id}")
    p.subtitle(f"Course #{r.course_id}")
    p.changes_banner()
    grid = p.form()
    grid.add("Level", p.fmt.code("level", r.level) or None)
    grid.add("CLE", p.bool_text(r.cle_accreditation))
    grid.add("CPE", p.bool_text(r.cpe_accreditation))
    fees = [loc.fee for loc in r.locations or () if loc.fee is not None]
    chosen = next((loc for loc in r.locations or () if loc.location_id == p.ctx.occasion), None)
    if chosen is not None:  # shown for one of its dates (a Dates row): that date's own facts
        note = _doubt_of(p, chosen)
        grid.add("This date", _dates_of(p, chosen), "this_date").setToolTip(note or "")
        if note is not None:  # (said, not only in a tooltip: the one answer for a caller)
            grid.add("Time ⚠", note, "this_date_note")
        grid.add("Place", join_nonblank([chosen.venue, chosen.city, chosen.state], ", ") or None, "place")
        grid.add("Fee", p.fmt.money(chosen.fee) or None)
        if len(fees) > 1 and min(fees) != max(fees):
            grid.add("All dates' fees", p.fmt.money_range([min(fees), max(fees)]), "fee_range")
    elif fees:
        grid.add("Fee", p.fmt.money_range([min(fees), max(fees)]))
    grid.add_url("Details", r.url, "detail_url", p.pane.activate_href)
    locations = list(r.locations or ())  # where and when: read first (SALES ORDER, above)
    if locations:
        p.section("Locations", "locations")
        for loc in sorted(locations, key=lambda x: (x.start_date is None, _ms(x.start_date) or 0)):
            p.add(_location(p, loc))
    schedule = list(r.schedule or ())
    if schedule:
        p.section("Schedule", "schedule")
        p.add(_schedule(p, schedule))
    p.text("Description", r.description)
    p.text("Curriculum", r.curriculum)
    p.links("Topics", [p.record_link(Kind.TOPICS, t.topic_id, t.title) for t in r.topics or ()])
    p.expert_cards(r.experts or ())


def _location(p: Page, loc: Location) -> QWidget:
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
    note = _doubt_of(p, loc)
    grid.add("Dates", _dates_of(p, loc)).setToolTip(note or "")
    if note is not None:  # (said, not only in a tooltip: the one answer for a caller)
        grid.add("Time ⚠", note, "time_note")
    grid.add("Fee", p.fmt.money(loc.fee) or None)
    if loc.travel_info:
        grid.add("Travel", text_widget(loc.travel_info, "travel_info"))
    grid.add("Group rate", loc.travel_group_rate or None, "group_rate")
    if loc.detail_url:
        grid.add_url("Details", loc.detail_url, "location_url", p.pane.activate_href)
    layout.addWidget(grid)
    return box


def _dates_of(p: Page, loc: Location) -> str | None:
    """A location's first and last day ("… – …", the day once for a one-day event), or the one
    it has; a doubtful time marked "⚠" and read as the user chose (``Formatter.venue_span``)."""
    return p.fmt.venue_span(loc.start_date, loc.end_date, loc.state) or None


def _doubt_of(p: Page, loc: Location) -> str | None:
    """What the "⚠" of a location's dates says (``Formatter.doubt_note``), or None."""
    doubt = p.fmt.doubt(loc.start_date, loc.state) or p.fmt.doubt(loc.end_date, loc.state)
    if doubt is None:
        return None
    return p.fmt.doubt_note(
        doubt, join_nonblank([loc.city, loc.state], ", ") or f"location #{loc.location_id}"
    )


def _schedule(p: Page, items: list[Schedule]) -> QWidget:
    box = QWidget()
    box.setObjectName("schedule")
    grid = QGridLayout(box)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setHorizontalSpacing(16)
    grid.setVerticalSpacing(4)
    grid.setColumnStretch(1, 1)
    row = 0
    days: dict[int | None, list[Schedule]] = {}
    for item in items:
        days.setdefault(item.day, []).append(item)
    for day in sorted(days, key=lambda d: (d is None, d or 0)):
        label = heading(f"Day {day}" if day is not None else "Day not given", "schedule_day", size_delta=0)
        label.setContentsMargins(0, 6 if row else 0, 0, 0)
        grid.addWidget(label, row, 0, 1, 3)
        row += 1
        for item in days[day]:
            # the locale's clock, as every time in the window ("8:30 AM – 10:15 AM"; may wrap after
            # the dash, never inside a time)
            times = [p.fmt.time_text.clock_of(t) for t in (item.start_time, item.end_time)]
            time = join_nonblank([t.replace(" ", "\u00a0") if t else t for t in times], " – ") or BLANK
            grid.addWidget(plain_label(time, "schedule_time"), row, 0, Qt.AlignmentFlag.AlignTop)
            column = QVBoxLayout()
            column.setSpacing(1)
            title = plain_label(item.title or BLANK, "schedule_title")
            font = QFont(title.font())
            font.setBold(True)
            title.setFont(font)
            column.addWidget(title)
            if item.description:
                column.addWidget(text_widget(item.description, "schedule_description"))
            if item.break_mins:  # under the title (a third column made a narrow pane cut it off)
                brk = plain_label(f"break {item.break_mins} min", "schedule_break")
                muted(brk)
                column.addWidget(brk)
            grid.addLayout(column, row, 1)
            row += 1
    return box


def _certificate(p: Page, r: Certificate) -> None:
    # A certificate is no person: no initials drawn for it (they read as someone's avatar), and
    # without an image no placeholder at all.
    photo = p.pane.photo(PHOTO, r.image_url, None, "")
    photo.setObjectName("certificate_image")
    photo.setVisible(bool(r.image_url))
    column = QVBoxLayout()
    column.addWidget(heading(r.title or f"Certificate #{r.certificate_id}", "title", size_delta=5))
    sub = plain_label(f"Certificate #{r.certificate_id}", "subtitle")
    muted(sub)
    column.addWidget(sub)
    column.addStretch(1)
    p.add(PhotoRow(photo, column, 12))
    p.changes_banner()
    grid = p.form()
    grid.add("Fee", p.fmt.money(None if r.fee is None else str(r.fee)) or None)
    levels = list(r.levels or ())
    grid.add("Levels", str(len(levels)))
    p.section("Levels and courses", "levels")  # what it takes: read first (SALES ORDER, above)
    model = CertificateTreeModel()
    model.set_certificate(r, p.ctx.course_title)
    tree = LevelsTree()  # (its columns as wide as their text: ``fitted_views``)
    tree.setObjectName("levels")
    tree.setAccessibleName("Levels and courses")
    tree.header().setAccessibleName("Level columns")
    tree.setModel(model)
    model.setParent(tree)
    tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    tree.setAlternatingRowColors(True)
    tree.expandAll()
    tree.fit(_visible_rows(model))
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
    p.text("Description", r.description)


def _visible_rows(model: CertificateTreeModel) -> int:
    count = 0
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        for i in range(model.rowCount(parent)):
            count += 1
            stack.append(model.index(i, 0, parent))
    return count


def _expert(p: Page, r: Expert) -> None:
    photo = p.pane.photo(PHOTO, r.image_url, r.image2x_url, r.name or "")
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
    p.add(PhotoRow(photo, column, 14))
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


def _titled(kind: Kind) -> Callable[[Page, Topic | Role | Situation], None]:
    """The builder of a topic's, role's or situation's page (``kind``'s)."""
    name = kind.singular

    def build(p: Page, r: Topic | Role | Situation) -> None:
        p.title(r.title, f"{name.capitalize()} #{r.own_id}")
        p.subtitle(f"{name.capitalize()} #{r.own_id}")
        p.changes_banner()
        p.text("Description", r.description)
        webinars = p.referrer_links(kind, r.own_id, Kind.WEBINARS)
        p.links(f"Webinars ({len(webinars)})", webinars, "webinars", empty=f"No webinars carry this {name}.")
        if kind is Kind.TOPICS:
            courses = p.referrer_links(kind, r.own_id, Kind.COURSES)
            p.links(f"Courses ({len(courses)})", courses, "courses", empty="No courses carry this topic.")

    return build


# Each builder takes its kind's model (the page is filled with a record of its kind).
_BUILDERS: dict[Kind, Callable[[Page, Any], None]] = per_kind(
    webinars=_webinar,
    series=_series,
    courses=_course,
    certificates=_certificate,
    experts=_expert,
    titled=_titled,
)


def _ms(value: datetime | None) -> int | None:
    return None if value is None else int(value.timestamp() * 1000)
