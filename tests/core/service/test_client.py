"""CatalogueClient over real HTTP on loopback, against the fault-serving test server."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from catalogue_desktop.core.records.errors import (
    BadEncoding,
    CannotConnect,
    CatalogueError,
    FetchError,
    HttpStatus,
    InvalidUrl,
    NotArray,
    NotJson,
    TimedOut,
    TooLarge,
    TooManyRedirects,
)
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service import download
from catalogue_desktop.core.service.client import CatalogueClient, FetchResult, Validators
from catalogue_desktop.core.service.priority import BACKGROUND_NICENESS
from tests.faultserver import FaultServer, refused_port

T = TypeVar("T")
WEBINARS = Kind.WEBINARS.path
ARRAY = [{"webinarId": 1, "title": "Tax basics"}, {"webinarId": 2, "title": "Estate planning"}]
ARRAY_BYTES = b'[{"webinarId": 1, "title": "Tax basics"}]'
FAST = {"retries": 2, "backoff": 0.01}


@pytest.fixture
def server() -> Any:
    with FaultServer() as srv:
        yield srv


def with_client(base_url: str, body: Callable[[CatalogueClient], Awaitable[T]], **options: Any) -> T:
    """Run ``body(client)`` on a fresh event loop with a client that is always closed."""

    async def main() -> T:
        async with CatalogueClient(base_url, **options) as client:
            return await body(client)

    return asyncio.run(main())


def fetch(server: FaultServer, kind: Kind = Kind.WEBINARS, **options: Any) -> FetchResult:
    return with_client(server.base_url, lambda c: c.fetch(kind), **options)


def fetch_error(server: FaultServer, kind: Kind = Kind.WEBINARS, **options: Any) -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(server, kind, **options)
    return info.value


# -- success and caching ---------------------------------------------------------------------------


def test_success_returns_the_body_validators_and_progress(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=ARRAY, etag='"abc"', last_modified="Mon, 02 Nov 2026 10:00:00 GMT")
    seen: list[tuple[Kind, int, int | None]] = []

    async def body(client: CatalogueClient) -> FetchResult:
        return await client.fetch(Kind.WEBINARS, progress=lambda *a: seen.append(a))

    result = with_client(server.base_url, body)
    assert json.loads(result.body or b"") == ARRAY
    assert result.status == 200 and not result.not_modified
    assert result.kind is Kind.WEBINARS
    assert result.url == server.url(WEBINARS)
    assert result.validators == Validators('"abc"', "Mon, 02 Nov 2026 10:00:00 GMT")
    assert result.elapsed >= 0
    assert seen and seen[-1] == (Kind.WEBINARS, len(result.body or b""), len(result.body or b""))
    (request,) = server.requests
    assert request.method == "GET" and request.path == WEBINARS
    assert request.headers["accept"] == "application/json"
    assert request.headers["accept-encoding"] == "gzip, deflate"
    assert request.headers["user-agent"].startswith("catalogue-desktop/")
    assert "if-none-match" not in request.headers


def test_custom_user_agent_is_sent(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=ARRAY)
    fetch(server, user_agent="tester/1.0")
    assert server.requests[0].headers["user-agent"] == "tester/1.0"


def test_304_with_etag_keeps_the_old_validators(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=ARRAY, etag='"v7"')
    old = Validators(etag='"v7"', last_modified="Sun, 01 Nov 2026 00:00:00 GMT")

    result = with_client(server.base_url, lambda c: c.fetch(Kind.WEBINARS, old))

    assert result.not_modified and result.body is None and result.status == 304
    assert result.validators == old
    headers = server.requests[0].headers
    assert headers["if-none-match"] == '"v7"'
    assert headers["if-modified-since"] == "Sun, 01 Nov 2026 00:00:00 GMT"


def test_304_with_last_modified(server: FaultServer) -> None:
    stamp = "Mon, 02 Nov 2026 10:00:00 GMT"
    server.set(WEBINARS, "json", body=ARRAY, last_modified=stamp)

    result = with_client(server.base_url, lambda c: c.fetch(Kind.WEBINARS, Validators(last_modified=stamp)))

    assert result.not_modified and result.body is None
    assert result.validators == Validators(last_modified=stamp)
    assert server.requests[0].headers["if-modified-since"] == stamp
    assert "if-none-match" not in server.requests[0].headers


def test_changed_etag_returns_the_new_body_and_validators(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=ARRAY, etag='"new"')
    result = with_client(server.base_url, lambda c: c.fetch(Kind.WEBINARS, Validators('"old"')))
    assert not result.not_modified and result.body
    assert result.validators == Validators(etag='"new"')


def test_validators_json_round_trip() -> None:
    v = Validators(etag='W/"x"', last_modified="Mon, 02 Nov 2026 10:00:00 GMT")
    assert Validators.from_json(v.to_json()) == v
    assert Validators.from_json(None) == Validators()
    assert Validators.from_json({"etag": 3}) == Validators()


def test_gzip_body_is_decoded(server: FaultServer) -> None:
    payload = b"[" + b",".join(b'{"webinarId": %d}' % i for i in range(2000)) + b"]"
    server.set(WEBINARS, "json", body=payload, gzip=True)
    assert fetch(server).body == payload


def test_utf8_bom_and_leading_whitespace_are_accepted(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=b"\xef\xbb\xbf \r\n\t" + ARRAY_BYTES)
    assert fetch(server).body == b" \r\n\t" + ARRAY_BYTES


def test_json_array_with_wrong_content_type_is_accepted(server: FaultServer) -> None:
    server.set(WEBINARS, "wrong_content_type", body=ARRAY_BYTES, content_type="text/html")
    assert fetch(server).body == ARRAY_BYTES


# -- size caps ------------------------------------------------------------------------------------


def test_content_length_over_the_cap_is_too_large(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=b"[" + b"1," * 5000 + b"1]")
    err = fetch_error(server, max_bytes=1000)
    assert isinstance(err, TooLarge) and err.limit == 1000
    assert "exceeded" in str(err) and err.kind is Kind.WEBINARS


def test_chunked_body_over_the_cap_is_too_large(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=b"[" + b"1," * 50_000 + b"1]", chunked=True)
    err = fetch_error(server, max_bytes=10_000)
    assert isinstance(err, TooLarge) and err.limit == 10_000


def test_cap_applies_to_decoded_gzip_bytes(server: FaultServer) -> None:
    big = b"[" + b"0," * 2_000_000 + b"0]"  # 4 MB, compresses to a few KB
    server.set(WEBINARS, "json", body=big, gzip=True)
    err = fetch_error(server, max_bytes=1024 * 1024)
    assert isinstance(err, TooLarge)
    assert str(err) == "the response exceeded the 1 MiB limit"


@pytest.mark.parametrize("spooled", [True, False])
def test_a_highly_compressed_body_lets_the_loop_run_while_it_inflates(
    server: FaultServer, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, spooled: bool
) -> None:
    """16 MB that arrive as a few KB. Written to a file (as a sync does), the body is inflated
    by the writer thread, never on the loop's thread; held in memory, on the loop, which gets a
    pass at least every 256 KB inflated. Either way a window on this loop stays responsive and
    the body arrives whole."""
    decoded = b"[" + b"0," * 8_000_000 + b"0]"
    server.set(WEBINARS, "json", body=decoded, gzip=True)
    inflated = 0
    threads: set[str] = set()
    real_feed = download.Inflater.feed

    def feed(self: Any, data: bytes) -> Any:
        nonlocal inflated
        threads.add(threading.current_thread().name)
        for piece in real_feed(self, data):
            inflated += len(piece)
            yield piece

    monkeypatch.setattr(download.Inflater, "feed", feed)

    async def body(client: CatalogueClient) -> tuple[int, int, str]:
        most, seen = 0, 0

        async def count() -> None:
            nonlocal most, seen
            while True:
                await asyncio.sleep(0)
                most, seen = max(most, inflated - seen), inflated

        counter = asyncio.create_task(count())
        result = await client.fetch(Kind.WEBINARS, spool_dir=tmp_path if spooled else None)
        counter.cancel()
        size = result.body_file.stat().st_size if result.body_file is not None else len(result.body)
        return most, size, threading.current_thread().name

    most, size, loop_thread = with_client(server.base_url, body, max_bytes=64 * 1024 * 1024)
    assert size == len(decoded)
    if spooled:
        assert threads and all(t.startswith("catalogue-body-writer") for t in threads)
    else:
        assert threads == {loop_thread} and 0 < most <= 256 * 1024


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priority: Linux")
def test_a_download_is_written_to_its_file_by_a_thread_below_normal_priority(
    server: FaultServer, tmp_path: Any
) -> None:
    """Writing a big download into the page cache costs seconds of CPU at 100k webinars: that
    thread runs below the priority of the process's other threads (the window's among them),
    which keep theirs; the body arrives whole; closing the client ends the thread."""
    decoded = b"[" + b"0," * 500_000 + b"0]"
    server.set(WEBINARS, "json", body=decoded, gzip=True)
    writers: set[str] = set()

    async def body(client: CatalogueClient) -> tuple[int, int, int]:
        loop = asyncio.get_running_loop()
        result = await client.fetch(Kind.WEBINARS, spool_dir=tmp_path)
        assert result.body_file is not None
        assert len(client._writer._threads) == 1  # made on first use: the fetch used it

        def priority() -> int:
            writers.add(threading.current_thread().name)
            return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

        writer = await loop.run_in_executor(client._writer, priority)
        own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        size = result.body_file.stat().st_size
        await client.aclose()  # ends the thread: none is left to hold the process's exit up
        alive.extend(t for t in threading.enumerate() if t.name.startswith("catalogue-body-writer"))
        return size, writer, own

    alive: list[threading.Thread] = []
    size, writer, own = with_client(server.base_url, body)
    assert alive == []
    assert size == len(decoded)
    assert writer == min(19, own + BACKGROUND_NICENESS) and own == os.getpriority(os.PRIO_PROCESS, 0)
    assert writers and all(name.startswith("catalogue-body-writer") for name in writers)


def test_default_cap_checks_content_length_up_front(server: FaultServer) -> None:
    server.set(WEBINARS, "truncated", extra=256 * 1024 * 1024)  # announces > 256 MiB, sends less
    err = fetch_error(server)
    assert isinstance(err, TooLarge) and err.limit == 256 * 1024 * 1024
    assert str(err) == "the response exceeded the 256 MiB limit"


def test_endless_body_stops_at_the_cap(server: FaultServer) -> None:
    server.set(WEBINARS, "endless", chunk=16384)
    err = fetch_error(server, max_bytes=200_000, retries=0)
    assert isinstance(err, TooLarge) and err.limit == 200_000


def test_endless_gzip_body_stops_at_the_decoded_cap(server: FaultServer) -> None:
    server.set(WEBINARS, "endless", chunk=65536, gzip=True)
    err = fetch_error(server, max_bytes=2_000_000, retries=0)
    assert isinstance(err, TooLarge)


# -- network failures ---------------------------------------------------------------------------


def test_refused_port_cannot_connect_with_readable_message() -> None:
    port = refused_port()
    with pytest.raises(CannotConnect) as info:
        with_client(f"http://127.0.0.1:{port}", lambda c: c.fetch(Kind.TOPICS), **FAST)
    assert str(info.value) == f"cannot connect to 127.0.0.1:{port}: connection refused"
    assert info.value.kind is Kind.TOPICS
    assert info.value.url == f"http://127.0.0.1:{port}/v1/topics"


def test_slow_headers_time_out(server: FaultServer) -> None:
    server.set(WEBINARS, "slow_headers", delay=3.0, body=ARRAY)
    err = fetch_error(server, read_timeout=0.2, retries=0)
    assert isinstance(err, TimedOut)
    assert str(err) == "timed out after 0.2 s waiting for the service"  # (not the 3 s of the server)


def test_slow_body_within_the_read_timeout_arrives(server: FaultServer) -> None:
    server.set(WEBINARS, "slow_body", body=b"[1, 2, 3]", chunk=3, interval=0.05)
    assert fetch(server, read_timeout=1.0).body == b"[1, 2, 3]"


def test_slow_body_stalling_longer_than_read_timeout_times_out(server: FaultServer) -> None:
    server.set(WEBINARS, "slow_body", body=b"[1, 2, 3]", chunk=2, interval=2.0)
    err = fetch_error(server, read_timeout=0.2, retries=0)
    assert isinstance(err, TimedOut)


def test_truncated_body_is_a_fetch_error(server: FaultServer) -> None:
    server.set(WEBINARS, "truncated")
    err = fetch_error(server, **FAST)
    assert type(err).__module__ == "catalogue_desktop.core.records.errors"
    assert str(err) == "the connection closed before the whole response arrived"
    assert len(server.requests) == 3  # a lost connection is worth retrying


def test_close_without_answer_is_retried_then_succeeds(server: FaultServer) -> None:
    server.set(WEBINARS, "sequence", steps=["close", ("json", {"body": ARRAY})])
    assert fetch(server, **FAST).body
    assert len(server.requests) == 2


def test_close_without_answer_forever(server: FaultServer) -> None:
    server.set(WEBINARS, "close")
    err = fetch_error(server, retries=1, backoff=0.01)
    assert "closed the connection" in str(err)
    assert len(server.requests) == 2


# -- statuses and retries ------------------------------------------------------------------------


def test_503_then_success_is_retried(server: FaultServer) -> None:
    server.set(WEBINARS, "sequence", steps=[("status", {"status": 503}), ("json", {"body": ARRAY})])
    assert fetch(server, **FAST).status == 200
    assert len(server.requests) == 2


def test_503_forever_gives_http_status_after_all_attempts(server: FaultServer) -> None:
    server.set(WEBINARS, "status", status=503)
    err = fetch_error(server, retries=2, backoff=0.01)
    assert isinstance(err, HttpStatus) and err.status == 503
    assert str(err) == "the service answered HTTP 503 Service Unavailable"
    assert len(server.requests) == 3


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The client's waits between attempts, counted (and not waited: the loop goes on at once)."""
    from catalogue_desktop.core.service import client as client_module

    asked: list[float] = []
    real_sleep = asyncio.sleep

    async def counted_sleep(delay: float) -> None:
        if delay > 0:
            asked.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(client_module.asyncio, "sleep", counted_sleep)
    return asked


