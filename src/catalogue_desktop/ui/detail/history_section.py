"""The detail page's History section: what the syncs changed in the record, dated, in words
(``core.records.history_words``), and where a fee changed more than once, a small chart of the fee
over time drawn with QPainter (``FeeChart``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QDate, QLocale, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from catalogue_desktop.core.cache.record_history import Event, slash_path
from catalogue_desktop.core.records.history_words import describe, fee_points
from catalogue_desktop.ui.detail.layout import W
from catalogue_desktop.ui.detail.plain_labels import plain_label, set_plain_text

if TYPE_CHECKING:
    from catalogue_desktop.core.records.models import Record
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.detail.context import DetailContext


class HistoryPage(Protocol):
    """What the History section asks of the page it is on (``page.Page``)."""

    ctx: DetailContext  # (its ``history``)
    record: Record
    fmt: Formatter  # (its ``locale`` and ``money``)

    def section(self, text: str, slug: str | None = None) -> QLabel: ...
    def take(self, key: Hashable, make: Callable[[], W]) -> W: ...
    def note(self, key: str, text: str) -> None: ...


MAX_LINES = 40  # the newest; the command line's ``history`` shows them all


def fill_history(page: HistoryPage) -> None:
    """The History section of ``page``'s record, when the kept history has anything for it."""
    events = page.ctx.history
    if not events:
        return
    record = _record_json(page.record)
    day_text = _day_text(page.fmt.locale)

    page.section("History", "history")
    lines = [
        line for event in reversed(events) for line in describe([event], record, day_text)
    ]  # newest first
    shown = lines[:MAX_LINES]
    text = "\n".join(f"{day_text(line.day) if line.day else '?'}: {line.text}" for line in shown)
    if len(lines) > len(shown):
        text += f"\n… and {len(lines) - len(shown)} older changes"
    label = page.take("history_lines", lambda: _lines_label())
    set_plain_text(label, text)
    series = {item: points for item, points in fee_points(events).items() if len(points) >= 3}
    if series:
        item, points = next(iter(series.items()))
        chart = page.take("fee_chart", FeeChart)
        chart.set_points(points, lambda v: page.fmt.money(_plain(v)), day_text)
        where = _item_name(record, item)
        chart.setAccessibleName(f"Fee over time{f' ({where})' if where else ''}")
        page.note("fee_chart_caption", f"Fee over time{f' — {where}' if where else ''}")


def changes_in_words(
    fields: dict[str, list[Any]], record: Record | None, locale: QLocale, limit: int = 4
) -> str:
    """One sync's changed fields (``records.diff``'s paths) in words, for the "Changed in last
    refresh" banner: "fee 1,395 → 1,545 (Chicago, 8 Feb 2027); location added: Denver, …"."""
    event = Event("", "changed", {slash_path(path): values for path, values in fields.items()})
    words = [line.text for line in describe([event], _record_json(record), _day_text(locale))]
    if len(words) > limit:
        words = [*words[:limit], f"and {len(words) - limit} more"]
    return "; ".join(words)


def _day_text(locale: QLocale) -> Callable[[date], str]:
    def day_text(day: date) -> str:
        return locale.toString(QDate(day.year, day.month, day.day), "d MMM yyyy")

    return day_text


def _lines_label() -> QLabel:
    label = plain_label("", "history_lines")
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _record_json(record: Record | None) -> dict[str, Any] | None:
    """The record (a pydantic model of ``core.records.models``) as the service's JSON."""
    return None if record is None else record.model_dump(mode="json", by_alias=True)


def _plain(value: Decimal) -> int | str:
    return int(value) if value == value.to_integral_value() else str(value)


def _item_name(record: Mapping[str, object] | None, item: str) -> str:
    if not item or not record:
        return ""
    list_name, _, item_id = item.partition("/")
    items = record.get(list_name)
    for nested in items if isinstance(items, list) else ():
        if isinstance(nested, dict) and any(str(v) == item_id for k, v in nested.items() if k.endswith("Id")):
            return str(nested.get("city") or nested.get("title") or item_id)
    return item_id


