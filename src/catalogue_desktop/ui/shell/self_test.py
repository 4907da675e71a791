"""``catalogue-desktop --self-test [--base-url URL]``: open the real window on a temporary cache,
sync from the demo catalogue (or the given service), and check that it works end to end.

One line per check (PASS/FAIL), exit code 0 or 1. Works with ``QT_QPA_PLATFORM=offscreen``;
never touches the user's cache or settings.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, SignalInstance
from PySide6.QtWidgets import QAbstractButton, QLabel, QTextBrowser, QTextEdit, QTreeView, QWidget

from catalogue_desktop.core.connection.settings import COMMAND_LINE_OPTIONS
from catalogue_desktop.core.formats.text import terminal_text
from catalogue_desktop.core.records.kinds import ALL_KINDS
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.shell.session import AppSession, Options

SYNC_TIMEOUT = 60.0


async def wait_signal(signal: SignalInstance, timeout: float) -> Any:
    """Wait for one emission of ``signal`` (its first argument, if any)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def fire(*args: Any) -> None:
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


async def self_test(asked: Options, cache_dir: Path) -> bool:
    report = Report()
    started = time.perf_counter()
    settings = Settings(QSettings(str(cache_dir / "settings.ini"), QSettings.Format.IniFormat))
    base_url = asked.base_url
    options = Options(
        base_url=base_url,
        demo=not base_url,
        cache_dir=str(cache_dir),
        currency=asked.currency,
        # the connection options (README: At work), so that a self-test goes the way the window would
        **{name: getattr(asked, name) for name in COMMAND_LINE_OPTIONS},
    )
    session = AppSession(options, settings=settings)
    try:
        window = session.start()
        report.check(window.isVisible(), f"window shown ({'demo catalogue' if session.demo else base_url})")
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


async def run_self_test(asked: Options) -> int:
    """The self-test with the service (and currency) ``asked`` names, on a cache of its own."""
    with tempfile.TemporaryDirectory(prefix="catalogue-self-test-") as tmp:
        ok = await self_test(asked, Path(tmp))
    print("self-test passed" if ok else "self-test FAILED", flush=True)  # (no data in it)
    return 0 if ok else 1
