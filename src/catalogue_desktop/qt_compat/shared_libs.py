"""Which shared libraries a Qt plugin needs that this machine lacks (Linux; stdlib only, no Qt).

``missing_libraries(plugin)`` reads the plugin's ELF dynamic section (``DT_NEEDED``, its
``RUNPATH``), and those of the Qt libraries it needs from its own folder (``libQt6XcbQpa``), and
looks each library up where the dynamic loader would: ``LD_LIBRARY_PATH``, the ``RUNPATH``, the
loader's cache (``/etc/ld.so.cache``) and the system folders. A few stat calls and reads of a few
KiB: it runs before every window start on Linux (measured with the rest of the platform check:
``qt_compat.platform_check``). ``PACKAGES`` names the Debian/Ubuntu and Fedora package of each
library the window's Qt needs beyond the C runtime (``tests/qt_compat/test_platform_check.py``
keeps it complete for the PySide6 installed).
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Iterable
from pathlib import Path

# soname -> (Debian/Ubuntu package, Fedora package)
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libz.so.1": ("zlib1g", "zlib"),
    "libzstd.so.1": ("libzstd1", "libzstd"),
}
# The C runtime: always there where Python runs.
RUNTIME = (
    "libc.so",
    "libm.so",
    "libdl.so",
    "libpthread.so",
    "librt.so",
    "libstdc++.so",
    "libgcc_s.so",
    "ld-linux",
)
_DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 1, 5, 10, 15, 29
_PT_LOAD, _PT_DYNAMIC = 1, 2
_SYSTEM_DIRS = ("/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib")
_LD_CACHE = "/etc/ld.so.cache"


class ElfInfo:
    """What the dynamic loader reads of one ELF file: the libraries it needs, where it looks."""

    def __init__(self, needed: list[str], runpath: list[str]) -> None:
        self.needed = needed
        self.runpath = runpath


def read_elf(path: Path) -> ElfInfo | None:
    """``path``'s ``DT_NEEDED`` and ``RUNPATH`` (``$ORIGIN`` expanded); None if it cannot be read
    as ELF."""
    try:
        with open(path, "rb") as f:
            ident = f.read(64)
            if len(ident) < 64 or ident[:4] != b"\x7fELF" or ident[4] not in (1, 2):
                return None
            wide, end = ident[4] == 2, "<" if ident[5] == 1 else ">"
            if wide:
                (phoff,) = struct.unpack_from(end + "Q", ident, 32)
                phentsize, phnum = struct.unpack_from(end + "HH", ident, 54)
            else:
                (phoff,) = struct.unpack_from(end + "I", ident, 28)
                phentsize, phnum = struct.unpack_from(end + "HH", ident, 42)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
            loads, dynamic = [], None
            for i in range(phnum):
                if wide:
                    p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
                        end + "IIQQQQ", table, i * phentsize
                    )
                else:
                    p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
                        end + "IIIII", table, i * phentsize
                    )
                if p_type == _PT_LOAD:
                    loads.append((p_vaddr, p_offset, p_filesz))
                elif p_type == _PT_DYNAMIC:
                    dynamic = (p_offset, p_filesz)
            if dynamic is None:
                return ElfInfo([], [])
            f.seek(dynamic[0])
            data = f.read(dynamic[1])
            step, fmt = (16, end + "qQ") if wide else (8, end + "iI")
            tags: list[tuple[int, int]] = []
            for offset in range(0, len(data) - step + 1, step):
                tag, value = struct.unpack_from(fmt, data, offset)
                if tag == 0:
                    break
                tags.append((tag, value))
            strtab = next((v for t, v in tags if t == _DT_STRTAB), None)
            strsz = next((v for t, v in tags if t == _DT_STRSZ), 0)
            where = next(
                (o + strtab - v for v, o, s in loads if strtab is not None and v <= strtab < v + s), None
            )
            if where is None:
                return None
            f.seek(where)
            strings = f.read(strsz)
    except (OSError, struct.error):
        return None

    def text(offset: int) -> str:
        return strings[offset : strings.index(b"\0", offset)].decode("utf-8", "replace")

    origin = str(path.resolve().parent)
    paths = [text(v) for t, v in tags if t in (_DT_RUNPATH, _DT_RPATH)]
    runpath = [
        p.replace("$ORIGIN", origin).replace("${ORIGIN}", origin)
        for entry in paths
        for p in entry.split(":")
        if p
    ]
    return ElfInfo([text(v) for t, v in tags if t == _DT_NEEDED], runpath)


class Resolver:
    """Finds libraries by name as the dynamic loader would (the loader's cache read once)."""

    def __init__(self, extra_dirs: Iterable[str] = ()) -> None:
        env = os.environ.get("LD_LIBRARY_PATH", "")
        self.dirs = [d for d in env.split(":") if d] + list(extra_dirs)
        bundle = getattr(sys, "_MEIPASS", None)
        if bundle:  # a PyInstaller bundle carries some system libraries itself
            self.dirs.append(bundle)
        self._cache: bytes | None = None
        self._listings: dict[str, frozenset[str]] = {}

    def names(self, folder: str) -> frozenset[str]:
        """The file names in ``folder`` (listed once: one call, not a stat per library)."""
        listing = self._listings.get(folder)
        if listing is None:
            try:
                listing = frozenset(os.listdir(folder))
            except OSError:
                listing = frozenset()
            self._listings[folder] = listing
        return listing

    def _loader_cache(self) -> bytes:
        """The loader's cache: its string table holds each library's name and path
        (``/usr/lib/x86_64-linux-gnu/libxcb.so.1``), each ending in a NUL byte."""
        if self._cache is None:
            try:
                self._cache = Path(_LD_CACHE).read_bytes()
            except OSError:
                self._cache = b""
        return self._cache

    def found(self, name: str, runpath: Iterable[str] = ()) -> bool:
        if name.startswith(RUNTIME):
            return True
        if any(name in self.names(folder) for folder in (*runpath, *self.dirs)):
            return True
        cache, key = self._loader_cache(), name.encode()
        if b"\0" + key + b"\0" in cache or b"/" + key + b"\0" in cache:
            return True
        machine = os.uname().machine  # (not in the cache: the loader's default folders)
        return any(
            name in self.names(folder)
            for base in _SYSTEM_DIRS
            for folder in (base, f"{base}/{machine}-linux-gnu")
        )


def missing_libraries(plugin: Path, resolver: Resolver | None = None) -> list[str] | None:
    """The libraries ``plugin`` (or a Qt library it needs from beside Qt) lacks; None if it cannot
    be read (then nothing is known)."""
    resolver = resolver or Resolver()
    info = read_elf(plugin)
    if info is None:
        return None
    missing: list[str] = []
    for name in info.needed:
        folder = next((d for d in info.runpath if name in resolver.names(d)), None)
        if folder is not None:
            if name.startswith("libQt6") and ("Qpa" in name or "Wayland" in name):
                inner = read_elf(Path(folder, name))  # the platform's own Qt library
                if inner is not None:
                    missing += [
                        n for n in inner.needed if not resolver.found(n, inner.runpath) and n not in missing
                    ]
            continue
        if not resolver.found(name, info.runpath) and name not in missing:
            missing.append(name)
    return missing


def packages(names: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """(Debian/Ubuntu packages, Fedora packages, names of no known package) for ``names``."""
    debian: list[str] = []
    fedora: list[str] = []
    unknown: list[str] = []
    for name in names:
        pair = PACKAGES.get(name)
        if pair is None:
            unknown.append(name)
            continue
        if pair[0] not in debian:
            debian.append(pair[0])
        if pair[1] not in fedora:
            fedora.append(pair[1])
    return debian, fedora, unknown
