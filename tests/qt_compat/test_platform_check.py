"""Start-up on a machine that lacks something: a platform that cannot load gets one paragraph and
exit status 2, never Qt's abort (status 134, a core dump). Each case forces a platform that
cannot load on the real command: no display, a display nothing answers on, a plugin whose
library is missing (a copy of PySide's xcb plugin needing a library that does not exist, put
first on ``QT_PLUGIN_PATH``: what Qt tries on every machine, with or without the X libraries), a
platform that does not exist; with the check before Qt (layer 1) and with Qt's own failure caught
(layer 2, the check turned off). What Qt itself logs depends on the machine (with the X libraries,
PySide's own xcb plugin loads and says it cannot connect); the tests assert what the user is told
(one paragraph, status 2, Qt's own words inside it), not Qt's exact lines. To run them as on a
machine without the X libraries (root; a private mount namespace, nothing changes outside it):
``tests/qt_compat/without_x_libraries.sh .venv/bin/python -m pytest tests/qt_compat``."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogue_desktop.qt_compat import platform_check
from catalogue_desktop.qt_compat.shared_libs import PACKAGES, RUNTIME, missing_libraries, read_elf

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's platforms")
ROOT = Path(__file__).resolve().parents[2]
PYSIDE = Path(importlib.util.find_spec("PySide6").submodule_search_locations[0])  # type: ignore[index, union-attr]
QT = PYSIDE / "Qt"
XCB = QT / "plugins" / "platforms" / "libqxcb.so"
HEAD = "catalogue-desktop: the window cannot open: "
ALTERNATIVES = (
    "Without a display, run the window offscreen (QT_QPA_PLATFORM=offscreen catalogue-desktop "
    "...: nothing is shown; for --self-test and scripts) or on a virtual display (xvfb-run -a "
    "catalogue-desktop ...; xvfb-run comes with 'sudo apt-get install xvfb xauth' or "
    "'sudo dnf install xorg-x11-server-Xvfb xauth'). The commands sync, check and export "
    "need no display."
)


def window(env: dict[str, str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The window command, as a user starts it, in ``env`` (no Qt variables of the test run)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("QT_", "DISPLAY", "WAYLAND", "XDG_SESSION", "CATALOGUE_DESKTOP"))
    }
    base.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run(
        [sys.executable, "-m", "catalogue_desktop", "--cache-dir", str(tmp_path / "c"), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def said(result: subprocess.CompletedProcess[str]) -> str:
    """The paragraph as one line (it is wrapped at 100 columns, never inside a command)."""
    assert result.returncode == platform_check.EXIT_CODE == 2, (result.returncode, result.stderr)
    assert result.stdout == ""
    text = result.stderr.strip()
    assert text.startswith(HEAD), text
    assert all(len(line) <= 100 or "'" in line for line in text.splitlines())
    assert "Reinstalling the application" not in text and "qt.qpa" not in text
    return " ".join(text.split())


@pytest.fixture
def free_display() -> str:
    """A display number nothing listens on."""
    for number in range(87, 120):
        if os.path.exists(f"/tmp/.X11-unix/X{number}"):
            continue
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(f"\0/tmp/.X11-unix/X{number}")
            except OSError:
                return f":{number}"
    pytest.skip("no free display number")


@pytest.fixture
def listening_display() -> Iterator[str]:
    """A display whose (abstract) socket accepts connections: the check sees a display there."""
    with socket.socket(socket.AF_UNIX) as listener:
        for number in range(150, 200):
            try:
                listener.bind(f"\0/tmp/.X11-unix/X{number}")
                break
            except OSError:
                continue
        else:
            pytest.skip("no free display number")
        listener.listen(8)
        yield f":{number}"


@pytest.fixture
def broken_plugin(tmp_path: Path) -> Path:
    """A plugins folder for ``QT_PLUGIN_PATH`` (searched before PySide's own, so the one Qt tries):
    a copy of PySide's xcb plugin that needs a library no machine has (its DT_NEEDED entry for
    libxcb-cursor.so.0 renamed, same length), its Qt libraries where its RUNPATH looks."""
    if not XCB.is_file():
        pytest.skip("PySide6 has no xcb plugin here")
    folder = tmp_path / "qt" / "plugins" / "platforms"
    folder.mkdir(parents=True)
    (tmp_path / "qt" / "lib").symlink_to(QT / "lib")
    data = XCB.read_bytes()
    assert data.count(b"libxcb-cursor.so.0\0") == 1
    (folder / XCB.name).write_bytes(data.replace(b"libxcb-cursor.so.0\0", b"libxcb-absent.so.0\0"))
    return folder.parent


# -- the real command, forced onto a platform that cannot load ---------------------------------------


@linux
def test_no_display_layer_1(tmp_path: Path) -> None:
    for args in ((), ("--self-test",)):  # the window and its self-test, the same
        text = said(window({"QT_QPA_PLATFORM": "xcb"}, tmp_path, *args))
        assert "there is no display (DISPLAY is not set)" in text
        assert text.endswith(ALTERNATIVES)


@linux
def test_a_display_nothing_answers_on(tmp_path: Path, free_display: str) -> None:
    text = said(window({"DISPLAY": free_display}, tmp_path))  # the default platform: xcb
    assert f"nothing answers on display {free_display} (no X server runs there)" in text
    assert text.endswith(ALTERNATIVES)


@linux
def test_a_plugin_library_that_is_missing_is_named_with_how_to_find_its_package(
    tmp_path: Path, broken_plugin: Path, listening_display: str
) -> None:
    env = {
        "QT_QPA_PLATFORM": "xcb",
        "QT_PLUGIN_PATH": str(broken_plugin),
        "DISPLAY": listening_display,
    }
    text = said(window(env, tmp_path))
    assert text.startswith(HEAD + "Qt's X11 platform plugin (xcb) needs ")
    assert "libxcb-absent.so.0" in text and "which this machine lacks" in text
    assert "display" not in text.split("which this machine lacks")[1].split(".")[0]  # the display is fine
    assert (
        "For libxcb-absent.so.0: 'apt-file search NAME' (Debian, Ubuntu) or "
        "'dnf provides */NAME' (Fedora) names the package."
    ) in text


def qt_s_words(text: str) -> str:
    """What the paragraph quotes of Qt ("(Qt said: ...)"); it is there, and not empty."""
    assert "(Qt said: " in text, text
    words = text.split("(Qt said: ", 1)[1].split(".)", 1)[0]
    assert words.strip() and " ;" not in words and ";;" not in words, words
    return words


@linux
def test_qt_s_own_failure_is_caught_too_layer_2(tmp_path: Path, broken_plugin: Path) -> None:
    """The check turned off: Qt tries the plugin, fails and would abort; the message handler
    around the QApplication says the same paragraph, with what Qt said, and exits 2."""
    env = {
        "QT_QPA_PLATFORM": "xcb",
        "QT_PLUGIN_PATH": str(broken_plugin),
        platform_check.SWITCH: "0",
    }
    text = said(window(env, tmp_path))
    assert "libxcb-absent.so.0" in text and "there is no display (DISPLAY is not set)" in text
    assert 'Qt platform plugin "xcb"' in qt_s_words(text)
    assert text.endswith(ALTERNATIVES)


@linux
def test_qt_s_own_failure_with_this_machine_s_own_plugin_layer_2(tmp_path: Path) -> None:
    """The check turned off, no display, PySide's own xcb plugin: with the X libraries Qt loads it
    and it cannot connect; without them it cannot load. Either way one paragraph, status 2, what
    Qt said; and the libraries this machine lacks, if any, named with their packages."""
    if not XCB.is_file():
        pytest.skip("PySide6 has no xcb plugin here")
    text = said(window({"QT_QPA_PLATFORM": "xcb", platform_check.SWITCH: "0"}, tmp_path))
    assert "there is no display (DISPLAY is not set)" in text
    assert 'Qt platform plugin "xcb"' in qt_s_words(text)
    lacking = missing_libraries(XCB)
    for name in lacking or []:
        assert name in text
    assert ("which this machine lacks" in text) == bool(lacking)
    assert text.endswith(ALTERNATIVES)


def test_a_platform_that_does_not_exist(tmp_path: Path) -> None:
    text = said(window({"QT_QPA_PLATFORM": "nosuchplatform"}, tmp_path))
    assert text.startswith(
        HEAD + 'Qt could not start its platform plugin "nosuchplatform" (the plugins there are: '
    )
    assert "offscreen" in text.split("(the plugins there are: ")[1].split(")")[0]
    assert '(Qt said: Could not find the Qt platform plugin "nosuchplatform" in "".)' in text
    assert text.endswith(ALTERNATIVES)


# -- the parts ---------------------------------------------------------------------------------------


def test_plugin_folders_are_searched_in_qt_s_order(tmp_path: Path) -> None:
    """QT_PLUGIN_PATH's, PySide's own, then QT_QPA_PLATFORM_PLUGIN_PATH (Qt loads the first)."""
    first, last = tmp_path / "first", tmp_path / "last"
    dirs = platform_check.plugin_dirs(
        {"QT_QPA_PLATFORM_PLUGIN_PATH": str(last), "QT_PLUGIN_PATH": str(first)}
    )
    assert dirs == [first / "platforms", QT / "plugins" / "platforms", last]


def test_the_platforms_qt_tries() -> None:
    tries = platform_check.requested_platforms
    assert tries({}) == ["xcb"]
    assert tries({"DISPLAY": ":0"}) == ["xcb"]
    assert tries({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}) == ["wayland", "xcb"]
    assert tries({"XDG_SESSION_TYPE": "wayland"}) == ["wayland", "xcb"]
    assert tries({"QT_QPA_PLATFORM": "offscreen"}) == ["offscreen"]
    assert tries({"QT_QPA_PLATFORM": "wayland;xcb:option=1", "DISPLAY": ":0"}) == ["wayland", "xcb"]


@linux
def test_offscreen_and_unknown_platforms_are_not_judged() -> None:
    for value in ("offscreen", "minimal", "vnc", "xcb;offscreen"):
        assert platform_check.check({"QT_QPA_PLATFORM": value}) is None, value
    assert platform_check.check({platform_check.SWITCH: "0"} | {"QT_QPA_PLATFORM": "offscreen"}) is None
    platform_check.check_window_platform({"QT_QPA_PLATFORM": "xcb", platform_check.SWITCH: "0"})


def test_the_paragraph_names_the_packages_of_both_distributions() -> None:
    text = " ".join(
        platform_check.paragraph(
            [
                "Qt's X11 platform plugin (xcb) needs libxcb-icccm.so.4 and libxcb-keysyms.so.1, which "
                "this machine lacks"
            ],
            ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"],
        ).split()
    )
    assert text == (
        HEAD + "Qt's X11 platform plugin (xcb) needs libxcb-icccm.so.4 and libxcb-keysyms.so.1, "
        "which this machine lacks. Install them with 'sudo apt-get install libxcb-icccm4 "
        "libxcb-keysyms1' (Debian, Ubuntu) or 'sudo dnf install xcb-util-wm xcb-util-keysyms' "
        "(Fedora). " + ALTERNATIVES
    )


def test_a_library_pyside_itself_needs_is_explained_too() -> None:
    error = ImportError("libEGL.so.1: cannot open shared object file: No such file or directory")
    text = " ".join(platform_check.explain(error).split())  # type: ignore[union-attr]
    assert text.startswith(
        HEAD + "Qt needs libEGL.so.1, which this machine lacks. Install it with "
        "'sudo apt-get install libegl1' (Debian, Ubuntu) or 'sudo dnf install "
        "libglvnd-egl' (Fedora)."
    )
    assert platform_check.explain(ImportError("No module named 'httpx'")) is None
    assert platform_check.explain(ValueError("x")) is None


def _system_needs() -> set[str]:
    """The system libraries the window's Qt needs: PySide's modules, Qt's libraries they use, the
    xcb and wayland plugins and their Qt libraries (Qt's own files, bundled, left out)."""
    shiboken = Path(importlib.util.find_spec("shiboken6").submodule_search_locations[0])  # type: ignore[index, union-attr]
    bundled = set(os.listdir(QT / "lib")) | set(os.listdir(PYSIDE)) | set(os.listdir(shiboken))
    files = [*(PYSIDE.glob(f"Qt{m}.*.so") for m in ("Core", "Gui", "Widgets"))]
    paths = [p for group in files for p in group]
    paths += [
        QT / "lib" / f"libQt6{m}.so.6" for m in ("Core", "Gui", "Widgets", "DBus", "XcbQpa", "WaylandClient")
    ]
    paths += [QT / "plugins" / "platforms" / f for f in ("libqxcb.so", "libqwayland.so")]
    needs: set[str] = set()
    for path in paths:
        info = read_elf(path)
        if info is not None:
            needs |= {n for n in info.needed if n not in bundled and not n.startswith(RUNTIME)}
    return needs


@linux
def test_every_library_the_window_s_qt_needs_has_its_packages_named() -> None:
    needs = _system_needs()
    assert {"libxcb-cursor.so.0", "libxcb-icccm.so.4", "libGL.so.1"} <= needs  # it read the files
    assert needs <= set(PACKAGES), sorted(needs - set(PACKAGES))


@linux
def test_readme_s_first_command_paragraph_installs_what_the_x11_window_needs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("## Two commands", 1)[1].split("Run the tests", 1)[0]
    match = re.search(r"sudo apt-get install ((?:[\w.+-]+\s*\\?\s*)+)", first)
    assert match, "README's first command paragraph gives no apt-get line"
    listed = set(match.group(1).replace("\\", " ").split())
    wayland_only = {"libwayland-client.so.0", "libwayland-cursor.so.0"}
    wanted = {PACKAGES[n][0] for n in _system_needs() - wayland_only}
    assert wanted <= listed, sorted(wanted - listed)
    assert "python3-venv" in listed


@linux
def test_the_missing_libraries_of_the_real_plugin_are_what_the_loader_says(tmp_path: Path) -> None:
    """Against ``ldd`` (the loader itself), where it is installed."""
    ldd = subprocess.run(["ldd", str(XCB)], capture_output=True, text=True, check=False)
    if ldd.returncode != 0:
        pytest.skip("no ldd")
    lacking = {line.split()[0] for line in ldd.stdout.splitlines() if "not found" in line}
    assert set(missing_libraries(XCB) or []) == lacking
