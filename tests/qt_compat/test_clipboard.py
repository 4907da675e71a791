"""``qt_compat.clipboard``: a QMimeData made in Python left on the clipboard crashes the process
at exit (the quirk), and ``put_mime_data`` leaves it exiting cleanly (the workaround)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_PUT = (
    "from PySide6.QtCore import QMimeData\n"
    "from PySide6.QtWidgets import QApplication\n"
    "app = QApplication([])\n"
    "mime = QMimeData(); mime.setText('Offer'); mime.setHtml('<b>Offer</b>')\n"
)


def _run(body: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-c", _PUT + body], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_put_mime_data_leaves_the_process_exiting_cleanly() -> None:
    result = _run(
        "from catalogue_desktop.qt_compat.clipboard import put_mime_data\n"
        "put_mime_data(mime)\n"
        "assert QApplication.clipboard().mimeData().html() == '<b>Offer</b>'\n"
        "print('put')\n"
    )
    assert (result.returncode, result.stdout.strip()) == (0, "put"), result.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="the quirk was measured on Linux")
def test_the_quirk_is_still_there() -> None:
    """Remove the workaround when this fails on an upgrade (the crash is gone)."""
    result = _run("QApplication.clipboard().setMimeData(mime)\n")
    assert result.returncode == -11, (result.returncode, result.stderr)
