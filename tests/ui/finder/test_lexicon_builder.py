"""The plain words' lexicon is built on a thread of its own, never on the GUI thread; a lexicon of
tables that changed meanwhile is dropped and built again; a build that fails keeps the last one."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from catalogue_desktop.core.query.reading import Lexicon
from catalogue_desktop.ui.finder.lexicon_builder import LexiconBuilder
from tests.ui.conftest import loop_passes


class _Tables:
    """Stands in for the engine: the builder only hands it to its build function."""

    def __init__(self, city: str) -> None:
        self.city = city


def _build_on(threads: list[int], gate: threading.Event | None = None) -> Any:
    def build(finder: Any) -> Lexicon:
        threads.append(threading.get_ident())
        if gate is not None:
            assert gate.wait(5)
        if finder.city == "boom":
            raise ValueError("a bad table")
        return Lexicon(cities=frozenset({finder.city}))

    return build


def test_the_lexicon_is_built_on_another_thread_then_announced(qtbot: Any) -> None:
    threads: list[int] = []
    builder = LexiconBuilder(_build_on(threads))
    assert builder.lexicon.cities == frozenset() and not builder.busy
    builder.tables_changed()
    with qtbot.waitSignal(builder.ready, timeout=5000):
        builder.build(_Tables("Chicago"))  # type: ignore[arg-type]
    assert builder.lexicon.cities == {"Chicago"} and not builder.busy
    assert threads and threading.get_ident() not in threads
    builder.build(_Tables("Boston"))  # type: ignore[arg-type]  # (nothing changed: not again)
    assert not builder.busy and len(threads) == 1
    builder.stop()


def test_a_lexicon_of_tables_changed_meanwhile_is_built_again(qtbot: Any) -> None:
    threads: list[int] = []
    gate = threading.Event()
    builder = LexiconBuilder(_build_on(threads, gate))
    builder.tables_changed()
    old = _Tables("Chicago")
    builder.build(old)  # type: ignore[arg-type]
    builder.tables_changed()  # a table rebuilt while the thread reads the old ones
    old.city = "Dallas"  # (what the next build reads)
    gate.set()
    qtbot.waitUntil(lambda: not builder.busy and builder.lexicon.cities == {"Dallas"}, timeout=5000)
    assert len(threads) == 2
    builder.stop()


def test_a_build_that_fails_keeps_the_last_lexicon(qtbot: Any, caplog: pytest.LogCaptureFixture) -> None:
    threads: list[int] = []
    builder = LexiconBuilder(_build_on(threads))
    builder.tables_changed()
    builder.finish_now(_Tables("Chicago"))  # type: ignore[arg-type]
    assert builder.lexicon.cities == {"Chicago"}
    builder.tables_changed()
    builder.build(_Tables("boom"))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: not builder.busy, timeout=5000)
    assert builder.lexicon.cities == {"Chicago"}
    assert "lexicon could not be built: a bad table" in caplog.text
    builder.stop()


def test_while_the_thread_builds_the_gui_thread_waits_less_for_the_gil(qtbot: Any) -> None:
    import sys

    from catalogue_desktop.ui.finder.lexicon_builder import SWITCH_S

    before = sys.getswitchinterval()
    assert before != SWITCH_S
    gate = threading.Event()
    builder = LexiconBuilder(_build_on([], gate))
    builder.tables_changed()
    builder.build(_Tables("Chicago"))  # type: ignore[arg-type]
    assert sys.getswitchinterval() == SWITCH_S
    gate.set()
    qtbot.waitUntil(lambda: not builder.busy, timeout=5000)
    assert sys.getswitchinterval() == before and builder.lexicon.cities == {"Chicago"}
    builder.stop()


def test_a_build_finishing_after_stop_is_not_handed_over(qtbot: Any) -> None:
    """The window closed (``stop``) while the thread built: once ``stop`` returns the builder may
    be deleted, and the build's done callback emitted on it from its thread, a segfault in the
    suite. Counted: the signal that hands a lexicon over, never emitted after ``stop``."""
    threads: list[int] = []
    gate = threading.Event()
    builder = LexiconBuilder(_build_on(threads, gate))
    handed: list[object] = []
    builder._built.connect(lambda *args: handed.append(args))
    builder.tables_changed()
    builder.build(_Tables("Chicago"))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: bool(threads), timeout=5000)  # the thread builds
    future = builder._future
    assert future is not None
    builder.stop()
    gate.set()
    future.result(timeout=5)
    thread = next((t for t in threading.enumerate() if t.ident == threads[0]), None)
    if thread is not None:  # its done callback (the hand-over) has run once the thread ended
        thread.join(timeout=5)
    loop_passes(qtbot)  # (a queued emission would be delivered by now)
    assert handed == []
    assert builder.lexicon.cities == frozenset()
