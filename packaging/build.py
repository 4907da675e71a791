"""Build the one-folder bundle: ``python packaging/build.py`` -> dist/catalogue-desktop/.

Runs PyInstaller on packaging/catalogue-desktop.spec from the repository root, then prints the
bundle's size and the build time. Options (each also an environment variable read by the spec):

    --debug   CATALOGUE_DESKTOP_BUILD_DEBUG=1: console, verbose imports, bootloader debug, no strip
    --plain   CATALOGUE_DESKTOP_BUILD_PLAIN=1: no trimming (the baseline size)
    --clean   empty PyInstaller's cache and build/ first (slower; use after upgrading PySide6)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "catalogue-desktop.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "pyinstaller"
APP = "catalogue-desktop"
BUNDLE = DIST / APP


def folder_mb(path: Path) -> float:
    """Size like ``du -sm`` (allocated blocks, each hard-linked file once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for p in path.rglob("*"):
        st = p.lstat()
        if (st.st_dev, st.st_ino) in seen:
            continue
        seen.add((st.st_dev, st.st_ino))
        total += st.st_blocks * 512
    return total / 2**20


def build(*, debug: bool = False, plain: bool = False, clean: bool = False, quiet: bool = False) -> Path:
    """Build the bundle; returns its folder. Raises ``RuntimeError`` if PyInstaller fails."""
    if importlib.util.find_spec("PyInstaller") is None:
        raise RuntimeError("PyInstaller is not installed: pip install -e '.[packaging]'")
    env = dict(os.environ)
    if debug:
        env["CATALOGUE_DESKTOP_BUILD_DEBUG"] = "1"
    if plain:
        env["CATALOGUE_DESKTOP_BUILD_PLAIN"] = "1"
    env.setdefault("QT_QPA_PLATFORM", "offscreen")  # the Qt hooks start Qt to query its paths
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--distpath",
        str(DIST),
        "--workpath",
        str(WORK),
        "--log-level",
        "WARN" if quiet else "INFO",
    ]
    if clean:
        cmd.append("--clean")
    cmd.append(str(SPEC))
    result = subprocess.run(cmd, cwd=ROOT, env=env, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"PyInstaller failed (exit {result.returncode})")
    if not (BUNDLE / APP).is_file():
        raise RuntimeError(f"no executable at {BUNDLE / APP}")
    return BUNDLE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debug", action="store_true", help="debug build (console, verbose imports)")
    parser.add_argument("--plain", action="store_true", help="no trimming (baseline size)")
    parser.add_argument("--clean", action="store_true", help="empty the PyInstaller cache first")
    parser.add_argument("--quiet", action="store_true", help="only PyInstaller warnings")
    args = parser.parse_args()
    start = time.perf_counter()
    try:
        bundle = build(debug=args.debug, plain=args.plain, clean=args.clean, quiet=args.quiet)
    except RuntimeError as exc:
        print(f"build: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - start
    kind = "debug" if args.debug else "plain (untrimmed)" if args.plain else "release"
    print(
        f"build: {kind} bundle {bundle.relative_to(ROOT)}/ {folder_mb(bundle):.0f} MB, "
        f"built in {elapsed:.0f} s; run {bundle.relative_to(ROOT)}/{APP} --version"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
