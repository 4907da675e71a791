"""The save dialog's columns read whole (issue 39's first walk-through): where the desktop has
no file dialog of its own, Qt's opened at about 630x400 with its Name, Size, Type and Date
Modified columns cut ("28 11 2…6"). File ▸ Export visible rows… is opened here as a person does,
in a folder with a file in it, at 1024x700."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication, QFileDialog, QTreeView

from catalogue_desktop.ui.offers.offer_settings import OfferSettings
from tests.journeys.hands import screen_sized, until, when_dialog_opens
from tests.journeys.test_every_dialog_fits_a_small_screen import ROOM, header_problems


def test_the_export_dialog_shows_every_column_whole(start: Any, tmp_path: Path) -> None:
    window = start(finder_ready=False).window
    screen_sized(window, 1024, 700)
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "courses, the whole list for the spring season.csv").write_text("title\n")
    OfferSettings(window.settings).folder = str(folder)  # (the folder last saved to)
    seen: dict[str, Any] = {}

    def look(dialog: Any) -> None:
        assert isinstance(dialog, QFileDialog), dialog
        details = dialog.findChild(QTreeView, "treeView")  # (its Detail view, Qt's name)
        assert details is not None
        until(lambda: details.model().rowCount(details.rootIndex()) >= 1)
        QApplication.processEvents()
        header = details.header()
        seen["size"] = dialog.size()
        seen["headings"] = header_problems(details, "Export visible rows")
        seen["cut"] = [
            f"{details.model().headerData(c, header.orientation())}: {header.sectionSize(c)} px of "
            f"{details.sizeHintForColumn(c)}"
            for c in range(header.count())
            if not header.isSectionHidden(c) and header.sectionSize(c) < details.sizeHintForColumn(c)
        ]
        seen["scrolls"] = details.horizontalScrollBar().maximum()
        dialog.reject()

    when_dialog_opens(look)
    window.menu_actions.export_action.trigger()  # File ▸ Export visible rows…
    until(lambda: "cut" in seen)
    assert seen["size"].width() <= ROOM.width() and seen["size"].height() <= ROOM.height(), seen
    assert not seen["headings"] and not seen["cut"], seen
    assert seen["scrolls"] == 0, seen  # every column in sight
