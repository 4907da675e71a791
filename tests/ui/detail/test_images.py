"""ImageCache and ImageLoader against a real loopback HTTP server (tests/faultserver.py)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage, QPixmap

from catalogue_desktop.ui.detail.images import (
    ImageCache,
    ImageLoader,
    ImageRefused,
    choose_url,
    decode_image,
    is_web_url,
)
from tests.faultserver import FaultServer
from tests.ui.fixtures_components import *  # noqa: F403


def png(width: int, height: int, color: str = "steelblue") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG")
    return bytes(array.data())


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as s:
        yield s


@pytest.fixture
def loader(
    qapp: Any, async_loop: asyncio.AbstractEventLoop, tmp_path: Path, qtbot: Any
) -> Iterator[ImageLoader]:
    images = ImageLoader(ImageCache(tmp_path / "images"))
    yield images
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done, timeout=5000)


def _serve(server: FaultServer, path: str, body: bytes) -> str:
    server.set(path, "json", body=body, content_type="image/png")
    return server.url(path)


def test_loads_then_serves_from_disk_without_network(
    qtbot: Any, server: FaultServer, loader: ImageLoader, tmp_path: Path
) -> None:
    url = _serve(server, "/experts/1.png", png(300, 200))
    with qtbot.waitSignal(loader.loaded, timeout=5000) as blocker:
        loader.request(url, 96)
    got_url, pixmap = blocker.args
    assert got_url == url and isinstance(pixmap, QPixmap)
    assert max(pixmap.width(), pixmap.height()) == 96  # scaled to fit
    assert len(server.requests_for("/experts/1.png")) == 1
    assert loader.cache.path_for(url).exists()

    # A fresh loader over the same disk cache: synchronous, no request, no event loop needed.
    fresh = ImageLoader(ImageCache(tmp_path / "images"), fetch=_no_network)
    assert fresh.pixmap_for(url, 48) is not None
    with qtbot.waitSignal(fresh.loaded, timeout=100) as blocker:
        fresh.request(url, 48)  # emitted synchronously from the disk cache
    assert blocker.args[0] == url
    assert fresh.network_requests == 0
    assert len(server.requests_for("/experts/1.png")) == 1


async def _no_network(url: str, max_bytes: int) -> bytes:
    raise AssertionError("the network must not be used")


def test_requests_are_deduplicated(qtbot: Any, server: FaultServer, loader: ImageLoader) -> None:
    server.set("/slow.png", "slow_headers", delay=0.3, body=png(10, 10), content_type="image/png")
    url = server.url("/slow.png")
    loaded: list[str] = []
    loader.loaded.connect(lambda u, _p: loaded.append(u))
    loader.request(url, 32)
    loader.request(url, 32)
    loader.request(url, 64)
    qtbot.waitUntil(lambda: len(loaded) == 2, timeout=5000)
    assert len(server.requests_for("/slow.png")) == 1


def test_non_http_refused_without_request(qtbot: Any, server: FaultServer, loader: ImageLoader) -> None:
    for url in (
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:image/png;base64,AAAA",
        "ftp://127.0.0.1/x.png",
        "",
        "//127.0.0.1/x.png",
    ):
        with qtbot.waitSignal(loader.failed, timeout=100) as blocker:
            loader.request(url, 32)
        assert blocker.args[0] == url
    assert loader.network_requests == 0
    assert server.requests == []


def test_oversize_bytes_refused(qtbot: Any, server: FaultServer, tmp_path: Path, async_loop: Any) -> None:
    images = ImageLoader(ImageCache(tmp_path / "small"), max_bytes=10_000)
    pixels = os.urandom(200 * 200 * 3)  # noise does not compress: the PNG is > 10 kB
    noisy = QImage(pixels, 200, 200, 600, QImage.Format.Format_RGB888).copy()
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    noisy.save(buffer, "PNG")
    assert array.size() > 10_000
    url = _serve(server, "/big.png", bytes(array.data()))
    with qtbot.waitSignal(images.failed, timeout=5000) as blocker:
        images.request(url, 32)
    assert "limit" in blocker.args[1] or "larger" in blocker.args[1]
    assert not images.cache.path_for(url).exists()
    task = async_loop.create_task(images.aclose())
    qtbot.waitUntil(task.done, timeout=5000)


def test_oversize_dimensions_refused(qtbot: Any, server: FaultServer, loader: ImageLoader) -> None:
    url = _serve(server, "/wide.png", png(5000, 10))
    with qtbot.waitSignal(loader.failed, timeout=5000) as blocker:
        loader.request(url, 32)
    assert "too large" in blocker.args[1]
    # a failure is remembered: no second request right away
    with qtbot.waitSignal(loader.failed, timeout=100):
        loader.request(url, 32)
    assert len(server.requests_for("/wide.png")) == 1


def test_not_an_image_and_http_error(qtbot: Any, server: FaultServer, loader: ImageLoader) -> None:
    url = _serve(server, "/junk.png", b"<html>not an image</html>")
    with qtbot.waitSignal(loader.failed, timeout=5000) as blocker:
        loader.request(url, 32)
    assert "not an image" in blocker.args[1]
    server.set("/missing.png", "status", status=404)
    with qtbot.waitSignal(loader.failed, timeout=5000) as blocker:
        loader.request(server.url("/missing.png"), 32)
    assert "404" in blocker.args[1]


def test_cache_lru_eviction(tmp_path: Path) -> None:
    cache = ImageCache(tmp_path / "lru", max_bytes=10_000)
    for i in range(5):
        cache.put(f"http://x/{i}", bytes(3000))
    assert cache.total_bytes <= 10_000
    assert sum(f.stat().st_size for f in (tmp_path / "lru").iterdir()) <= 10_000
    assert "http://x/0" not in cache and "http://x/1" not in cache
    assert cache.get("http://x/2") is not None  # touch 2: now most recent
    cache.put("http://x/5", bytes(3000))
    assert "http://x/2" in cache and "http://x/3" not in cache
    # recency survives a restart (file times)
    os.utime(cache.path_for("http://x/4"), (1, 1))
    reopened = ImageCache(tmp_path / "lru", max_bytes=10_000)
    reopened.put("http://x/6", bytes(3000))
    assert "http://x/4" not in reopened and "http://x/2" in reopened
    assert not list((tmp_path / "lru").glob("*.part"))


def test_url_helpers() -> None:
    assert is_web_url("https://images.example.org/a.jpg")
    assert not is_web_url("javascript:alert(1)") and not is_web_url(None)
    assert choose_url("a", "b", 2.0) == "b"
    assert choose_url("a", None, 2.0) == "a"
    assert choose_url("a", "b", 1.0) == "a"
    assert choose_url(None, None, 1.0) is None


def jpeg(width: int, height: int) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("darkorange"))
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "JPEG", 85)
    return bytes(array.data())


@pytest.mark.parametrize(
    ("make", "size", "fit", "expected"),
    [
        (png, (400, 200), 96, (96, 48)),
        (jpeg, (300, 400), 72, (54, 72)),  # JPEG decodes straight at a fraction of its size
        (jpeg, (300, 400), 144, (108, 144)),
        (png, (50, 30), 96, (50, 30)),  # never enlarged
        (png, (400, 200), 0, (400, 200)),  # no fit: full size
    ],
)
def test_decode_fits_the_size_shown(
    qapp: Any, make: Callable[[int, int], bytes], size: tuple[int, int], fit: int, expected: tuple[int, int]
) -> None:
    image = decode_image(make(*size), fit=fit)
    assert (image.width(), image.height()) == expected


def test_decode_refuses_huge_images_even_when_fitting(qapp: Any) -> None:
    with pytest.raises(ImageRefused, match="too large"):
        decode_image(png(5000, 10), fit=72)


def test_cached_photos_are_decoded_once_per_size(qapp: Any, tmp_path: Path) -> None:
    url = "https://images.example.org/experts/9.jpg"
    loader = ImageLoader(ImageCache(tmp_path / "images"), fetch=_no_network)
    loader.cache.put(url, jpeg(400, 400))
    small = loader.pixmap_for(url, 72)
    assert small is not None and (small.width(), small.height()) == (72, 72)
    again = loader.pixmap_for(url, 72)
    assert again is not None and again.cacheKey() == small.cacheKey()  # from memory
    loader.cache.clear()
    assert loader.pixmap_for(url, 72) is not None  # still in memory
    assert loader.pixmap_for(url, 144) is None  # another size: not decoded yet, not on disk
