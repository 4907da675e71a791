"""The window on a cache file someone tampered with (issue 35): a recursive view in place of a
table, or a table without a column the app reads, is said like a corrupt file (moved aside, a
fresh cache started) and the window comes up, rather than reading the file for ever."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME
from tests.faultserver import refused_port

FOREVER = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
TAMPERING = {
    "collections is a recursive view": (
        [
            "DROP TABLE collections",
            f"CREATE VIEW collections AS {FOREVER} SELECT 'webinars' AS name, i AS snapshot, i AS previous,"
            " NULL AS etag, NULL AS last_modified, NULL AS fetched_at, NULL AS checked_at,"
            " NULL AS last_status, NULL AS last_error, NULL AS last_error_at FROM n",
        ],
        "it holds a view ('collections')",
    ),
    "rows without its links column": (
        ["ALTER TABLE rows DROP COLUMN links"],
        "its rows table has no links column",
    ),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_the_window_on_a_tampered_cache_says_so_and_starts_afresh(
    make_session: Any, filled_cache: Path, case: str
) -> None:
    statements, reason = TAMPERING[case]
    db = sqlite3.connect(filled_cache / FILE_NAME, isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()
    original = (filled_cache / FILE_NAME).read_bytes()
    window = make_session(base_url=f"http://127.0.0.1:{refused_port()}", offline=True, wait="ready").window
    assert window.status.message.isVisible()
    text = window.status.message.text()
    assert "could not be used" in text and reason in text and "moved to" in text
    (aside,) = [
        p for p in filled_cache.glob(f"{FILE_NAME}.unusable-*") if not p.name.endswith(("-wal", "-shm"))
    ]
    assert aside.read_bytes() == original
