"""The bundled sample catalogue and the demo HTTP server (real sockets, stdlib clients)."""

from __future__ import annotations

import _thread
import email.utils
import gzip
import http.client
import json
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from decimal import Decimal

import pytest
from pydantic import TypeAdapter

from catalogue_desktop.core.records.decode import MODELS
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer, compact_json, load_sample, serve
from catalogue_desktop.paths import resource_dir, resource_path

# The spec's field names, per record (catalogue-api-v1, section 2).
SPEC_FIELDS = {
    "expert": {"expertId", "name", "title", "bio", "education", "imageUrl", "image2xUrl"},
    "topic": {"topicId", "title", "description"},
    "role": {"roleId", "title", "description"},
    "situation": {"situationId", "title", "description"},
    "webinar": {
        "webinarId", "sessionId", "type", "title", "description", "fee", "cleAccreditation",
        "cpeAccreditation", "productionDate", "startDate", "endDate", "detailUrl", "accessUrl",
        "topics", "roles", "situations", "experts",
    },
    "series": {"seriesId", "title", "description", "fee", "detailUrl", "sessions"},
    "course": {
        "courseId", "title", "description", "curriculum", "cleAccreditation", "cpeAccreditation",
        "experts", "level", "url", "topics", "locations", "schedule",
    },
    "location": {
        "locationId", "venue", "address", "city", "state", "zip", "detailUrl", "startDate",
        "endDate", "fee", "travelInfo", "travelGroupRate",
    },
    "schedule": {"day", "startTime", "endTime", "breakMins", "title", "description"},
    "certificate": {"certificateId", "title", "description", "fee", "imageUrl", "levels"},
    "level": {
        "id", "type", "selection", "optionsMin", "coursesMin", "options", "tracks", "courses",
    },
    "option": {"optionId", "num", "coursesMin", "coursesTotal", "coursesOperator"},
    "track": {"trackId", "name", "displayOrder"},
    "levelcourse": {"courseId", "optionId", "trackId"},
}  # fmt: skip

DATE = re.compile(r"^20(26|27)-\d\d-\d\dT\d\d:\d\d:\d\d\.000-0[5-8]:00$")
SAMPLE_SIZES = {
    Kind.WEBINARS: 60,
    Kind.SERIES: 10,
    Kind.COURSES: 20,
    Kind.CERTIFICATES: 6,
    Kind.EXPERTS: 24,
    Kind.TOPICS: 16,
    Kind.ROLES: 8,
    Kind.SITUATIONS: 8,
}


def sample_file(kind: Kind) -> bytes:
    return resource_path("demo", f"{kind.value}.json").read_bytes()


@pytest.fixture(scope="module")
def sample() -> dict[Kind, list[dict]]:
    return {kind: json.loads(sample_file(kind), parse_float=Decimal) for kind in Kind}


# --------------------------------------------------------------------------- sample files


def test_resource_dir_is_found() -> None:
    assert (resource_dir() / "demo").is_dir()
    assert resource_path("demo", "webinars.json").is_file()


def test_sample_files_validate_against_the_models() -> None:
    for kind in Kind:
        adapter = TypeAdapter(list[MODELS[kind]])
        if kind is Kind.CERTIFICATES:
            decoded = adapter.validate_python(json.loads(sample_file(kind), parse_float=Decimal))
        else:
            decoded = adapter.validate_json(sample_file(kind))
        assert len(decoded) == SAMPLE_SIZES[kind], kind


def test_sample_files_are_pretty_printed_with_two_spaces() -> None:
    for kind in Kind:
        text = sample_file(kind).decode("utf-8")
        assert text.startswith('[\n  {\n    "'), kind
        assert text.endswith("]\n")


def test_sample_uses_exactly_the_spec_field_names(sample: dict[Kind, list[dict]]) -> None:
    def check(name: str, record: dict) -> None:
        assert set(record) == SPEC_FIELDS[name], (name, set(record) ^ SPEC_FIELDS[name])

    for webinar in sample[Kind.WEBINARS] + [s for x in sample[Kind.SERIES] for s in x["sessions"]]:
        check("webinar", webinar)
        for name in ("expert", "topic", "role", "situation"):
            for item in webinar[name + "s"]:
                check(name, item)
    for name, kind in [
        ("series", Kind.SERIES),
        ("expert", Kind.EXPERTS),
        ("topic", Kind.TOPICS),
        ("role", Kind.ROLES),
        ("situation", Kind.SITUATIONS),
    ]:
        for record in sample[kind]:
            check(name, record)
    for course in sample[Kind.COURSES]:
        check("course", course)
        for location in course["locations"]:
            check("location", location)
        for entry in course["schedule"]:
            check("schedule", entry)
    for cert in sample[Kind.CERTIFICATES]:
        check("certificate", cert)
        for level in cert["levels"]:
            check("level", level)
            for option in level["options"]:
                check("option", option)
            for track in level["tracks"]:
                check("track", track)
            for ref in level["courses"]:
                check("levelcourse", ref)


