"""The detail pane's History section in the real window: a catalogue synced through several
versions over loopback (a course's fee changed twice, a location added), the record opened."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.ui.detail.history_section import FeeChart


def sync(base_url: str, store_file: Path) -> None:
    async def main() -> None:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            report = await sync_catalogue(client, store_file)
            assert report.ok

    with ThreadPoolExecutor(1) as pool:  # (the window tests' loop runs on this thread)
        pool.submit(asyncio.run, main()).result()


def test_a_course_whose_fee_changed_twice_shows_its_history_and_a_fee_chart(
    make_session: Any, demo_server: Any, sample: dict[Kind, bytes], cache_dir: Path, qtbot: Any
) -> None:
    store_file = cache_dir / FILE_NAME
    sync(demo_server.base_url, store_file)
    courses = json.loads(sample[Kind.COURSES])
    course = courses[0]
    location = course["locations"][0]
    fee = location["fee"]
    for step in (100, 250):
        location["fee"] = fee + step
        if step == 250:
            course["locations"].append(dict(location, locationId=99001, city="Denver"))
        demo_server.set_payload(Kind.COURSES, json.dumps(courses).encode())
        sync(demo_server.base_url, store_file)

    session = make_session(base_url=demo_server.base_url, open=f"course:{course['courseId']}")
    window = session.window
    tab = window.tab(Kind.COURSES)
    assert tab.detail.current == (Kind.COURSES, course["courseId"])
    page = tab.detail.current_page()
    qtbot.waitUntil(lambda: page.findChild(QLabel, "history_lines") is not None, timeout=5000)
    lines = page.findChild(QLabel, "history_lines").text().splitlines()
    assert f"fee {fee + 100:,} → {fee + 250:,} ({location['city']}, " in lines[0]  # newest first
    assert any("location added: Denver" in line for line in lines)
    assert any(f"fee {fee:,} → {fee + 100:,}" in line for line in lines)
    chart = page.findChild(FeeChart, "fee_chart")
    assert chart is not None and chart.isVisible() and chart.height() >= 100
    assert f"{fee + 250:,}" in chart.toolTip() and "before" in chart.toolTip()
    assert "History" in [w.text() for w in page.findChildren(QLabel)]

    # another record, never changed: no History section (nothing to say)
    qtbot.keyClick(tab.view, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: tab.detail.current != (Kind.COURSES, course["courseId"]), timeout=3000)
    other = tab.detail.current_page()
    history = other.findChild(QLabel, "history_lines")
    assert history is None or not history.isVisible()
