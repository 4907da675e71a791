"""Colours the window chooses itself, kept readable (WCAG AA: contrast 4.5:1 for text) in the
light and the dark scheme alike: derived from the palette in use, not fixed.

``contrast`` is WCAG 2's ratio of relative luminances. ``muted`` (past rows) blends the text colour
towards the background only as far as the ratio allows; ``error`` and ``warning`` pick a red and an
amber dark enough on a light background, light enough on a dark one.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

AA = 4.5  # WCAG AA, normal text


def _channel(value: float) -> float:
    value /= 255
    return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4


def luminance(color: QColor) -> float:
    return 0.2126 * _channel(color.red()) + 0.7152 * _channel(color.green()) + 0.0722 * _channel(color.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved towards ``b`` by ``t`` (0: a, 1: b)."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def is_dark(palette: QPalette) -> bool:
    return luminance(palette.color(QPalette.ColorRole.Base)) < 0.2


def backgrounds(palette: QPalette) -> list[QColor]:
    """The backgrounds table text stands on (rows and alternate rows)."""
    return [palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.AlternateBase)]


def muted(palette: QPalette) -> QColor:
    """Text a step quieter than the palette's (past rows), still AA on every row background."""
    text = palette.color(QPalette.ColorRole.Text)
    grounds = backgrounds(palette)
    for step in range(10, -1, -1):  # from half-way towards the background, back towards the text
        candidate = _blend(text, grounds[0], step * 0.05)
        if all(contrast(candidate, g) >= AA for g in grounds):
            return candidate
    return text


def _readable(palette: QPalette, light: str, dark: str) -> QColor:
    color = QColor(dark if is_dark(palette) else light)
    grounds = [*backgrounds(palette), palette.color(QPalette.ColorRole.Window)]
    text = palette.color(QPalette.ColorRole.Text)
    for step in range(11):  # towards the text colour until every background reads it at AA
        candidate = _blend(color, text, step * 0.1)
        if all(contrast(candidate, g) >= AA for g in grounds):
            return candidate
    return text


def error(palette: QPalette) -> QColor:
    """Red for errors (the query box's message)."""
    return _readable(palette, "#b3261e", "#ff8a80")


def warning(palette: QPalette) -> QColor:
    """Amber for warnings."""
    return _readable(palette, "#8a5300", "#ffcc80")
