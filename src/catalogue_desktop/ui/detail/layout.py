"""A detail page's layout, kept from one record to the next: ``Slots`` keeps a box layout's widgets,
``FormGrid`` reuses its key/value rows, ``WrapBox`` skips a pass of text layout in its size hint.

Showing another record sets texts and photos in the kept widgets instead of building, polishing and laying out
a new widget tree (see docs/decisions.md, "Detail pages are built once per kind"). Widgets no longer shown are
deleted through ``qt_compat.lifetime.delete_later``."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import TypeVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QGridLayout, QLabel, QSizePolicy, QWidget

from catalogue_desktop.qt_compat.lifetime import delete_later
from catalogue_desktop.ui.detail.page_links import set_url, url_label, url_variant
from catalogue_desktop.ui.detail.plain_labels import (
    BLANK,
    fill_text,
    muted,
    new_text_widget,
    plain_label,
    set_plain_text,
    text_variant,
)

__all__ = [
    "FormGrid",
    "PageBox",
    "Slots",
    "W",
    "WrapBox",
    "discard",
    "settle",
    "show_added",
    "wrap_size_hint",
]

W = TypeVar("W", bound=QWidget)


def discard(widget: QWidget) -> None:
    """Take ``widget`` out of its page at once (``findChildren`` no longer sees it) and delete it
    when control returns to the event loop (it may be emitting the signal being handled)."""
    widget.hide()
    widget.setParent(None)
    delete_later(widget)  # parentless now: held until Qt deletes it, on this (the GUI) thread


def show_added(widget: QWidget) -> None:
    """Show a widget just added to a visible parent now: Qt would show it only on the next pass of
    the event loop, and until then it is hidden (``isVisibleTo`` is false)."""
    if widget.isHidden() and not widget.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide):
        widget.show()


def settle(widget: QWidget) -> None:
    """Lay out a kept widget that was just refilled (a form, a card) at once.

    A new text in a child marks the widget's layout dirty but not the page's cached height for the
    widget: that is updated only when the widget's own layout runs. Run in the event loop, that
    comes after the page's layout, which then places everything with the old height and needs a
    second pass (a second round of events) to get it right. Activated here, bottom-up, the page's
    single pass uses the new heights.
    """
    layout = widget.layout()
    if layout is not None:
        layout.activate()


class Slots:
    """The widgets of one box layout, kept from one record to the next.

    A page is filled by asking for its widgets in order: :meth:`take` returns the widget kept
    under a key (``make()`` makes it the first time), :meth:`add` places a fresh widget that is
    dropped at the next fill. :meth:`finish` lays out exactly the widgets asked for, in that order,
    and deletes the others, so the layout ends as a fresh build would leave it, without making,
    polishing and laying out every widget again. A key names the widget's role and its variant
    (``("text", "description", "label")``), so a kept widget is always of the kind asked for.
    """

    def __init__(self, layout: QBoxLayout, *, stretch: bool = False) -> None:
        self.layout = layout
        if stretch:
            layout.addStretch(1)  # stays last: widgets are inserted before it
        self._kept: dict[Hashable, QWidget] = {}
        self._shown: list[QWidget] = []
        self._taken: dict[Hashable, QWidget] = {}
        self._order: list[QWidget] = []

    def begin(self) -> None:
        """Start filling (a fill that stopped half-way, on an exception, is finished first)."""
        if self._order or self._taken:
            self.finish()

    def take(self, key: Hashable, make: Callable[[], W]) -> W:
        widget = self._kept.pop(key, None)
        if widget is None:
            widget = make()
        self._taken[key] = widget
        self._order.append(widget)
        return widget  # type: ignore[return-value]

    def add(self, widget: W) -> W:
        self._order.append(widget)
        return widget

    def finish(self) -> None:
        order, shown = self._order, self._shown
        if len(order) != len(shown) or any(a is not b for a, b in zip(order, shown, strict=False)):
            keep = {id(w) for w in order}
            for widget in shown:
                if id(widget) in keep:
                    # removeWidget deletes the layout item. (takeAt would leave it alive and still
                    # registered with the widget, whose updateGeometry would then reset that item's
                    # cached heights instead of the new item's: stale heights after a new text.)
                    self.layout.removeWidget(widget)
                else:
                    discard(widget)  # leaves the layout with its parent
            for i, widget in enumerate(order):
                self.layout.insertWidget(i, widget)  # before the stretch, if any
                show_added(widget)
        self._kept, self._taken = self._taken, {}
        self._shown, self._order = order, []


class WrapBox(QWidget):
    """A widget laying out wrapped labels, whose size hint skips a pass of text layout.

    ``QWidget.sizeHint`` asks its layout for the height at the hint's own width
    (``QLayout.totalSizeHint``): every wrapped label below is laid out again at a width it is never
    shown at, and a selectable label lays out its text document twice per call. The vertical
    layouts of a detail page take the heights of such widgets from ``heightForWidth`` at their
    real width, so the hint's height is unused: here it is the layout's plain hint.
    """

    def sizeHint(self) -> QSize:
        return wrap_size_hint(self)


class PageBox(WrapBox):
    """A detail page's content in its scroll area: as tall as its layout at the viewport's width.

    ``QScrollArea`` makes a resizable widget at least its minimum size hint tall, and a vertical
    layout's minimum adds up its labels' minimum heights, each measured at the narrow width
    ``QLabel.minimumSizeHint`` wraps at: a page several hundred pixels taller than its content,
    blank at the bottom. The height here comes from ``heightForWidth`` alone.
    """

    def minimumSizeHint(self) -> QSize:
        layout = self.layout()
        width = layout.minimumSize().width() if layout is not None else 0
        return QSize(width, 0)


def wrap_size_hint(widget: QWidget) -> QSize:
    """:class:`WrapBox`'s size hint, for other widget classes holding wrapped labels."""
    layout = widget.layout()
    if layout is None:
        return QWidget.sizeHint(widget)
    margins = widget.contentsMargins()
    return layout.sizeHint() + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())