def test_backoff_is_exponential(server: FaultServer, waits: list[float]) -> None:
    server.set(WEBINARS, "status", status=500)
    fetch_error(server, retries=2, backoff=0.1)
    assert waits == [0.1, 0.2]
    assert len(server.requests) == 3


def test_429_retry_after_is_honoured(server: FaultServer, waits: list[float]) -> None:
    server.set(
        WEBINARS,
        "sequence",
        steps=[("status", {"status": 429, "headers": {"Retry-After": "1"}}), ("json", {})],
    )
    result = fetch(server, **FAST)
    assert result.status == 200 and len(server.requests) == 2
    assert waits == [1.0]


def test_429_retry_after_timing(server: FaultServer, waits: list[float]) -> None:
    server.set(WEBINARS, "status", status=429, headers={"Retry-After": "1"})
    err = fetch_error(server, retries=1, backoff=0.01)
    assert isinstance(err, HttpStatus) and err.status == 429 and err.retry_after == 1.0
    assert waits == [1.0]  # the service's wait, not the backoff's 0.01 s
    assert len(server.requests) == 2


def test_404_is_not_retried(server: FaultServer) -> None:
    err = fetch_error(server, Kind.EXPERTS, **FAST)  # no route: the server answers 404
    assert isinstance(err, HttpStatus) and err.status == 404
    assert str(err) == "the service answered HTTP 404 Not Found"
    assert len(server.requests) == 1


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirects_are_followed(server: FaultServer, status: int) -> None:
    server.set(WEBINARS, "redirect", status=status, location="/moved/webinars")
    server.set("/moved/webinars", "json", body=ARRAY)
    result = fetch(server)
    assert result.body and result.url == server.url("/moved/webinars")
    assert [r.path for r in server.requests] == [WEBINARS, "/moved/webinars"]