def test_sample_embedded_records_equal_the_top_level_records(
    sample: dict[Kind, list[dict]],
) -> None:
    tables = {
        "experts": ("expertId", {r["expertId"]: r for r in sample[Kind.EXPERTS]}),
        "topics": ("topicId", {r["topicId"]: r for r in sample[Kind.TOPICS]}),
        "roles": ("roleId", {r["roleId"]: r for r in sample[Kind.ROLES]}),
        "situations": ("situationId", {r["situationId"]: r for r in sample[Kind.SITUATIONS]}),
    }
    embedded_seen = 0
    for webinar in sample[Kind.WEBINARS]:
        assert webinar["experts"], webinar["webinarId"]
        for key, (id_field, table) in tables.items():
            for item in webinar[key]:
                assert item == table[item[id_field]]
                embedded_seen += 1
    for course in sample[Kind.COURSES]:
        for key in ("experts", "topics"):
            id_field, table = tables[key]
            assert course[key]
            for item in course[key]:
                assert item == table[item[id_field]]
    assert embedded_seen > 200
    webinars = {w["webinarId"]: w for w in sample[Kind.WEBINARS]}
    for series in sample[Kind.SERIES]:
        assert 3 <= len(series["sessions"]) <= 6
        for session in series["sessions"]:
            assert session == webinars[session["webinarId"]]


def test_sample_certificates_refer_mostly_to_listed_courses(
    sample: dict[Kind, list[dict]],
) -> None:
    course_ids = {c["courseId"] for c in sample[Kind.COURSES]}
    refs = [
        (ref, level)
        for cert in sample[Kind.CERTIFICATES]
        for level in cert["levels"]
        for ref in level["courses"]
    ]
    dangling = sorted({ref["courseId"] for ref, _ in refs if ref["courseId"] not in course_ids})
    assert 2 <= len(dangling) <= 3
    assert len(refs) >= 25
    for ref, level in refs:
        assert ref["optionId"] in {o["optionId"] for o in level["options"]}
        assert ref["trackId"] in {t["trackId"] for t in level["tracks"]}
    for cert in sample[Kind.CERTIFICATES]:
        assert isinstance(cert["fee"], Decimal) and cert["fee"].as_tuple().exponent == -2


def test_sample_values_are_plausible(sample: dict[Kind, list[dict]]) -> None:
    webinars = sample[Kind.WEBINARS]
    assert sorted({w["type"] for w in webinars}) == [1, 2, 3]
    assert sum(w["type"] == 3 for w in webinars) == 1
    assert all(99 <= w["fee"] <= 399 for w in webinars)
    now = "2026-11-22"
    on_demand = [w for w in webinars if w["type"] == 1]
    assert on_demand and all(w["productionDate"] < now for w in on_demand)
    assert any(w["type"] == 2 and w["startDate"] > now for w in webinars)
    assert any(w["accessUrl"] is None for w in webinars)
    assert any(e["image2xUrl"] is None for e in sample[Kind.EXPERTS])
    offsets = {w["startDate"][-6:] for w in webinars if w["startDate"]}
    assert {"-05:00", "-06:00", "-08:00"} <= offsets
    dates = [w[f] for w in webinars for f in ("productionDate", "startDate", "endDate") if w[f]]
    for course in sample[Kind.COURSES]:
        assert 1 <= len({e["day"] for e in course["schedule"]}) <= 3
        for location in course["locations"]:
            assert 495 <= location["fee"] <= 1995
            assert location["startDate"] > now  # the endpoint lists upcoming courses
            dates += [location["startDate"], location["endDate"]]
    assert all(DATE.match(d) for d in dates), [d for d in dates if not DATE.match(d)]
    text = b" ".join(sample_file(kind) for kind in Kind).lower()
    assert b"lorem" not in text and b"ipsum" not in text
    for expert in sample[Kind.EXPERTS]:
        assert expert["name"] and expert["title"] and 2 <= expert["bio"].count(". ") + 1 <= 5


def test_load_sample_serves_compact_bytes_with_exact_numbers() -> None:
    payloads = load_sample()
    assert set(payloads) == set(Kind)
    for kind, payload in payloads.items():
        assert b"\n" not in payload and b'": ' not in payload
        assert json.loads(payload, parse_float=Decimal) == json.loads(sample_file(kind), parse_float=Decimal)
    assert b'"fee":2495.00' in payloads[Kind.CERTIFICATES]
    assert compact_json(b'[ {"a": "x  y", "b" : [1, 2.50]} ]') == b'[{"a":"x  y","b":[1,2.50]}]'