class FeeChart(QWidget):
    """A step line of one fee over time: each change at its day, the value before the first
    change at the left edge; the lowest and highest fee on the left, the first and last day below."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fee_chart")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(110)
        self._points: list[tuple[float | None, float]] = []
        self._labels: tuple[str, str, str, str] = ("", "", "", "")

    def sizeHint(self) -> QSize:
        return QSize(320, 120)

    def set_points(
        self,
        points: Sequence[tuple[str, Decimal]],
        money: Callable[[Decimal], str],
        day_text: Callable[[date], str],
    ) -> None:
        """``points``: (ISO time of the change, or "" for the value before it, fee)."""
        self._points = [(_epoch(at) if at else None, float(fee)) for at, fee in points]
        fees = [fee for _, fee in points]
        days = [_day(at) for at, _ in points if at]
        self._labels = (
            money(min(fees)),
            money(max(fees)),
            day_text(days[0]) if days else "",
            day_text(days[-1]) if days else "",
        )
        self.setToolTip(
            "\n".join(f"{day_text(_day(at)) if at else 'before'}: {money(fee)}" for at, fee in points)
        )
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt's name
        if len(self._points) < 2:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        metrics = painter.fontMetrics()
        low_text, high_text, first_text, last_text = self._labels
        left = max(metrics.horizontalAdvance(low_text), metrics.horizontalAdvance(high_text)) + 8
        plot = QRectF(
            left, 6, max(self.width() - left - 10, 10), max(self.height() - metrics.height() - 16, 10)
        )
        times = [t for t, _ in self._points if t is not None]
        t0, t1 = min(times), max(times)
        lead = (t1 - t0) * 0.15 or 86400.0  # room on the left for the value before the first change
        start = t0 - lead
        fees = [f for _, f in self._points]
        lo, hi = min(fees), max(fees)
        span = (hi - lo) or 1.0

        spread = t1 - t0 >= 3600  # changes an hour apart or more: a time axis; else by order
        order = {id(p): i for i, p in enumerate(self._points)}

        def at(t: float | None, fee: float, point: object = None) -> QPointF:
            if spread or point is None:
                x = (
                    plot.left()
                    + ((t if t is not None else start) - start) / ((t1 - start) or 1.0) * plot.width()
                )
            else:
                x = plot.left() + order[id(point)] / max(len(self._points) - 1, 1) * plot.width()
            y = plot.bottom() - (fee - lo) / span * plot.height()
            return QPointF(x, y)

        def pos(point: tuple[float | None, float], fee: float | None = None) -> QPointF:
            return at(point[0], point[1] if fee is None else fee, point)

        grid = QColor(text)
        grid.setAlpha(60)
        painter.setPen(QPen(grid, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawLine(plot.topLeft(), plot.bottomLeft())
        path = QPainterPath(pos(self._points[0]))
        for point, (_, before) in zip(self._points[1:], self._points, strict=False):
            path.lineTo(pos(point, before))
            path.lineTo(pos(point))
        path.lineTo(QPointF(plot.right(), pos(self._points[-1]).y()))
        line = palette.color(QPalette.ColorRole.Highlight)
        painter.setPen(QPen(line, 2))
        painter.drawPath(path)
        painter.setBrush(line)
        for point in self._points:
            painter.drawEllipse(pos(point), 3, 3)
        painter.setPen(text)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(0, plot.top() - 8, left - 6, 16), right, high_text)
        painter.drawText(QRectF(0, plot.bottom() - 8, left - 6, 16), right, low_text)
        baseline = plot.bottom() + 4
        height = metrics.height()

        def label_at(x: float, text_: str) -> None:
            width = metrics.horizontalAdvance(text_) + 2
            left_ = min(max(x - width / 2, plot.left()), self.width() - width - 2)
            painter.drawText(QRectF(left_, baseline, width, height), Qt.AlignmentFlag.AlignLeft, text_)

        first_x = pos(next(p for p in self._points if p[0] is not None)).x()
        label_at(first_x, first_text)
        if last_text != first_text:
            label_at(plot.right(), last_text)
        painter.end()


def _epoch(iso: str) -> float:
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _day(iso: str) -> date:
    return date.fromisoformat(iso[:10])


__all__ = ["FeeChart", "fill_history"]
