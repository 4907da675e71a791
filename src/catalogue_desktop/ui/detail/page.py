"""A detail page: one :class:`Page` per kind, filled again in place for each record shown.

A kind's builder (``kind_pages``) describes the page of one record through the ``Page`` helpers (title,
form, text sections, link lists, expert cards). The helpers keep their widgets from one record to
the next (see ``layout.Slots``): showing another record sets texts and photos instead of building,
polishing and laying out a new widget tree. Rarer, richer blocks (a series' sessions table, a
certificate's tree, a course's locations) are built fresh with :meth:`Page.add`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.detail.history_section import changes_in_words, fill_history
from catalogue_desktop.ui.detail.layout import FormGrid, PageBox, Slots, W, settle, wrap_size_hint
from catalogue_desktop.ui.detail.page_links import Link, internal_href, link_label, set_links
from catalogue_desktop.ui.detail.photo import PhotoLabel
from catalogue_desktop.ui.detail.plain_labels import (
    BLANK,
    fill_text,
    heading,
    muted,
    new_text_widget,
    plain_label,
    set_plain_text,
    text_variant,
)

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from catalogue_desktop.core.records.models import Expert, Record
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.detail.context import DetailContext


class PageHost(Protocol):
    """What a page needs of the pane it is shown in (``pane.DetailPane``)."""

    formatter: Formatter
    link_activated: SignalInstance  # (Kind, record id)

    def activate_href(self, href: str) -> None: ...

    def photo(
        self, size: int, image_url: str | None, image2x_url: str | None = None, placeholder_text: str = ""
    ) -> PhotoLabel: ...

    def load_photo(
        self,
        label: PhotoLabel,
        image_url: str | None,
        image2x_url: str | None = None,
        placeholder_text: str = "",
    ) -> None: ...


PHOTO = 96
SMALL_PHOTO = 72
_BANNER_STYLE = (
    "QLabel#changes { background: #fff4d6; color: #5c4300; border: 1px solid #e8c872;"
    " border-radius: 4px; padding: 4px 8px; }"
)


class Page:
    """One kind's content widget: a vertical list of sections, filled for one record at a time."""

    def __init__(self, pane: PageHost, kind: Kind, build: Callable[[Page, Any], None]) -> None:
        self.pane = pane
        self._build = build  # the kind's builder: asks for the page's widgets, in order
        self.fmt = pane.formatter
        self.kind = kind
        self.record: Record  # set by fill(), as ctx
        self.ctx: DetailContext
        self.widget = PageBox()
        self.widget.setObjectName(f"detail_{kind.value}")
        self.layout = QVBoxLayout(self.widget)
        self.layout.setContentsMargins(16, 14, 16, 16)
        self.layout.setSpacing(8)
        self.slots = Slots(self.layout, stretch=True)
        self._grids: list[FormGrid] = []  # the kept form grids filled by this fill
        self._cards: list[ExpertCard] = []  # and the kept expert cards

    def fill(self, record: Record, context: DetailContext) -> None:
        """Show ``record``: the kind's builder asks for its widgets, the rest are removed."""
        self.record, self.ctx = record, context
        self.slots.begin()
        self._grids, self._cards = [], []
        self._build(self, record)
        fill_history(self)
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
            text = f"Changed in last refresh: {changes_in_words(fields, self.record, self.fmt.locale)}"
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

    def links(
        self, heading_text: str, links: list[Link], slug: str | None = None, empty: str | None = None
    ) -> None:
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
        return Link(shown, None, "(not in this catalogue)")

    def referrer_links(self, target: Kind, record_id: int, source: Kind) -> list[Link]:
        ids = self.ctx.index.referrers(target, record_id).get(source, [])
        links = [self.record_link(source, i, None) for i in ids]
        return sorted(links, key=lambda link: link.text.casefold())

    def other_fields(self) -> None:
        extra = self.record.model_extra or {}  # (a pydantic model: the fields it did not know)
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

    def date_text(self, value: object) -> str:
        return self.fmt.date_long(value) or BLANK

    def expert_cards(self, experts: Iterable[Expert] | None, heading_text: str = "Experts") -> None:
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

    def __init__(self, pane: PageHost) -> None:
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

    def fill(self, expert: Expert, context: DetailContext) -> None:
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

    def sizeHint(self) -> QSize:  # see layout.WrapBox
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


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