# --------------------------------------------------------------------------- server


@pytest.fixture()
def server() -> Iterator[DemoServer]:
    with DemoServer(load_sample()) as running:
        yield running


def get(
    url: str, headers: dict[str, str] | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def test_every_endpoint_serves_its_collection(server: DemoServer) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", server.base_url)
    expected_paths = {
        "/v1/certificates", "/v1/courses", "/v1/experts", "/v1/roles", "/v1/situations",
        "/v1/topics", "/v1/webinars", "/v1/webinars/series",
    }  # fmt: skip
    assert {kind.path for kind in Kind} == expected_paths
    for kind in Kind:
        status, headers, body = get(server.base_url + kind.path)
        assert status == 200
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert int(headers["Content-Length"]) == len(body)
        assert headers["Vary"] == "Accept-Encoding"
        assert "Content-Encoding" not in headers
        assert body == server.payload(kind)
        records = json.loads(body)
        assert len(records) == SAMPLE_SIZES[kind]
        assert all(kind.id_field in record for record in records)


def test_keep_alive_serves_several_requests_on_one_connection(server: DemoServer) -> None:
    host, port = server.base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        bodies = []
        for kind in (Kind.TOPICS, Kind.ROLES, Kind.TOPICS):
            connection.request("GET", kind.path)
            response = connection.getresponse()
            assert response.version == 11 and response.status == 200
            bodies.append(response.read())
            assert not response.will_close
        assert bodies[0] == bodies[2] == server.payload(Kind.TOPICS)
        assert len(json.loads(bodies[1])) == 8
    finally:
        connection.close()


def test_etag_round_trip_gives_304_without_body(server: DemoServer) -> None:
    url = server.url(Kind.WEBINARS)
    status, headers, _ = get(url)
    etag = headers["ETag"]
    assert status == 200 and re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert etag == server.etag(Kind.WEBINARS)
    status, headers, body = get(url, {"If-None-Match": etag})
    assert (status, body) == (304, b"")
    assert headers["ETag"] == etag
    assert get(url, {"If-None-Match": f'"other", W/{etag}'})[0] == 304
    assert get(url, {"If-None-Match": '"stale"'})[0] == 200
    # the ETag belongs to the collection: another endpoint has another one
    assert get(server.url(Kind.TOPICS))[1]["ETag"] != etag


def test_if_modified_since_is_honoured(server: DemoServer) -> None:
    url = server.url(Kind.COURSES)
    status, headers, _ = get(url)
    last_modified = headers["Last-Modified"]
    assert status == 200 and email.utils.parsedate_to_datetime(last_modified).tzinfo
    status, _, body = get(url, {"If-Modified-Since": last_modified})
    assert (status, body) == (304, b"")
    earlier = email.utils.formatdate(
        email.utils.parsedate_to_datetime(last_modified).timestamp() - 60, usegmt=True
    )
    assert get(url, {"If-Modified-Since": earlier})[0] == 200
    assert get(url, {"If-Modified-Since": "not a date"})[0] == 200
    # If-None-Match wins over If-Modified-Since
    assert get(url, {"If-Modified-Since": last_modified, "If-None-Match": '"x"'})[0] == 200


def test_gzip_round_trip(server: DemoServer) -> None:
    url = server.url(Kind.SERIES)
    status, headers, body = get(url, {"Accept-Encoding": "gzip, deflate"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert headers["Vary"] == "Accept-Encoding"
    assert int(headers["Content-Length"]) == len(body) < len(server.payload(Kind.SERIES)) / 3
    assert gzip.decompress(body) == server.payload(Kind.SERIES)
    gzip_etag = headers["ETag"]
    assert gzip_etag != server.etag(Kind.SERIES)
    status, headers, body = get(url, {"Accept-Encoding": "gzip", "If-None-Match": gzip_etag})
    assert (status, body) == (304, b"")
    assert get(url, {"Accept-Encoding": "gzip;q=0"})[1].get("Content-Encoding") is None
    version = server.version(Kind.SERIES)
    assert version.gzipped() is version.gzipped()  # compressed once per payload version


def test_concurrent_gzip_requests_agree(server: DemoServer) -> None:
    url = server.url(Kind.WEBINARS)
    results: list[bytes] = []

    def fetch() -> None:
        results.append(get(url, {"Accept-Encoding": "gzip"})[2])

    threads = [threading.Thread(target=fetch) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(results) == 6
    assert all(gzip.decompress(r) == server.payload(Kind.WEBINARS) for r in results)


def test_head_sends_headers_only(server: DemoServer) -> None:
    status, headers, body = get(server.url(Kind.EXPERTS), method="HEAD")
    assert status == 200 and body == b""
    assert int(headers["Content-Length"]) == len(server.payload(Kind.EXPERTS))
    assert headers["ETag"] == server.etag(Kind.EXPERTS)


def test_unknown_path_is_404_with_json_body(server: DemoServer) -> None:
    for path in ("/v1/nothing", "/v2/webinars", "/", "/v1/webinars/series/extra"):
        status, headers, body = get(server.base_url + path)
        assert status == 404, path
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert json.loads(body)["error"] == "not found"


def test_other_methods_are_405(server: DemoServer) -> None:
    for method in ("POST", "PUT", "DELETE"):
        status, headers, body = get(server.url(Kind.WEBINARS), method=method)
        assert status == 405, method
        assert headers["Allow"] == "GET, HEAD"
        assert json.loads(body)["status"] == 405


def test_set_payload_changes_body_etag_and_last_modified(server: DemoServer) -> None:
    url = server.url(Kind.ROLES)
    _, before, old_body = get(url)
    roles = json.loads(old_body)
    roles.append({"roleId": 399, "title": "Legal Recruiter", "description": "Hires lawyers."})
    new_body = json.dumps(roles, separators=(",", ":")).encode()
    server.set_payload(Kind.ROLES, new_body)
    status, after, body = get(url, {"If-None-Match": before["ETag"]})
    assert status == 200 and body == new_body
    assert after["ETag"] != before["ETag"]
    assert email.utils.parsedate_to_datetime(after["Last-Modified"]) > email.utils.parsedate_to_datetime(
        before["Last-Modified"]
    )
    assert get(url, {"If-Modified-Since": before["Last-Modified"]})[0] == 200
    assert get(url, {"If-None-Match": after["ETag"]})[0] == 304
    gz = get(url, {"Accept-Encoding": "gzip"})[2]
    assert gzip.decompress(gz) == new_body
    # other collections are untouched
    assert get(server.url(Kind.TOPICS))[2] == server.payload(Kind.TOPICS)


def test_stop_ends_open_keep_alive_connections() -> None:
    server = DemoServer(load_sample()).start()
    host, port = server.base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", Kind.ROLES.path)
        assert connection.getresponse().read()
        server.stop()
        assert connection.sock.recv(1) == b""  # the kept-alive connection was ended (not timed out)
        with pytest.raises(OSError):  # nothing listens any more
            get(f"http://{host}:{port}/v1/roles")
    finally:
        connection.close()
        server.stop()  # idempotent


def test_missing_payload_is_rejected() -> None:
    payloads = load_sample()
    del payloads[Kind.TOPICS]
    with pytest.raises(ValueError, match="topics"):
        DemoServer(payloads)


def test_serve_blocks_until_ctrl_c_and_reports_its_url() -> None:
    seen: dict[str, object] = {}

    def client(base_url: str) -> None:
        try:
            seen["status"] = get(base_url + "/v1/webinars")[0]
        finally:
            _thread.interrupt_main()  # what Ctrl+C does

    def ready(base_url: str) -> None:
        seen["url"] = base_url
        threading.Thread(target=client, args=(base_url,), daemon=True).start()

    serve("127.0.0.1", 0, size=50, seed=1, ready=ready)  # returns normally on Ctrl+C
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", str(seen["url"]))
    assert seen["status"] == 200


def test_demo_modules_do_not_import_gui_http_client_or_pydantic() -> None:
    code = (
        "import sys, catalogue_desktop.demo.server, catalogue_desktop.demo.synthetic, "
        "catalogue_desktop.paths\n"
        "bad = [m for m in ('PySide6', 'httpx', 'pydantic') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""


def test_a_refresh_s_requests_all_queue_while_the_server_is_busy() -> None:
    """A refresh opens one connection per collection at once. Connections the server has not
    accepted yet wait in the listen backlog; with socketserver's default of 5, the others were
    dropped and TCP retried them a second later (the self-test's refresh took 2 s, not 1).
    Here nothing accepts (no serve loop): twice a refresh's connections must still connect."""
    import socket

    from catalogue_desktop.demo.server import _HTTPServer

    httpd = _HTTPServer(("127.0.0.1", 0), DemoServer(load_sample()))
    sockets: list[socket.socket] = []
    try:
        for _ in range(2 * len(Kind)):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.settimeout(0.5)  # a dropped connection is retried only after ~1 s
            sock.connect(httpd.server_address)
    finally:
        for sock in sockets:
            sock.close()
        httpd.server_close()
