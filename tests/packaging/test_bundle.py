"""Build the one-folder bundle (or reuse a fresh one) and smoke-test it: packaging/smoke_test.py.

    CATALOGUE_DESKTOP_RUN_PACKAGING=1 python -m pytest -m packaging
    CATALOGUE_DESKTOP_RUN_PACKAGING=1 CATALOGUE_DESKTOP_REUSE_BUNDLE=1 python -m pytest -m packaging

With CATALOGUE_DESKTOP_REUSE_BUNDLE=1 an existing dist/catalogue-desktop/ is reused when it is newer
than every file under src/, resources/ and packaging/ (and pyproject.toml); otherwise it is rebuilt.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
MAX_BUNDLE_MB = 120


def _load(name: str) -> ModuleType:
    # By path: a top-level ``packaging`` import would find the PyPI package of that name.
    spec = importlib.util.spec_from_file_location(f"catalogue_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _newest_source() -> float:
    files = [ROOT / "pyproject.toml"]
    for top in ("src", "resources", "packaging"):
        files += [p for p in (ROOT / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return max(p.stat().st_mtime for p in files)


@pytest.fixture(scope="module")
def bundle() -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed: pip install -e '.[packaging]'")
    build = _load("build")
    exe = build.BUNDLE / build.APP
    reuse = os.environ.get("CATALOGUE_DESKTOP_REUSE_BUNDLE", "") not in ("", "0")
    if reuse and exe.is_file() and exe.stat().st_mtime > _newest_source():
        print(f"\nreusing {build.BUNDLE} (newer than the sources)")
        return build.BUNDLE
    if reuse:
        print(f"\n{build.BUNDLE} missing or older than the sources: rebuilding")
    start = time.perf_counter()
    built = build.build(quiet=True)
    print(f"\nbuilt {built} ({build.folder_mb(built):.0f} MB) in {time.perf_counter() - start:.0f} s")
    return built


def test_bundle_size(bundle: Path) -> None:
    size = _load("build").folder_mb(bundle)
    print(f"\n{bundle}: {size:.0f} MB")
    assert size < MAX_BUNDLE_MB, f"one-folder bundle is {size:.0f} MB (limit {MAX_BUNDLE_MB} MB)"


def test_bundle_holds_no_unused_qt(bundle: Path) -> None:
    """The trimmed Qt parts stay out (QML/Quick, QtNetwork, QtOpenGL, translations, GTK theme)."""
    qt = bundle / "_internal" / "PySide6" / "Qt"
    unwanted = [
        p.relative_to(bundle)
        for pattern in (
            "lib/libQt6Qml*",
            "lib/libQt6Quick*",
            "lib/libQt6Network*",
            "lib/libQt6OpenGL*",
            "lib/libQt6Pdf*",
            "translations/*",
            "qml/*",
            "plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
            "plugins/platformthemes/libqgtk3.so",
        )
        for p in qt.glob(pattern)
    ]
    assert not unwanted
    assert (qt / "plugins" / "platforms" / "libqoffscreen.so").is_file()
    assert (qt / "plugins" / "imageformats" / "libqjpeg.so").is_file()
    dangling = [p for p in bundle.rglob("*") if p.is_symlink() and not p.exists()]
    assert not dangling, f"symlinks to files not collected: {dangling}"


def test_smoke(bundle: Path) -> None:
    smoke = _load("smoke_test").SmokeTest(bundle)
    start = time.perf_counter()
    ok = smoke.run_all()
    report = smoke.report()
    print(f"\n{report}\nsmoke test took {time.perf_counter() - start:.0f} s")
    assert ok, report
