"""DetailPane: every kind renders from the demo sample; links, safety, photos, long text."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QPoint, QRegularExpression, QSize, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTreeView,
    QWidget,
)

from catalogue_desktop.core.listing.rowset import CatalogueIndex
from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.detail import kind_pages
from catalogue_desktop.ui.detail import page as page_module
from catalogue_desktop.ui.detail.certificate_model import CertificateTreeModel
from catalogue_desktop.ui.detail.context import DetailContext
from catalogue_desktop.ui.detail.images import ImageCache, ImageLoader
from catalogue_desktop.ui.detail.layout import FormGrid, PageBox
from catalogue_desktop.ui.detail.page import ExpertCard
from catalogue_desktop.ui.detail.pane import DetailPane
from catalogue_desktop.ui.detail.photo import PhotoLabel
from catalogue_desktop.ui.detail.plain_labels import MAX_TEXT, TextLabel
from tests.faultserver import FaultServer
from tests.ui.conftest import loop_passes
from tests.ui.detail.test_images import png
from tests.ui.fixtures_components import *  # noqa: F403
from tests.ui.fixtures_components import DemoCatalogue

NOW = int(time.time() * 1000)


@pytest.fixture
def pane(qtbot: Any, en_formatter: Formatter) -> DetailPane:
    widget = DetailPane(en_formatter, None)
    qtbot.addWidget(widget)
    widget.resize(720, 900)
    widget.show()
    return widget


def ctx(demo: DemoCatalogue | None = None, changes: dict[str, Any] | None = None) -> DetailContext:
    index = demo.index if demo else CatalogueIndex({})
    titles = demo.course_title if demo else (lambda _id: None)
    return DetailContext(index, changes, titles, NOW)


def page(pane: DetailPane) -> QWidget:
    return pane.current_page()


def label(pane: DetailPane, name: str) -> QLabel:
    found = page(pane).findChild(QLabel, name)
    assert found is not None, f"no label {name!r}"
    return found


def all_text(pane: DetailPane) -> str:
    parts = [w.text() for w in page(pane).findChildren(QLabel)]
    parts += [w.toPlainText() for w in page(pane).findChildren(QPlainTextEdit)]
    return "\n".join(parts)


def show(
    pane: DetailPane, demo: DemoCatalogue, kind: Kind, record_id: int, changes: dict[str, Any] | None = None
) -> Any:
    record = demo.record(kind, record_id)
    pane.show_record(kind, record, ctx(demo, changes))
    return record


# -- every kind from the demo sample ----------------------------------------------------------


def test_webinar(qtbot: Any, pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.WEBINARS, 50007, {"id": 50007, "fields": {"fee": [199, 249]}})
    assert label(pane, "title").text() == r.title
    assert label(pane, "changes").text() == "Changed in last refresh: fee 199 → 249"
    assert label(pane, "value_fee").text() == "249"
    assert label(pane, "value_cle").text() == "Yes"
    assert "December 9, 2026" in label(pane, "value_start").text()
    assert "UTC" in label(pane, "value_start").text()
    assert label(pane, "text_description").text() == r.description
    assert "catalogue:topics/201" in label(pane, "links_topics").text()
    assert "catalogue:roles/" in label(pane, "links_roles").text()
    assert "catalogue:situations/" in label(pane, "links_situations").text()
    assert "catalogue:series/801" in label(pane, "links_series").text()
    assert 'href="https://catalogue.example.org/live/50007/join"' in label(pane, "access_url").text()
    names = [w.text() for w in page(pane).findChildren(QLabel, "expert_name")]
    assert len(names) == len(r.experts) and r.experts[0].name in names[0]
    bios = [w.text() for w in page(pane).findChildren(QLabel, "expert_bio")]
    assert r.experts[0].bio in bios
    assert len(page(pane).findChildren(PhotoLabel)) == len(r.experts)  # placeholders
    with qtbot.waitSignal(pane.link_activated) as blocker:
        label(pane, "links_topics").linkActivated.emit("catalogue:topics/201")
    assert blocker.args == [Kind.TOPICS, 201]
    with qtbot.waitSignal(pane.open_url) as blocker:
        label(pane, "access_url").linkActivated.emit("https://catalogue.example.org/live/50007/join")
    assert blocker.args == ["https://catalogue.example.org/live/50007/join"]
    assert pane.current == (Kind.WEBINARS, 50007)


def test_series_sessions_sorted_and_activatable(qtbot: Any, pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.SERIES, 801)
    assert label(pane, "title").text() == r.title
    assert label(pane, "value_fee").text() == "699"
    table = page(pane).findChild(QTableWidget, "sessions")
    assert table.rowCount() == len(r.sessions)
    ids = [table.item(i, 0).data(Qt.ItemDataRole.UserRole) for i in range(table.rowCount())]
    by_start = sorted(r.sessions, key=lambda s: s.start_date)
    assert ids == [s.webinar_id for s in by_start]
    assert table.item(0, 1).text() == by_start[0].title
    table.setFocus()
    table.setCurrentCell(1, 1)
    with qtbot.waitSignal(pane.link_activated) as blocker:
        qtbot.keyClick(table, Qt.Key.Key_Return)
    assert blocker.args == [Kind.WEBINARS, ids[1]]


def test_course(pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.COURSES, 6101)
    assert label(pane, "title").text() == r.title
    assert label(pane, "value_level").text() == f"Level {r.level}"
    assert label(pane, "text_curriculum").text() == r.curriculum
    for loc in r.locations:
        box = page(pane).findChild(QWidget, f"location_{loc.location_id}")
        assert box is not None
        texts = "\n".join(w.text() for w in box.findChildren(QLabel))
        assert loc.venue in texts and loc.city in texts and loc.zip in texts
        assert loc.travel_info in texts
    times = [w.text() for w in page(pane).findChildren(QLabel, "schedule_time")]
    assert len(times) == len(r.schedule)
    titles = [w.text() for w in page(pane).findChildren(QLabel, "schedule_title")]
    assert r.schedule[0].title in titles
    assert any(w.text().startswith("Day ") for w in page(pane).findChildren(QLabel, "schedule_day"))
    assert "catalogue:experts/" in label(pane, "expert_name").text()


def test_certificate_tree_and_dangling(qtbot: Any, pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.CERTIFICATES, 902)
    assert label(pane, "title").text() == r.title
    assert label(pane, "value_fee").text() == "1,899.50"  # decimals kept
    tree = page(pane).findChild(QTreeView, "levels")
    model = tree.model()
    assert isinstance(model, CertificateTreeModel)
    courses = []
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        for i in range(model.rowCount(parent)):
            index = model.index(i, 0, parent)
            assert tree.isExpanded(index) or not model.hasChildren(index)
            stack.append(index)
            if model.course_id(index) is not None:
                courses.append(index)
    dangling = [i for i in courses if not model.in_catalogue(i)]
    listed = [i for i in courses if model.in_catalogue(i)]
    # (its name; a narrow pane stacks its details after it: " — course #6090 · option 1")
    assert dangling and dangling[0].data().split(" — ")[0] == "Course #6090 (not in this catalogue)"
    with qtbot.waitSignal(pane.link_activated) as blocker:
        tree.activated.emit(listed[0])
    assert blocker.args == [Kind.COURSES, model.course_id(listed[0])]
    with qtbot.assertNotEmitted(pane.link_activated):
        tree.activated.emit(dangling[0])
    assert "6090" in label(pane, "certificate_problems").text()


def test_expert_appears_in(qtbot: Any, pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.EXPERTS, 3101)
    assert label(pane, "title").text() == r.name
    assert label(pane, "text_bio").text() == r.bio
    assert label(pane, "expert_education").text() == r.education
    webinars = demo.index.referrers(Kind.EXPERTS, 3101)[Kind.WEBINARS]
    text = label(pane, "links_webinars").text()
    assert all(f"catalogue:webinars/{w}" in text for w in webinars)
    assert "catalogue:courses/" in label(pane, "links_courses").text()
    assert page(pane).findChild(PhotoLabel, "photo") is not None


@pytest.mark.parametrize("kind", [Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS])
def test_titled_kinds(pane: DetailPane, demo: DemoCatalogue, kind: Kind) -> None:
    record_id = demo.first_id(kind)
    r = show(pane, demo, kind, record_id)
    assert label(pane, "title").text() == r.title
    assert label(pane, "text_description").text() == r.description
    webinars = demo.index.referrers(kind, record_id).get(Kind.WEBINARS, [])
    assert webinars
    assert f"catalogue:webinars/{webinars[0]}" in label(pane, "links_webinars").text()
    if kind is Kind.TOPICS:
        assert page(pane).findChild(QLabel, "links_courses") is not None


def test_every_demo_record_renders(pane: DetailPane, demo: DemoCatalogue) -> None:
    for kind in Kind:
        rowset = demo.rowsets[kind]
        for row in range(len(rowset)):
            record = demo.record(kind, rowset.record_id(row))
            pane.show_record(kind, record, ctx(demo))
            assert pane.current == (kind, rowset.record_id(row))
            assert label(pane, "title").text()


def test_clear_and_missing(pane: DetailPane) -> None:
    pane.clear("Nothing selected")
    assert pane.current is None
    assert pane.findChild(QLabel, "detail_message").text() == "Nothing selected"
    pane.show_record(Kind.WEBINARS, None, ctx())
    assert "not in the catalogue" in pane.findChild(QLabel, "detail_message").text()


# -- safety -----------------------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as s:
        yield s


def test_html_is_shown_literally_and_never_fetched(
    qtbot: Any, en_formatter: Formatter, server: FaultServer, tmp_path: Path, async_loop: Any
) -> None:
    server.set("/x.png", "json", body=png(10, 10), content_type="image/png")
    img = f'<img src="{server.url("/x.png")}">'
    images = ImageLoader(ImageCache(tmp_path / "img"))
    pane = DetailPane(en_formatter, images)
    qtbot.addWidget(pane)
    pane.show()
    webinar = models.Webinar.model_validate(
        {
            "webinarId": 1,
            "title": "<i>Title</i>",
            "description": f"<b>bold</b> {img}",
            "detailUrl": "javascript:alert(1)",
            "accessUrl": "file:///etc/passwd",
            "experts": [
                {
                    "expertId": 5,
                    "name": "<u>Ann</u>",
                    "bio": f"Bio {img}",
                    "imageUrl": "file:///etc/passwd",
                    "image2xUrl": "javascript:x",
                }
            ],
            "topics": [{"topicId": 9, "title": '<a href="javascript:alert(1)">evil</a>'}],
        }
    )
    pane.show_record(Kind.WEBINARS, webinar, ctx())
    description = label(pane, "text_description")
    assert description.textFormat() == Qt.TextFormat.PlainText
    assert description.text().startswith("<b>bold</b>")
    assert label(pane, "title").text() == "<i>Title</i>"
    assert label(pane, "title").textFormat() == Qt.TextFormat.PlainText
    bio = label(pane, "expert_bio")
    assert bio.textFormat() == Qt.TextFormat.PlainText and "<img" in bio.text()
    # links we build escape server text: no markup of the server survives as markup
    topics = label(pane, "links_topics").text()
    assert "&lt;a href=&quot;javascript:alert(1)&quot;&gt;evil&lt;/a&gt;" in topics
    assert '<a href="javascript' not in topics
    # javascript: and file: URLs are inert text, not links
    for name in ("detail_url", "access_url"):
        widget = label(pane, name)
        assert widget.textFormat() == Qt.TextFormat.PlainText
        assert "not a web address" in widget.text()
    with qtbot.assertNotEmitted(pane.open_url), qtbot.assertNotEmitted(pane.link_activated):
        pane.activate_href("javascript:alert(1)")
        pane.activate_href("file:///etc/passwd")
    loop_passes(qtbot)  # a (wrong) fetch would have started: counted by images.network_requests
    assert server.requests == []
    assert images.network_requests == 0
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done)


def test_long_text_is_capped(pane: DetailPane) -> None:
    huge = "word " * 220_000  # 1.1 MB
    topic = models.Topic.model_validate({"topicId": 1, "title": "Big", "description": huge})
    pane.show_record(Kind.TOPICS, topic, ctx())
    box = page(pane).findChild(QPlainTextEdit, "text_description")
    assert box is not None and box.isReadOnly()
    assert MAX_TEXT <= len(box.toPlainText()) < MAX_TEXT + 200
    assert "truncated" in box.toPlainText()


def test_unknown_fields_are_shown(pane: DetailPane) -> None:
    webinar = models.Webinar.model_validate(
        {"webinarId": 1, "title": "T", "language": "fr", "ratings": {"stars": 4}}
    )
    pane.show_record(Kind.WEBINARS, webinar, ctx())
    assert label(pane, "section_other_fields").text() == "Other fields"
    assert label(pane, "value_extra_language").text() == "fr"
    assert label(pane, "value_extra_ratings").text() == '{"stars": 4}'


def test_added_banner_and_blank_values(pane: DetailPane) -> None:
    webinar = models.Webinar.model_validate({"webinarId": 1})
    pane.show_record(Kind.WEBINARS, webinar, ctx(changes={"added": True}))
    assert label(pane, "changes").text() == "New in last refresh"
    assert label(pane, "title").text() == "Webinar #1"
    assert label(pane, "value_fee").text() == "—"
    assert label(pane, "value_start").text() == "—"


# -- photos -----------------------------------------------------------------------------------


def test_photo_from_disk_cache_is_synchronous(
    qtbot: Any, en_formatter: Formatter, tmp_path: Path, async_loop: Any
) -> None:
    url = "https://images.example.org/experts/1.jpg"
    cache = ImageCache(tmp_path / "img")
    cache.put(url, png(200, 200))

    async def no_network(_url: str, _max: int) -> bytes:
        raise AssertionError("no network expected")

    images = ImageLoader(cache, fetch=no_network)
    pane = DetailPane(en_formatter, images)
    qtbot.addWidget(pane)
    pane.show()
    expert = models.Expert.model_validate({"expertId": 1, "name": "Ann Example", "imageUrl": url})
    pane.show_record(Kind.EXPERTS, expert, ctx())
    photo = page(pane).findChild(PhotoLabel, "photo")
    assert photo.has_photo  # shown before returning: no await (time measured in bench/run.py)
    assert images.network_requests == 0


def test_photo_loads_later_or_keeps_placeholder(
    qtbot: Any, en_formatter: Formatter, tmp_path: Path, server: FaultServer, async_loop: Any
) -> None:
    server.set("/a.png", "json", body=png(150, 150), content_type="image/png")
    server.set("/missing.png", "status", status=404)
    images = ImageLoader(ImageCache(tmp_path / "img"))
    pane = DetailPane(en_formatter, images)
    qtbot.addWidget(pane)
    pane.show()
    webinar = models.Webinar.model_validate(
        {
            "webinarId": 1,
            "title": "T",
            "experts": [
                {"expertId": 1, "name": "A", "imageUrl": server.url("/a.png")},
                {"expertId": 2, "name": "B", "imageUrl": server.url("/missing.png")},
                {"expertId": 3, "name": "C"},
            ],
        }
    )
    pane.show_record(Kind.WEBINARS, webinar, ctx())
    photos = page(pane).findChildren(PhotoLabel)
    assert len(photos) == 3 and not any(p.has_photo for p in photos)
    qtbot.waitUntil(lambda: photos[0].has_photo and photos[1].failure is not None, timeout=5000)
    assert not photos[1].has_photo and "404" in photos[1].failure
    assert not photos[2].has_photo and photos[2].failure == "no image"
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done)


def test_loop_fixture_runs_the_loop(async_loop: asyncio.AbstractEventLoop) -> None:
    assert asyncio.get_running_loop() is async_loop


# -- one page per kind, filled again in place ----------------------------------------------------

RICH = {  # every block, a long description (a text box), unknown fields, an inert and a web URL
    "webinarId": 1,
    "title": "Rich webinar",
    "description": "long words " * 700,
    "detailUrl": "javascript:alert(1)",
    "accessUrl": "https://example.org/live/1",
    "fee": 199,
    "startDate": "2020-01-01T10:00:00Z",
    "language": "fr",
    "ratings": {"stars": 4},
    "topics": [{"topicId": 201, "title": "Ethics"}],
    "roles": [{"roleId": 99999, "title": "Nobody"}],
    "experts": [
        {
            "expertId": 3101,
            "name": "Ann Listed",
            "title": "Partner",
            "education": "J.D.",
            "bio": "Short bio.",
            "imageUrl": "https://images.example.org/a.jpg",
        },
        {"expertId": 99998, "name": "Bo Unlisted", "bio": "bio " * 2000},
        {"expertId": 99997, "name": "Cy Third", "education": "B.A."},
    ],
}
SPARSE = {  # almost nothing: no title, description, URLs or topics; one bare expert; other extras
    "webinarId": 2,
    "experts": [{"expertId": 99996}],
    "level": "advanced",
}


def rendering(pane: DetailPane) -> tuple[list[str], list[tuple[Any, ...]]]:
    """What the page holds (every widget, hidden or not: class, name, text, format, font, colour,
    photo) and what it shows, top to bottom, with geometry; the layout is done first."""
    QApplication.processEvents()
    content = page(pane)
    held, shown = [], []
    for w in content.findChildren(QWidget):
        cls = next(c for c in type(w).__mro__ if c.__module__ != __name__)  # not this file's stand-ins
        facts: list[Any] = [cls.__name__, w.objectName(), w.toolTip()]
        if isinstance(w, QLabel):
            facts += [
                w.text(),
                w.textFormat(),
                w.property("inert"),
                w.font().bold(),
                w.font().italic(),
                w.font().pointSizeF(),
                w.palette().color(QPalette.ColorRole.WindowText).name(),
                w.textInteractionFlags(),
                w.wordWrap(),
            ]
        if isinstance(w, QPlainTextEdit):
            facts += [w.toPlainText(), w.isReadOnly()]
        if isinstance(w, PhotoLabel):
            image = w.pixmap().toImage()
            facts += [w.has_photo, w.url, w.failure, hashlib.sha1(bytes(image.constBits())).hexdigest()]
        held.append(repr(facts))
        if w.isVisibleTo(content):
            at = w.mapTo(content, QPoint(0, 0))
            shown.append((at.y(), at.x(), w.width(), w.height(), repr(facts)))
    return sorted(held), sorted(shown)


@pytest.fixture
def fresh_pane(qtbot: Any, en_formatter: Formatter) -> Callable[[], DetailPane]:
    """Makes a new pane like ``pane``: what a page looks like when built from nothing. Each is a
    child of one window shown once for the test, not a window of its own (issue 37: showing a
    new window per page compared was ~10% of this file's CPU time); a page's layout and what it
    shows are the same (the tests compare them with ``pane``'s, a window)."""

    host = QWidget()
    qtbot.addWidget(host)
    host.resize(720, 900)
    host.show()

    def make() -> DetailPane:
        widget = DetailPane(en_formatter, None)
        widget.setParent(host)
        widget.resize(720, 900)
        widget.show()
        return widget

    return make


def test_switching_records_shows_exactly_what_a_fresh_page_shows(
    pane: DetailPane, fresh_pane: Callable[[], DetailPane], demo: DemoCatalogue
) -> None:
    rich, sparse = models.Webinar.model_validate(RICH), models.Webinar.model_validate(SPARSE)
    steps: list[tuple[Any, dict[str, Any] | None]] = [
        (rich, {"added": True}),
        (sparse, None),
        (demo.record(Kind.WEBINARS, 50007), {"id": 50007, "fields": {"fee": [199, 249]}}),
        (demo.record(Kind.WEBINARS, 50014), None),
        (sparse, None),
        (rich, None),
        (rich, None),
    ]
    content = None
    for record, changes in steps:
        pane.show_record(Kind.WEBINARS, record, ctx(demo, changes))
        fresh = fresh_pane()
        fresh.show_record(Kind.WEBINARS, record, ctx(demo, changes))
        assert rendering(pane) == rendering(fresh), record.webinar_id
        content = content or page(pane)
        assert page(pane) is content  # the same page, filled again
        fresh.close()


def test_a_reused_page_keeps_nothing_of_the_record_before(pane: DetailPane, demo: DemoCatalogue) -> None:
    rich, sparse = models.Webinar.model_validate(RICH), models.Webinar.model_validate(SPARSE)
    pane.show_record(Kind.WEBINARS, rich, ctx(demo, {"added": True}))
    title = label(pane, "title")
    assert len(page(pane).findChildren(PhotoLabel)) == 3
    assert page(pane).findChild(QPlainTextEdit, "text_description") is not None
    pane.show_record(Kind.WEBINARS, sparse, ctx(demo))
    assert label(pane, "title") is title and title.text() == "Webinar #2"  # reused, refilled
    text = all_text(pane)
    for old in (
        "Rich",
        "long words",
        "Ann",
        "Bo ",
        "Cy ",
        "Partner",
        "J.D.",
        "Ethics",
        "Nobody",
        "example.org",
        "fr",
        "stars",
        "New in last refresh",
        "199",
    ):
        assert old not in text, old
    for gone in (
        "changes",
        "section_description",
        "section_topics",
        "links_roles",
        "value_extra_language",
        "detail_url",
        "access_url",
        "expert_title",
        "expert_education",
        "expert_bio",
    ):
        assert page(pane).findChild(QWidget, gone) is None, gone
    assert page(pane).findChild(QPlainTextEdit) is None
    assert [w.objectName() for w in page(pane).findChildren(QFrame, QRegularExpression("^expert_\\d+$"))] == [
        "expert_99996"
    ]
    photos = page(pane).findChildren(PhotoLabel)
    assert len(photos) == 1 and photos[0].failure == "no image" and photos[0].url is None
    assert label(pane, "value_extra_level").text() == "advanced"
    assert label(pane, "value_details").text() == "—" and label(pane, "value_access").text() == "—"
    assert label(pane, "expert_name").text() == "Expert #99996"
    pane.show_record(Kind.WEBINARS, rich, ctx(demo))
    assert label(pane, "detail_url").property("inert") is True
    assert label(pane, "access_url").textFormat() == Qt.TextFormat.RichText
    assert "catalogue:experts/3101" in page(pane).findChildren(QLabel, "expert_name")[0].text()
    assert page(pane).findChildren(QLabel, "expert_name")[1].textFormat() == Qt.TextFormat.PlainText


def test_a_photo_arriving_late_never_lands_on_the_next_record(
    qtbot: Any, en_formatter: Formatter, tmp_path: Path, async_loop: Any, demo: DemoCatalogue
) -> None:
    release = asyncio.Event()

    async def slow(_url: str, _max: int) -> bytes:
        await release.wait()
        return png(120, 120)

    images = ImageLoader(ImageCache(tmp_path / "img"), fetch=slow)
    pane = DetailPane(en_formatter, images)
    qtbot.addWidget(pane)
    pane.show()
    first = models.Webinar.model_validate(RICH)
    pane.show_record(Kind.WEBINARS, first, ctx(demo))
    card_photo = page(pane).findChildren(PhotoLabel)[0]
    assert card_photo.url == "https://images.example.org/a.jpg" and images.is_pending(card_photo.url)
    pane.show_record(Kind.WEBINARS, models.Webinar.model_validate(SPARSE), ctx(demo))
    assert page(pane).findChildren(PhotoLabel) == [card_photo]  # the card's photo label, reused
    with qtbot.waitSignal(images.loaded, timeout=5000):
        release.set()
    assert not card_photo.has_photo and card_photo.failure == "no image"
    pane.show_record(Kind.WEBINARS, first, ctx(demo))  # now in the cache: shown at once
    assert card_photo.has_photo and card_photo.failure is None and not card_photo.toolTip()
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done)


class _Broken:
    """A webinar whose experts cannot be read: the page fails half-way through."""

    def __init__(self, record: Any) -> None:
        self._record = record

    def __getattr__(self, name: str) -> Any:
        if name == "experts":
            raise RuntimeError("broken record")
        return getattr(self._record, name)


def test_a_page_that_failed_half_way_is_replaced_and_then_fills_normally(
    pane: DetailPane, fresh_pane: Callable[[], DetailPane], demo: DemoCatalogue
) -> None:
    rich = models.Webinar.model_validate(RICH)
    pane.show_record(Kind.WEBINARS, rich, ctx(demo))
    with pytest.raises(RuntimeError, match="broken record"):
        pane.show_record(Kind.WEBINARS, _Broken(demo.record(Kind.WEBINARS, 50007)), ctx(demo))
    assert pane.current is None
    assert "could not be shown" in pane.findChild(QLabel, "detail_message").text()
    record = demo.record(Kind.WEBINARS, 50014)
    pane.show_record(Kind.WEBINARS, record, ctx(demo))
    fresh = fresh_pane()
    fresh.show_record(Kind.WEBINARS, record, ctx(demo))
    assert rendering(pane) == rendering(fresh)


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_refilled_matches_a_fresh_page(
    pane: DetailPane, fresh_pane: Callable[[], DetailPane], demo: DemoCatalogue, kind: Kind
) -> None:
    rowset = demo.rowsets[kind]
    ids = [rowset.record_id(row) for row in range(len(rowset))][:6]
    for record_id in [*ids, ids[0]]:
        record = demo.record(kind, record_id)
        pane.show_record(kind, record, ctx(demo))
        fresh = fresh_pane()
        fresh.show_record(kind, record, ctx(demo))
        assert rendering(pane) == rendering(fresh), (kind, record_id)
        fresh.close()


class _QtHintBox(PageBox):
    def sizeHint(self) -> QSize:  # QWidget::sizeHint of a widget with a layout
        return self.layout().totalSizeHint()


class _QtHintGrid(FormGrid):
    def sizeHint(self) -> QSize:
        return self.layout().totalSizeHint()


class _QtHintCard(ExpertCard):
    def sizeHint(self) -> QSize:
        return self.layout().totalSizeHint()


@pytest.mark.parametrize("kind", list(Kind))
def test_container_size_hints_leave_the_layout_as_it_was(
    fresh_pane: Callable[[], DetailPane],
    demo: DemoCatalogue,
    kind: Kind,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """WrapBox skips the height-for-width pass of ``QWidget.sizeHint``: pages look the same."""
    rowset = demo.rowsets[kind]
    records = [demo.record(kind, rowset.record_id(row)) for row in range(min(4, len(rowset)))]
    records.append(models.Webinar.model_validate(RICH) if kind is Kind.WEBINARS else records[0])
    cheap, full = fresh_pane(), fresh_pane()
    for record in records:
        cheap.show_record(kind, record, ctx(demo))
        with monkeypatch.context() as patch:
            patch.setattr(page_module, "PageBox", _QtHintBox)
            patch.setattr(page_module, "FormGrid", _QtHintGrid)
            patch.setattr(kind_pages, "FormGrid", _QtHintGrid)
            patch.setattr(page_module, "ExpertCard", _QtHintCard)
            full.show_record(kind, record, ctx(demo))
        assert rendering(cheap) == rendering(full)
    assert type(page(full)) is _QtHintBox and type(page(cheap)) is PageBox


@pytest.mark.parametrize("width", [720, 420])
@pytest.mark.parametrize("kind", [Kind.WEBINARS, Kind.COURSES, Kind.SERIES, Kind.EXPERTS])
def test_a_page_ends_where_its_content_ends(
    pane: DetailPane, demo: DemoCatalogue, kind: Kind, width: int
) -> None:
    """Scrolled to the bottom, the last widget ends at the page's bottom margin: no blank screen
    below it (the scroll area once took the labels' narrow minimum heights: ~600 px of nothing)."""
    pane.resize(width, 500)
    rowset = demo.rowsets[kind]
    for row in range(min(5, len(rowset))):
        pane.show_record(kind, demo.record(kind, rowset.record_id(row)), ctx(demo))
        QApplication.processEvents()
        content = page(pane)
        shown = [w for w in content.findChildren(QWidget) if w.parent() is content and w.isVisible()]
        bottom = max(w.geometry().bottom() + 1 for w in shown)
        margin = content.layout().contentsMargins().bottom()
        viewport = content.parentWidget()
        expected = max(bottom + margin, viewport.height())
        assert abs(content.height() - expected) <= 8, (kind, row, content.height(), expected)
        for w in content.findChildren(QLabel):  # and nothing squeezed to get there
            if w.isVisible() and w.wordWrap() and w.text():
                assert w.height() >= w.heightForWidth(w.width()), (kind, row, w.objectName())


@pytest.mark.parametrize(("kind", "record_id"), [(Kind.WEBINARS, 50007), (Kind.EXPERTS, 3101)])
def test_wrapped_text_is_never_cut_in_a_narrow_pane(
    pane: DetailPane, demo: DemoCatalogue, kind: Kind, record_id: int
) -> None:
    """At the pane's 280 px minimum every wrapped label is at least as tall as its text needs
    there (a fixed height took QLabel's size hint, made for a wider line: bios were cut off)."""
    pane.resize(280, 600)
    show(pane, demo, kind, record_id)
    QApplication.processEvents()
    labels = [w for w in page(pane).findChildren(QLabel) if w.isVisible() and w.wordWrap() and w.text()]
    assert len(labels) > 3
    for w in labels:
        assert w.height() >= w.heightForWidth(w.width()), (w.objectName(), w.text()[:60])


@pytest.mark.parametrize("width", [720, 280])
@pytest.mark.parametrize("kind", [Kind.WEBINARS, Kind.COURSES, Kind.EXPERTS])
def test_remembered_label_heights_leave_the_layout_as_it_was(
    fresh_pane: Callable[[], DetailPane],
    demo: DemoCatalogue,
    kind: Kind,
    width: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TextLabel remembers QLabel's heights for width: pages look as with QLabel's own, refilled."""
    rowset = demo.rowsets[kind]
    records = [demo.record(kind, rowset.record_id(row)) for row in range(min(4, len(rowset)))]
    if kind is Kind.WEBINARS:
        records += [models.Webinar.model_validate(RICH), models.Webinar.model_validate(SPARSE)]
    remembered, computed = fresh_pane(), fresh_pane()
    for pane in (remembered, computed):
        pane.resize(width, 700)
    for record in [*records, records[0]]:
        remembered.show_record(kind, record, ctx(demo))
        with monkeypatch.context() as patch:
            patch.setattr(TextLabel, "heightForWidth", QLabel.heightForWidth)
            computed.show_record(kind, record, ctx(demo))
            expected = rendering(computed)
        assert rendering(remembered) == expected
