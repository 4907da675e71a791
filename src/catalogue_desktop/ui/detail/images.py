"""Expert and certificate photos: a size-limited disk cache and an async loader on the qasync loop.

* Only http/https URLs are fetched; anything else fails at once, without a request.
* Each image is capped (5 MB by default) while downloading, and images larger than 4096x4096 are
  refused before decoding (QImageReader reads the size from the header).
* A photo already in the disk cache is shown synchronously (:meth:`ImageLoader.pixmap_for`): no
  network, no await, no event-loop round trip.
* Fetches run as asyncio tasks on the running (qasync) loop; one fetch per URL at a time.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QSize, Qt, Signal
from PySide6.QtGui import QImage, QImageReader, QPixmap

from catalogue_desktop.ui.common.urls import is_web_url

if TYPE_CHECKING:  # imported where used: the window starts before asyncio is imported
    import asyncio

    from catalogue_desktop.core.service.client import CatalogueClient

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_MAX_BYTES",
    "MAX_DIMENSION",
    "Fetch",
    "ImageCache",
    "ImageLoader",
    "choose_url",
    "is_web_url",
]

DEFAULT_CACHE_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_DIMENSION = 4096
_FAILURE_TTL = 300.0  # seconds a failed URL is not retried
_MEMORY_ENTRIES = 128

Fetch = Callable[[str, int], Awaitable[bytes]]
"""``fetch(url, max_bytes) -> body``; raises on failure (any exception's text is the reason)."""


def choose_url(image_url: str | None, image2x_url: str | None, device_pixel_ratio: float) -> str | None:
    """The 2x image on high-density screens when there is one, else the 1x image."""
    if device_pixel_ratio > 1 and image2x_url:
        return image2x_url
    return image_url or image2x_url or None


class ImageCache:
    """Files named by URL hash in one directory, evicted least-recently-used above ``max_bytes``.

    Thread-safe within one process. Recency survives restarts through file modification times.
    """

    def __init__(self, directory: str | Path, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, int] = OrderedDict()  # name -> size, oldest first
        self._total = 0
        self._load()

    def _load(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            found = []
            for entry in os.scandir(self.directory):
                if entry.is_file() and entry.name.endswith(".img"):
                    stat = entry.stat()
                    found.append((stat.st_mtime, entry.name, stat.st_size))
        except OSError:
            found = []
        for _, name, size in sorted(found):
            self._entries[name] = size
            self._total += size

    @staticmethod
    def key(url: str) -> str:
        return hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest() + ".img"

    def path_for(self, url: str) -> Path:
        return self.directory / self.key(url)

    @property
    def total_bytes(self) -> int:
        return self._total

    def __contains__(self, url: str) -> bool:
        return self.key(url) in self._entries

    def get(self, url: str) -> bytes | None:
        """The cached bytes of ``url`` (marking them recently used), or None."""
        name = self.key(url)
        with self._lock:
            if name not in self._entries:
                return None
            self._entries.move_to_end(name)
        path = self.directory / name
        try:
            data = path.read_bytes()
            os.utime(path)
        except OSError:
            self._forget(name)
            return None
        return data

    def put(self, url: str, data: bytes) -> None:
        """Store ``data`` for ``url`` (atomically), then evict down to the size limit."""
        if len(data) > self.max_bytes:
            return
        name = self.key(url)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".part")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(tmp, self.directory / name)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return  # a cache that cannot be written is not an error: the image still shows
        with self._lock:
            self._total -= self._entries.pop(name, 0)
            self._entries[name] = len(data)
            self._total += len(data)
            victims = []
            while self._total > self.max_bytes and len(self._entries) > 1:
                old, size = self._entries.popitem(last=False)
                self._total -= size
                victims.append(old)
        for old in victims:
            (self.directory / old).unlink(missing_ok=True)

    def _forget(self, name: str) -> None:
        with self._lock:
            self._total -= self._entries.pop(name, 0)

    def clear(self) -> None:
        with self._lock:
            names = list(self._entries)
            self._entries.clear()
            self._total = 0
        for name in names:
            (self.directory / name).unlink(missing_ok=True)


class ImageRefused(Exception):
    """The bytes are not an acceptable image (not an image, too large)."""


def decode_image(data: bytes, max_dimension: int = MAX_DIMENSION, fit: int = 0) -> QImage:
    """Decode image bytes, refusing images larger than ``max_dimension`` on a side.

    With ``fit`` > 0, a larger image is decoded straight to fit a ``fit`` x ``fit`` square when its header
    gives its size (JPEG decodes at a fraction of its size, faster: docs/decisions.md, "Detail pane and
    offers")."""
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setDecideFormatFromContent(True)
    size = reader.size()
    if not reader.canRead():
        raise ImageRefused("not an image")
    if size.isValid() and (size.width() > max_dimension or size.height() > max_dimension):
        raise ImageRefused(f"the image is too large ({size.width()}x{size.height()} pixels)")
    if fit > 0 and size.isValid() and (size.width() > fit or size.height() > fit):
        reader.setScaledSize(size.scaled(fit, fit, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if image.isNull():
        raise ImageRefused(f"the image could not be decoded ({reader.errorString()})")
    if image.width() > max_dimension or image.height() > max_dimension:
        raise ImageRefused(f"the image is too large ({image.width()}x{image.height()} pixels)")
    return image


def _scaled(image: QImage, target_size: int) -> QPixmap:
    if target_size > 0 and (image.width() > target_size or image.height() > target_size):
        image = image.scaled(
            QSize(target_size, target_size),
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    return QPixmap.fromImage(image)


class ImageLoader(QObject):
    """Loads photos by URL: memory, then disk cache (synchronous), then network (async)."""

    loaded = Signal(str, QPixmap)  # url, pixmap scaled to fit the requested size
    failed = Signal(str, str)  # url, reason

    def __init__(
        self,
        cache: ImageCache | None = None,
        fetch: Fetch | None = None,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_dimension: int = MAX_DIMENSION,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        if cache is None:
            from catalogue_desktop.core.cache.location import default_cache_dir

            cache = ImageCache(default_cache_dir() / "images")
        self.cache = cache
        self.max_bytes = max_bytes
        self.max_dimension = max_dimension
        self._fetch = fetch
        self._client: CatalogueClient | None = None  # the default fetcher's, made on first use
        self._pending: dict[str, set[int]] = {}  # url -> requested sizes
        self._tasks: set[asyncio.Task[None]] = set()
        self._failures: dict[str, tuple[float, str]] = {}
        self._memory: OrderedDict[tuple[str, int], QPixmap] = OrderedDict()
        self.network_requests = 0  # fetches started (for tests and diagnostics)

    # -- synchronous path ----------------------------------------------------------------------

    def pixmap_for(self, url: str, size: int) -> QPixmap | None:
        """The image from memory or the disk cache, scaled to fit ``size`` (decoded at that size);
        None if not cached. The last ``_MEMORY_ENTRIES`` pixmaps stay in memory."""
        if not is_web_url(url):
            return None
        key = (url, size)
        pixmap = self._memory.get(key)
        if pixmap is not None:
            self._memory.move_to_end(key)
            return pixmap
        data = self.cache.get(url)
        if data is None:
            return None
        try:
            image = decode_image(data, self.max_dimension, fit=size)
        except ImageRefused:
            return None
        return self._remember(key, _scaled(image, size))

    def _remember(self, key: tuple[str, int], pixmap: QPixmap) -> QPixmap:
        self._memory[key] = pixmap
        while len(self._memory) > _MEMORY_ENTRIES:
            self._memory.popitem(last=False)
        return pixmap

    # -- asynchronous path ---------------------------------------------------------------------

    def request(self, url: str, target_size: int) -> None:
        """Emit ``loaded(url, pixmap)`` or ``failed(url, reason)``: at once when the image is
        cached or the URL unusable, otherwise when the fetch ends."""
        if not is_web_url(url):
            scheme = urlsplit(url).scheme if isinstance(url, str) else ""
            self.failed.emit(str(url), f"not an http(s) address ({scheme or 'no scheme'})")
            return
        pixmap = self.pixmap_for(url, target_size)
        if pixmap is not None:
            self.loaded.emit(url, pixmap)
            return
        failure = self._failures.get(url)
        if failure is not None:
            if time.monotonic() - failure[0] < _FAILURE_TTL:
                self.failed.emit(url, failure[1])
                return
            del self._failures[url]
        sizes = self._pending.get(url)
        if sizes is not None:  # already being fetched
            sizes.add(target_size)
            return
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.failed.emit(url, "no event loop is running to fetch the image")
            return
        self._pending[url] = {target_size}
        self.network_requests += 1
        task = loop.create_task(self._load(url))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _load(self, url: str) -> None:
        import asyncio

        try:
            data = await self._get(url)
            if len(data) > self.max_bytes:
                raise ImageRefused(f"the image is larger than {self.max_bytes // 1024} KiB")
            image = decode_image(data, self.max_dimension)
        except asyncio.CancelledError:
            self._pending.pop(url, None)
            raise
        except Exception as exc:  # any failure: a placeholder is shown, the reason kept
            reason = str(exc) or type(exc).__name__
            self._pending.pop(url, None)
            self._failures[url] = (time.monotonic(), reason)
            self.failed.emit(url, reason)
            return
        self.cache.put(url, data)
        sizes = self._pending.pop(url, set())
        for size in sorted(sizes):
            pixmap = self._remember((url, size), _scaled(image, size))
            self.loaded.emit(url, pixmap)

    async def _get(self, url: str) -> bytes:
        if self._fetch is not None:
            return await self._fetch(url, self.max_bytes)
        if self._client is None:
            from catalogue_desktop.core.service.client import CatalogueClient

            # The base URL is unused: fetch_bytes takes absolute URLs.
            self._client = CatalogueClient("http://localhost", retries=1, read_timeout=20.0)
        data: bytes = await self._client.fetch_bytes(url, max_bytes=self.max_bytes)
        return data

    def is_pending(self, url: str) -> bool:
        return url in self._pending

    async def aclose(self) -> None:
        """Cancel running fetches and close the default HTTP client."""
        import asyncio

        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self._pending.clear()
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()