def test_redirect_loop_is_too_many_redirects(server: FaultServer) -> None:
    server.set(WEBINARS, "redirect", location="/a")
    server.set("/a", "redirect", location=WEBINARS)
    err = fetch_error(server, **FAST)
    assert isinstance(err, TooManyRedirects)
    assert len(server.requests) == 6  # the first request and 5 redirects


# -- bodies that are not a JSON array --------------------------------------------------------------


def test_html_page_with_200_is_not_json(server: FaultServer) -> None:
    server.set(WEBINARS, "html200")
    err = fetch_error(server)
    assert isinstance(err, NotJson)
    assert str(err) == "the service sent an HTML page instead of JSON"


def test_json_object_is_not_an_array(server: FaultServer) -> None:
    server.set(WEBINARS, "not_array")
    err = fetch_error(server)
    assert isinstance(err, NotArray)
    assert str(err) == "expected a JSON array of webinars, got a JSON object"


def test_empty_body_is_not_json(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body=b"  \n")
    err = fetch_error(server)
    assert isinstance(err, NotJson) and "empty response" in str(err)


def test_plain_text_is_not_json(server: FaultServer) -> None:
    server.set(WEBINARS, "wrong_content_type", body=b"Service busy", content_type="text/plain")
    err = fetch_error(server)
    assert isinstance(err, NotJson)
    assert str(err) == "the service sent text/plain instead of JSON (it starts with 'Service busy')"


