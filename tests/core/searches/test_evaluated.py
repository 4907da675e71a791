"""Watched searches' news worked out on tables already built (the window's way, a search per
step, compared as bitsets) say the same as the command line's (``core.searches.news``): real syncs
over loopback through two versions of the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.searches import news
from catalogue_desktop.core.searches.evaluated import news_in, news_steps
from catalogue_desktop.core.searches.stored import load, local_now
from catalogue_desktop.demo.server import DemoServer
from tests.core.cache.test_history import serve, sync


def test_news_on_built_tables_agree_with_the_command_line(
    demo_server: DemoServer, sample: dict[Kind, bytes], tmp_path: Path
) -> None:
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    queries = {
        "chicago": ("city:chicago", "courses"),
        "cheap": ("fee:<700", None),
        "ethics": ("ethics", "webinars"),
        "dearer lately": ("changed:fee@last7d", "courses"),
        "broken": ("fee:<", None),
    }
    with Store(store_file) as store:
        for name, (query, kind) in queries.items():
            if name != "broken":
                news.watch(store, name, query, kind, "2026-11-20T00:00:00Z")
    courses = json.loads(sample[Kind.COURSES])
    chicago = [c for c in courses if any(loc.get("city") == "Chicago" for loc in c["locations"])]
    for loc in chicago[0]["locations"]:
        loc["fee"] += 50
    for loc in chicago[1]["locations"]:
        loc["city"] = "Dallas"
    courses.remove(chicago[2])
    courses.append(dict(json.loads(json.dumps(chicago[0])), courseId=99700, title="New in Chicago"))
    courses[3]["locations"][0]["fee"] = 450
    serve(demo_server, Kind.COURSES, courses)
    webinars = json.loads(sample[Kind.WEBINARS])
    webinars.pop(0)
    serve(demo_server, Kind.WEBINARS, webinars)
    assert sync(demo_server.base_url, store_file).ok

    with Store(store_file) as store:
        searches = store.searches.all()
        now = local_now()
        want = news.news(store, searches, now)
        finder = load(store, ALL_KINDS).finder
        got = news_in(finder, store, searches, now)
        assert [g.to_json() for g in got] == [w.to_json() for w in want]
        assert [g.matches for g in got] == [w.matches for w in want]
        by_name = {g.search.name: g for g in got}
        assert by_name["chicago"].new == {"courses": [99700]}
        assert by_name["chicago"].changed == {"courses": [chicago[0]["courseId"]]}
        assert sorted(by_name["chicago"].gone["courses"]) == sorted(
            [chicago[1]["courseId"], chicago[2]["courseId"]]
        )
        assert by_name["dearer lately"].new  # the history itself is news for a time clause
        assert sum(item.count for item in got) > 3
        out: list[news.News] = []
        assert sum(1 for _ in news_steps(finder, store, searches, now, out)) == len(got)  # a step each


def test_a_saved_search_of_plain_words_is_read_as_the_window_reads_it(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    from catalogue_desktop.core.cache.saved_searches import SavedSearch
    from catalogue_desktop.core.searches.evaluated import matches_in

    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as store:
        saved = news.watch(store, "illinois", "illinois cpe courses", None, "2026-11-20T00:00:00Z")
        assert saved.query == "state:IL cpe:yes kind:courses"  # saved as what it reads as
        old = SavedSearch("old", "illinois cpe", "courses")  # saved before the words were read
        now = local_now()
        finder = load(store, ALL_KINDS).finder
        formal = SavedSearch("formal", "state:IL cpe:yes", "courses")
        want = matches_in(finder, formal, now)
        assert want["courses"]  # the demo has CPE courses in Illinois
        assert matches_in(finder, old, now) == want
        assert news.matches(store, [old], now) == [want]
        assert saved.baseline == want
