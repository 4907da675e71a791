"""DetailPane: every kind renders from the demo sample; links, safety, photos, long text."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTableWidget, QTreeView, QWidget

from catalogue_desktop.core import models
from catalogue_desktop.core.catalogue import CatalogueIndex
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.ui.certificate_model import CertificateTreeModel
from catalogue_desktop.ui.detail import DetailContext, DetailPane
from catalogue_desktop.ui.formatting import Formatter
from catalogue_desktop.ui.images import ImageCache, ImageLoader
from catalogue_desktop.ui.widgets import MAX_TEXT, PhotoLabel
from tests.faultserver import FaultServer
from tests.ui.fixtures_components import *  # noqa: F403
from tests.ui.fixtures_components import DemoCatalogue
from tests.ui.test_images import png

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


def show(pane: DetailPane, demo: DemoCatalogue, kind: Kind, record_id: int,
         changes: dict[str, Any] | None = None) -> Any:
    record = demo.record(kind, record_id)
    pane.show_record(kind, record, ctx(demo, changes))
    return record


# -- every kind from the demo sample ----------------------------------------------------------


def test_webinar(qtbot: Any, pane: DetailPane, demo: DemoCatalogue) -> None:
    r = show(pane, demo, Kind.WEBINARS, 50007, {"id": 50007, "fields": {"fee": [199, 249]}})
    assert label(pane, "title").text() == r.title
    assert label(pane, "changes").text() == "Changed in last refresh: fee 199 -> 249"
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
    assert label(pane, "value_level").text() == str(r.level)
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
    assert dangling and dangling[0].data() == "Course #6090 (not in catalogue)"
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
    slowest = 0.0
    for kind in Kind:
        rowset = demo.rowsets[kind]
        for row in range(len(rowset)):
            record = demo.record(kind, rowset.record_id(row))
            started = time.perf_counter()
            pane.show_record(kind, record, ctx(demo))
            slowest = max(slowest, time.perf_counter() - started)
            assert label(pane, "title").text()
    assert slowest < 1.0, slowest


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
    webinar = models.Webinar.model_validate({
        "webinarId": 1, "title": "<i>Title</i>", "description": f"<b>bold</b> {img}",
        "detailUrl": "javascript:alert(1)", "accessUrl": "file:///etc/passwd",
        "experts": [{"expertId": 5, "name": "<u>Ann</u>", "bio": f"Bio {img}",
                     "imageUrl": "file:///etc/passwd", "image2xUrl": "javascript:x"}],
        "topics": [{"topicId": 9, "title": '<a href="javascript:alert(1)">evil</a>'}],
    })
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
    assert "<a href=\"javascript" not in topics
    # javascript: and file: URLs are inert text, not links
    for name in ("detail_url", "access_url"):
        widget = label(pane, name)
        assert widget.textFormat() == Qt.TextFormat.PlainText
        assert "not a web address" in widget.text()
    with qtbot.assertNotEmitted(pane.open_url), qtbot.assertNotEmitted(pane.link_activated):
        pane.activate_href("javascript:alert(1)")
        pane.activate_href("file:///etc/passwd")
    qtbot.wait(300)  # give any (wrong) fetch time to reach the server
    assert server.requests == []
    assert images.network_requests == 0
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done)


def test_long_text_is_capped(pane: DetailPane) -> None:
    huge = "word " * 220_000  # 1.1 MB
    topic = models.Topic.model_validate({"topicId": 1, "title": "Big", "description": huge})
    started = time.perf_counter()
    pane.show_record(Kind.TOPICS, topic, ctx())
    elapsed = time.perf_counter() - started
    box = page(pane).findChild(QPlainTextEdit, "text_description")
    assert box is not None and box.isReadOnly()
    assert MAX_TEXT <= len(box.toPlainText()) < MAX_TEXT + 200
    assert "truncated" in box.toPlainText()
    assert elapsed < 2.0, elapsed


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


def test_photo_from_disk_cache_is_synchronous(qtbot: Any, en_formatter: Formatter, tmp_path: Path,
                                              async_loop: Any) -> None:
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
    webinar = models.Webinar.model_validate({"webinarId": 1, "title": "T", "experts": [
        {"expertId": 1, "name": "A", "imageUrl": server.url("/a.png")},
        {"expertId": 2, "name": "B", "imageUrl": server.url("/missing.png")},
        {"expertId": 3, "name": "C"},
    ]})
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
