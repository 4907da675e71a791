"""``catalogue-desktop --self-test [--base-url URL | --profile NAME] [--offline]``: open the real
window on a temporary cache, sync from the demo catalogue (or the given service, or the catalogue
NAME with its connection), and check that it works end to end.

With ``--offline`` nothing is contacted: the window opens on a copy of the catalogue's cache
(NAME's, the address's, or the demo's) and shows what it holds. One line per check (PASS/FAIL),
exit code 0 or 1. Works with ``QT_QPA_PLATFORM=offscreen``; never changes the user's cache or
settings (it reads the catalogue NAME from ``profiles.json`` and copies its cache).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, SignalInstance
from PySide6.QtWidgets import QAbstractButton, QLabel, QTextBrowser, QTextEdit, QTreeView, QWidget

from catalogue_desktop.core.cache import location as caches
from catalogue_desktop.core.connection import profiles
from catalogue_desktop.core.connection.addresses import redact
from catalogue_desktop.core.connection.connection_settings import COMMAND_LINE_OPTIONS
from catalogue_desktop.core.connection.profiles import Profile
from catalogue_desktop.core.formats.drawn_text import terminal_text
from catalogue_desktop.core.records.kinds import ALL_KINDS
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.shell.options import Options
from catalogue_desktop.ui.shell.session import AppSession
from catalogue_desktop.ui.shell.syncing import ServicePlace

SYNC_TIMEOUT = 60.0


async def wait_signal(signal: SignalInstance, timeout: float) -> Any:
    """Wait for one emission of ``signal`` (its first argument, if any)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def fire(*args: object) -> None:
        if not future.done():
            future.set_result(args[0] if args else None)

    signal.connect(fire)
    try:
        return await asyncio.wait_for(future, timeout)
    finally:
        signal.disconnect(fire)


def rendered_text(widget: QWidget) -> str:
    """The visible text a widget tree shows (labels, text browsers, tree items)."""
    parts: list[str] = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        if isinstance(child, QLabel):
            parts.append(child.text())
        elif isinstance(child, (QTextBrowser, QTextEdit)):
            parts.append(child.toPlainText())
        elif isinstance(child, QAbstractButton):
            parts.append(child.text())
        elif isinstance(child, QTreeView) and child.model() is not None:
            model = child.model()
            parts.extend(str(model.index(r, 0).data() or "") for r in range(model.rowCount()))
    return "\n".join(p for p in parts if p)


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ok = True

    def check(self, passed: bool, what: str) -> bool:
        self.ok = self.ok and passed
        line = f"{'PASS' if passed else 'FAIL'}  {what}"
        self.lines.append(line)
        print(terminal_text(line), flush=True)
        return passed


def asked_profile(asked: Options) -> Profile | None:
    """The catalogue ``--profile NAME`` names, read from the user's ``profiles.json`` (never
    written); None without one. ProfileError (said by the command) when there is none so named."""
    if not asked.profile:
        return None
    folder = profiles.config_dir()
    legacy = profiles.legacy_base_url(folder / profiles.SETTINGS_FILE)
    return profiles.Profiles.load(folder / profiles.FILE_NAME, legacy).get(asked.profile)


def cache_of(profile: Profile | None, base_url: str | None, root: str | None) -> Path:
    """The cache folder the window opens under ``root`` for the catalogue NAME, an address, or the demo."""
    if profile is not None:
        return ServicePlace.of(profile, root).cache_dir
    return caches.cache_dir(root, demo=not base_url)


def copy_cache(source: Path, target: Path) -> bool:
    """A consistent copy of the store ``source`` at ``target`` (SQLite's backup: the user's cache
    is only read); False when there is none."""
    if not source.is_file():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    reading = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    with contextlib.closing(reading) as src, contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
    return True