class FormGrid(WrapBox):
    """Key/value rows: muted keys on the left, selectable values on the right.

    To fill it again for another record, call :meth:`restart`, add the rows, then :meth:`finish`:
    rows are reused by position (a value widget when it is of the same variant).
    """

    def __init__(self, parent: QWidget | None = None, name: str | None = None) -> None:
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(16)
        self._grid.setVerticalSpacing(4)
        self._grid.setColumnStretch(1, 1)
        self.rows = 0
        self._cells: list[tuple[QLabel, QWidget, str | None]] = []  # key, value, value variant
        # At least the height its rows need at its width (height-for-width), never capped: a
        # ``Maximum`` policy held it to its size hint's one wide line a value, so in a narrow pane
        # a location card's Dates and Travel, a date's "This date", were cut, gaps left below.
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        if name:
            self.setObjectName(name)

    def restart(self) -> None:
        """Fill from the first row again (a fill that stopped half-way is finished first)."""
        self.finish()
        self.rows = 0

    def add(self, key: str, value: str | QWidget | None, slug: str | None = None) -> QWidget:
        """Add a row; a None or empty value shows as "—"."""
        slug = slug or _slug(key)
        if isinstance(value, QWidget):
            if not value.objectName():
                value.setObjectName(f"value_{slug}")
            return self._row(key, slug, None, lambda: value, None)
        text = value or BLANK
        variant = text_variant(text)
        widget = self._row(key, slug, variant, lambda: new_text_widget(variant), lambda w: fill_text(w, text))
        widget.setObjectName(f"value_{slug}")
        return widget

    def add_url(self, key: str, url: str | None, name: str, activate: Callable[[str], None]) -> QWidget:
        """Add a row with a :func:`url_label` (named ``name``; "—" without a URL); its links call
        ``activate(href)``."""
        if not url:
            return self.add(key, None)

        def make() -> QLabel:
            label = url_label(url, name)
            label.linkActivated.connect(activate)
            return label

        widget = self._row(key, _slug(key), f"url_{url_variant(url)}", make, lambda w: set_url(w, url))  # type: ignore[arg-type]
        widget.setObjectName(name)  # (a row kept from the last record may have held another link)
        return widget

    def _row(
        self,
        key: str,
        slug: str,
        variant: str | None,
        make: Callable[[], QWidget],
        fill: Callable[[QWidget], None] | None,
    ) -> QWidget:
        row = self.rows
        if row == len(self._cells):
            key_label = muted(plain_label(key, f"key_{slug}", wrap=False))
            self._grid.addWidget(key_label, row, 0, Qt.AlignmentFlag.AlignTop)
            show_added(key_label)
            self._cells.append((key_label, self._place(make, row), variant))
        else:
            key_label, widget, old_variant = self._cells[row]
            set_plain_text(key_label, key)
            key_label.setObjectName(f"key_{slug}")
            if variant is None or variant != old_variant:
                discard(widget)
                self._cells[row] = (key_label, self._place(make, row), variant)
        widget = self._cells[row][1]
        if fill is not None:
            fill(widget)
        self.rows += 1
        return widget

    def _place(self, make: Callable[[], QWidget], row: int) -> QWidget:
        widget = make()
        self._grid.addWidget(widget, row, 1)
        show_added(widget)
        return widget

    def finish(self) -> None:
        """Remove the rows beyond those added since :meth:`restart`."""
        for key_label, widget, _ in self._cells[self.rows :]:
            discard(key_label)
            discard(widget)
        del self._cells[self.rows :]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