def test_bad_gzip_is_bad_encoding(server: FaultServer) -> None:
    server.set(WEBINARS, "bad_gzip")
    err = fetch_error(server, **FAST)
    assert isinstance(err, BadEncoding) and "gzip" in str(err)
    assert len(server.requests) == 1


def test_truncated_gzip_stream_is_bad_encoding(server: FaultServer) -> None:
    data = gzip.compress(b"[" + b"1," * 10_000 + b"1]")[:-20]
    server.set(WEBINARS, "json", body=data, headers={"Content-Encoding": "gzip"})
    err = fetch_error(server)
    assert isinstance(err, BadEncoding)


def test_invalid_utf8_prefix_is_bad_encoding(server: FaultServer) -> None:
    server.set(WEBINARS, "json", body='[{"t": 1}]'.encode("utf-16"))
    err = fetch_error(server)
    assert isinstance(err, BadEncoding) and "UTF-8" in str(err)


# -- fetch_bytes -----------------------------------------------------------------------------------


def test_fetch_bytes_returns_the_body(server: FaultServer) -> None:
    photo = bytes(range(256)) * 40
    server.set("/img/1.jpg", "json", body=photo, content_type="image/jpeg")
    assert with_client(server.base_url, lambda c: c.fetch_bytes(server.url("/img/1.jpg"))) == photo
    assert server.requests[0].headers["accept"] == "*/*"


