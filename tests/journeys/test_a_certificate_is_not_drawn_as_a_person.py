"""A person opens a certificate whose picture has not come (offline): its details show a plain
placeholder, not a large initials avatar ("CI") as an expert's, since a certificate is no
person."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.detail.photo import PhotoLabel, placeholder_pixmap
from tests.journeys.hands import click_row, click_tab


def _drawn(label: PhotoLabel) -> Any:
    return label.pixmap().toImage()


def test_a_certificate_is_not_drawn_as_a_person(start: Any, qtbot: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    tab = click_tab(window, Kind.CERTIFICATES)
    click_row(tab, 0)
    qtbot.waitUntil(lambda: tab.detail.findChild(PhotoLabel, "certificate_image") is not None, timeout=5000)
    photo = tab.detail.findChild(PhotoLabel, "certificate_image")
    assert not photo.has_photo  # (offline: the picture never comes)
    size, dpr = photo.photo_size, photo.pixmap().devicePixelRatio()
    title = tab.model.data(tab.model.index(0, tab.view.horizontalHeader().logicalIndex(0)))
    assert _drawn(photo) != placeholder_pixmap(size, title, dpr).toImage()  # no initials
    assert _drawn(photo) == placeholder_pixmap(size, "", dpr).toImage()  # the plain placeholder

    tab = click_tab(window, Kind.EXPERTS)  # (a person keeps the initials until the photo comes)
    click_row(tab, 0)
    qtbot.waitUntil(lambda: tab.detail.findChild(PhotoLabel) is not None, timeout=5000)
    assert _drawn(tab.detail.findChild(PhotoLabel)) != placeholder_pixmap(size, "", dpr).toImage()