async def self_test(asked: Options, cache_dir: Path) -> bool:
    report = Report()
    started = time.perf_counter()
    settings = Settings(QSettings(str(cache_dir / "settings.ini"), QSettings.Format.IniFormat))
    profile = asked_profile(asked)
    if profile is not None:  # the catalogue NAME, its connection and (offline) its cache
        body = {"current": profile.name, "profiles": [profile.to_json()]}
        settings.profiles_path.write_text(json.dumps(body), encoding="utf-8")
    base_url = asked.base_url
    options = Options(
        base_url=base_url,
        demo=not base_url and (profile is None or profile.demo),
        offline=asked.offline,
        cache_dir=str(cache_dir),
        currency=asked.currency,
        profile=profile.name if profile is not None else None,
        # the connection options (README: At work), so that a self-test goes the way the window would
        **{name: getattr(asked, name) for name in COMMAND_LINE_OPTIONS},
    )
    if asked.offline:  # nothing is contacted: the catalogue's own cache is shown (a copy of it)
        real = caches.store_file(cache_of(profile, base_url, asked.cache_dir))
        mine = caches.store_file(cache_of(profile, base_url, str(cache_dir)))
        copied = await asyncio.to_thread(copy_cache, real, mine)
        if not report.check(copied, f"offline: a cached catalogue to show ({real})"):
            return False
    session = AppSession(options, settings=settings)
    try:
        window = session.start()
        shown = "demo catalogue" if session.demo else (profile.name if profile else redact(base_url or ""))
        report.check(window.isVisible(), f"window shown ({shown})")
        if asked.offline:
            if not session.loaded:
                try:
                    await wait_signal(session.ready, SYNC_TIMEOUT)
                except TimeoutError:
                    report.check(False, f"cached catalogue read within {SYNC_TIMEOUT:.0f} s")
                    return False
            report.check(True, "offline: the service is not contacted")
        elif not await _synced(session, report):
            return False
        await asyncio.sleep(0.3)  # the reloads after the outcomes (chunked, on the loop)
        for _ in range(100):
            if all(session.loader.rowsets[k] for k in ALL_KINDS):  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.05)
        for kind in ALL_KINDS:
            tab = window.tab(kind)
            rows = tab.model.rowCount()
            if not report.check(rows > 0, f"{kind.label}: {rows:,} rows in the table"):
                continue
            window.show_tab(kind)
            record_id = tab.model.record_id(0)
            tab.select_record(record_id)
            await asyncio.sleep(0)
            text = rendered_text(tab.detail)
            title = tab.model.rowset.title(tab.model.source_row(0))
            report.check(
                len(text.strip()) > 20 and title in text,
                f"{kind.label}: details of #{record_id} render ({len(text):,} characters)",
            )
    finally:
        await session.aclose()
    report.check(True, f"finished in {time.perf_counter() - started:.1f} s")
    return report.ok


async def _synced(session: AppSession, report: Report) -> bool:
    """Wait for the sync and check it (False: it did not finish)."""
    try:
        sync_report = await wait_signal(session.synced, SYNC_TIMEOUT)
    except TimeoutError:
        report.check(False, f"sync finished within {SYNC_TIMEOUT:.0f} s")
        return False
    statuses = {k.value: o.status for k, o in sync_report.collections.items()} if sync_report else {}
    ok = bool(statuses) and all(s in ("updated", "unchanged", "partial") for s in statuses.values())
    failed = {
        k: o.error
        for k, o in (sync_report.collections.items() if sync_report else [])
        if o.status == "failed"
    }
    report.check(
        ok, f"sync: {len(statuses)} collections refreshed" + (f"; failed: {failed}" if failed else "")
    )
    return True


async def run_self_test(asked: Options) -> int:
    """The self-test with the service (and currency) ``asked`` names, on a cache of its own."""
    with tempfile.TemporaryDirectory(prefix="catalogue-self-test-") as tmp:
        ok = await self_test(asked, Path(tmp))
    print("self-test passed" if ok else "self-test FAILED", flush=True)  # (no data in it)
    return 0 if ok else 1
