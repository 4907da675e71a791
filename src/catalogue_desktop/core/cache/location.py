"""Which cache a command or the window uses: the service's, or the demo catalogue's beside it.

The window keeps the bundled demo catalogue's data in the ``demo`` folder of the cache directory,
never mixed with a real service's data (``ui.shell.session``); the command line's offline commands
read the same file with ``--demo`` (or by default, when the window showed the demo last:
``cli.connection``). ``never_synced`` is the message when the cache asked for holds
nothing yet: it names both caches and how to pick one, since the window's demo data is where a
newcomer's first export looks for it.
"""

from __future__ import annotations

import os
from pathlib import Path

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR, FILE_NAME
from catalogue_desktop.core.records.kinds import Kind

DEMO_FOLDER = "demo"


def default_cache_dir() -> Path:
    """``$CATALOGUE_DESKTOP_CACHE_DIR``, else the platform's user cache dir."""
    if env := os.environ.get(ENV_CACHE_DIR):
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("catalogue-desktop", appauthor=False))


def cache_dir(base: str | Path | None = None, *, demo: bool = False) -> Path:
    """The cache directory: ``base`` (default: the platform's, or ``$CATALOGUE_DESKTOP_CACHE_DIR``),
    or its ``demo`` folder for the demo catalogue."""
    folder = Path(base).expanduser() if base else default_cache_dir()
    return folder / DEMO_FOLDER if demo else folder


def store_file(base: str | Path | None = None, *, demo: bool = False) -> Path:
    """The store file of :func:`cache_dir`."""
    return cache_dir(base, demo=demo) / FILE_NAME


def never_synced(kind: Kind, path: Path, *, demo: bool) -> str:
    """One line: ``kind`` is not in the store at ``path``; where the other cache is, how to pick."""
    if demo:
        service = path.parent.parent / FILE_NAME
        return (
            f"{kind.value} are not in the demo catalogue's cache {path} yet: open the window on "
            f"the demo catalogue once ('catalogue-desktop --demo') to fill it. --profile NAME reads "
            f"another catalogue's cache, --cache-dir DIR another one (the service's: {service})"
        )
    demo_path = path.parent / DEMO_FOLDER / FILE_NAME
    return (
        f"{kind.value} were never synced into {path}, the service's cache; run "
        f"'catalogue-desktop sync --base-url URL' first. The window's demo catalogue is cached "
        f"in {demo_path}: add --demo to use it; --cache-dir DIR picks another cache"
    )
