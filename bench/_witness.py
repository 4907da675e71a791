"""The stall benchmark's baseline: an empty PySide6 window in its own process, whose 5 ms
``QTimer`` (PreciseTimer) records every gap while the app's window, in another process, refreshes
the catalogue beside it. It does no work at all, so its gaps are what the machine alone does to
a Qt event loop under the same load at the same moment (the host taking a CPU away, other
processes, the kernel). Started and stopped by ``_gui.py stall``.

It runs until its stdin closes, then prints one JSON line: every gap over ``_stalls.STUCK``
(start and length, ``time.perf_counter``: CLOCK_MONOTONIC, the same clock in every process on
Linux) and a histogram summary per phase span passed back on stdin as ``phase START END`` lines.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from _stalls import PERIOD_MS, STUCK


def main() -> dict[str, Any]:
    from PySide6.QtCore import QSocketNotifier, Qt, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.resize(640, 480)
    window.show()
    ticks: list[tuple[float, float]] = []  # (start, gap) of every tick
    last = time.perf_counter()

    def tick() -> None:
        nonlocal last
        now = time.perf_counter()
        ticks.append((last, now - last))
        last = now

    timer = QTimer(interval=PERIOD_MS)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    timer.start()
    lines: list[str] = []
    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)

    def readable() -> None:
        line = sys.stdin.readline()
        if line:
            lines.append(line)
        else:
            notifier.setEnabled(False)
            app.quit()

    notifier.activated.connect(readable)
    print("started", flush=True)
    app.exec()
    timer.stop()
    phases: dict[str, Any] = {}
    for line in lines:
        name, start, end = line.split()
        inside = sorted(g * 1000 for s, g in ticks if float(start) <= s < float(end))
        phases[name] = {
            "ticks": len(inside),
            "max_ms": inside[-1] if inside else 0.0,
            "p99_ms": inside[min(len(inside) - 1, int(len(inside) * 0.99))] if inside else 0.0,
            "over_50ms": sum(1 for g in inside if g > 50),
        }
    return {"phases": phases, "stalls": [(s, g) for s, g in ticks if g > STUCK]}


if __name__ == "__main__":
    print(json.dumps(main()), flush=True)
