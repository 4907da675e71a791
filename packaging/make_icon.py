"""Draw the application icon with QPainter (offscreen) and write the icon set to resources/icons/.

Writes ``catalogue-desktop-<N>.png`` for N in 16..256 (each size drawn on its own, so the small
ones stay crisp), plus ``catalogue-desktop.ico`` (Windows) and ``catalogue-desktop.icns`` (macOS),
both simply containers of the same PNGs. The output is committed; re-run only to change the design:

    QT_QPA_PLATFORM=offscreen python packaging/make_icon.py
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
)

SIZES = (16, 24, 32, 48, 64, 128, 256)
NAME = "catalogue-desktop"
ICON_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"

TOP = QColor("#2f6fde")
BOTTOM = QColor("#1c3f8f")
CARD = QColor("#ffffff")
LINE = QColor("#9db7e8")
ACCENT = QColor("#f5a623")


def draw(size: int) -> QImage:
    """The icon at ``size`` x ``size`` px: a blue rounded tile holding a white catalogue card."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = size / 256.0  # design grid is 256 x 256

    # Tile with a vertical gradient.
    margin = 8 * s if size >= 32 else 0.5
    tile = QRectF(margin, margin, size - 2 * margin, size - 2 * margin)
    gradient = QLinearGradient(tile.topLeft(), tile.bottomLeft())
    gradient.setColorAt(0.0, TOP)
    gradient.setColorAt(1.0, BOTTOM)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(gradient))
    p.drawRoundedRect(tile, 48 * s, 48 * s)

    # The card.
    card = QRectF(56 * s, 44 * s, 144 * s, 168 * s)
    p.setBrush(CARD)
    p.drawRoundedRect(card, 14 * s, 14 * s)

    # Accent tab (a bookmark) on the card's top-right corner.
    tab = QPainterPath()
    tab.moveTo(QPointF(148 * s, 44 * s))
    tab.lineTo(QPointF(180 * s, 44 * s))
    tab.lineTo(QPointF(180 * s, 96 * s))
    tab.lineTo(QPointF(164 * s, 84 * s))
    tab.lineTo(QPointF(148 * s, 96 * s))
    tab.closeSubpath()
    p.setBrush(ACCENT)
    p.drawPath(tab)

    # Catalogue entries: a bullet and a line each; fewer, bolder lines at small sizes.
    rows = (112, 144, 176) if size >= 32 else (120, 168)
    weight = max(14 * s, 2.0)
    for y in rows:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(BOTTOM)
        p.drawEllipse(QPointF(84 * s, y * s), weight * 0.6, weight * 0.6)
        pen = QPen(LINE, weight, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawLine(QPointF(108 * s, y * s), QPointF(172 * s, y * s))
    p.end()
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError("PNG encoding failed")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding PNG-compressed images (supported since Windows Vista)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for n in sizes:
        blob = pngs[n]
        dim = 0 if n >= 256 else n  # 0 means 256
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        blobs += blob
        offset += len(blob)
    return header + entries + blobs


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns holding PNG images (icp4=16, icp5=32, icp6=64, ic07=128, ic08=256)."""
    types = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08"}
    body = b"".join(types[n] + struct.pack(">I", 8 + len(pngs[n])) + pngs[n] for n in types if n in pngs)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    ICON_DIR.mkdir(parents=True, exist_ok=True)
    pngs: dict[int, bytes] = {}
    for size in SIZES:
        pngs[size] = png_bytes(draw(size))
        (ICON_DIR / f"{NAME}-{size}.png").write_bytes(pngs[size])
    (ICON_DIR / f"{NAME}.ico").write_bytes(ico_bytes(pngs))
    (ICON_DIR / f"{NAME}.icns").write_bytes(icns_bytes(pngs))
    print(f"Wrote {len(SIZES)} PNGs, {NAME}.ico and {NAME}.icns to {ICON_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