def test_fetch_bytes_cap(server: FaultServer) -> None:
    server.set("/img/big.jpg", "json", body=b"x" * 50_000, chunked=True)
    with pytest.raises(TooLarge) as info:
        with_client(server.base_url, lambda c: c.fetch_bytes(server.url("/img/big.jpg"), max_bytes=10_000))
    assert info.value.limit == 10_000 and info.value.kind is None


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:image/png;base64,iVBORw0KGgo=",
        "/relative/photo.jpg",
        "ftp://127.0.0.1/photo.jpg",
        "http:///no-host",
    ],
)
def test_fetch_bytes_rejects_non_http_urls_without_a_request(server: FaultServer, url: str) -> None:
    with pytest.raises(InvalidUrl):
        with_client(server.base_url, lambda c: c.fetch_bytes(url))
    assert server.requests == []


# -- base URL -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "base",
    [
        "ftp://example.org",
        "example.org",
        "http://",
        "",
        "file:///srv/catalogue",
        "http://h:x/",
        "http://exa mple.org",
    ],
)
def test_invalid_base_url(base: str) -> None:
    with pytest.raises(InvalidUrl) as info:
        CatalogueClient(base)
    assert isinstance(info.value, CatalogueError) and str(info.value)


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_base_url_suffixes(server: FaultServer, suffix: str) -> None:
    server.set(Kind.SERIES.path, "json", body=[])

    async def body(client: CatalogueClient) -> FetchResult:
        assert client.base_url == server.base_url
        return await client.fetch(Kind.SERIES)

    result = with_client(server.base_url + suffix, body)
    assert result.body == b"[]"
    assert server.requests[-1].path == "/v1/webinars/series"


# -- concurrency and hygiene -----------------------------------------------------------------------


def test_concurrency_is_bounded(server: FaultServer) -> None:
    server.set(WEBINARS, "slow_headers", delay=0.2, body=ARRAY)

    async def body(client: CatalogueClient) -> list[FetchResult]:
        return list(await asyncio.gather(*(client.fetch(Kind.WEBINARS) for _ in range(4))))

    results = with_client(server.base_url, body, max_concurrency=2)
    assert len(results) == 4 and all(r.body for r in results)
    assert server.max_in_flight == 2  # two rounds of two requests


def test_errors_module_does_not_import_httpx() -> None:
    code = "import sys, catalogue_desktop.core.records.errors; sys.exit('httpx' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
