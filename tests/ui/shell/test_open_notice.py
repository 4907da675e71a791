"""``--open KIND:ID`` on the demo catalogue, as README shows it: a real id is selected; an id that
is not there gets a lasting notice in the window (not a status-bar message that goes away)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.paths import resource_path

README = Path(__file__).resolve().parents[3] / "README.md"
W = Kind.WEBINARS


def demo_ids() -> list[int]:
    return [w["webinarId"] for w in json.loads(resource_path("demo", "webinars.json").read_bytes())]


def test_readme_s_open_example_names_a_real_demo_webinar() -> None:
    examples = re.findall(r"--open webinar:(\d+)", README.read_text(encoding="utf-8"))
    assert examples and all(int(e) in demo_ids() for e in examples), examples


def test_readme_s_example_selects_its_webinar_on_the_demo_catalogue(make_session: Any) -> None:
    [example] = set(re.findall(r"--open (webinar:\d+)", README.read_text(encoding="utf-8")))
    session = make_session(open=example)  # no service: the demo catalogue
    assert session.demo
    tab = session.window.tab(W)
    assert session.window.current_tab() is tab
    assert tab.selected_record_id() == int(example.split(":")[1])
    assert session.window.status.notice() == ""


def test_an_id_that_is_not_there_gets_a_lasting_notice(make_session: Any, qtbot: Any) -> None:
    session = make_session(open="webinar:7001", wait="ready")  # a first run: nothing cached
    status = session.window.status
    assert status.notice() == (
        "Webinar #7001 is not in the cached demo catalogue: looking for it again once the refresh is done."
    )
    with qtbot.waitSignal(session.synced, timeout=20000):
        pass
    ids = demo_ids()
    final = (
        "Webinar #7001 is not in the demo catalogue: nothing was selected. Its 60 webinars have "
        f"ids {min(ids)} to {max(ids)} (for example --open webinar:{ids[0]})."
    )
    assert status.notice() == final
    assert status.message.isVisible() and status.dismiss.isVisible()
    assert session.window.tab(W).selected_record_id() is None
    session.window.show_message("something else", 1)  # the status bar moves on; the notice stays
    qtbot.waitUntil(lambda: session.window.statusBar().currentMessage() == "", timeout=5000)
    assert status.notice() == final
    status.dismiss.click()
    assert status.notice() == ""


def test_a_record_the_refresh_brings_is_selected_and_the_wait_notice_goes(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    session = make_session(base_url=demo_server.base_url, open="series:802", wait="ready")
    assert "is not in the cached catalogue: looking for it again" in session.window.status.notice()
    with qtbot.waitSignal(session.synced, timeout=20000):
        pass
    assert session.window.tab(Kind.SERIES).selected_record_id() == 802
    assert session.window.status.notice() == ""


def test_offline_an_id_that_is_not_cached_is_final_at_once(make_session: Any, filled_cache: Path) -> None:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, open="course:1", wait="ready")
    assert session.window.status.notice().startswith(
        "Course #1 is not in the catalogue: nothing was selected. Its 20 courses have ids "
    )
