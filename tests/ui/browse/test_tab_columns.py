"""A tab's columns (``columns.TabColumns``) saved as they were read while the user changed none."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.browse.collection_tab import CollectionTab
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.common.settings import Settings


def _tab() -> CollectionTab:
    return CollectionTab(Kind.WEBINARS, Formatter(), lambda: None, lambda _k, _i: None, lambda _k, _i: None)


def test_a_header_unchanged_since_restored_is_saved_in_the_bytes_it_was_read_from(
    qtbot: object, _private_settings_and_cache: Path
) -> None:
    """Its hidden columns come out in another order in each process: the bytes read are kept
    while the header is as restored (else the settings file is rewritten at every close)."""
    settings = Settings()
    as_read = QByteArray(_tab().view.horizontalHeader().saveState().data() + b"\0")  # another process's
    settings.save_tab(Kind.WEBINARS, as_read, (-1, 0))
    tab = _tab()
    tab.columns.restore(settings)
    assert tab.view.horizontalHeader().saveState() != as_read
    assert tab.columns.saved_header() == as_read

    tab.columns.set_visible(1, False)  # the user's change: saved as the header is now
    assert tab.columns.saved_header() == tab.view.horizontalHeader().saveState() != as_read
