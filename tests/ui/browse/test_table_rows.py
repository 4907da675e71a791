"""Copy selected rows as TSV (displayed text) and export visible rows as CSV (raw values)."""

from __future__ import annotations

import csv
import sys
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind


def select_rows(tab: Any, rows: list[int]) -> None:
    selection = tab.view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in rows:
        selection.select(tab.model.index(row, 0), flags)


def test_ctrl_c_copies_selected_rows_as_tsv_with_a_header(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    tab = make_session(offline=True, base_url="http://127.0.0.1:9", wait="ready").window.tab(Kind.WEBINARS)
    QApplication.clipboard().clear()
    select_rows(tab, [0, 2])
    tab.view.setFocus()
    qtbot.keyClick(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QApplication.clipboard().text().splitlines()
    assert lines[0].split("\t") == ["Title", "Type", "Start", "Fee", "CLE", "CPE", "Experts"]
    assert len(lines) == 3
    for line, row in zip(lines[1:], [0, 2], strict=True):
        cells = line.split("\t")
        assert cells[0] == tab.model.index(row, 0).data()
        start = column_index(Kind.WEBINARS, "start")
        assert cells[2] == tab.model.index(row, start).data()  # displayed text, not epoch ms


def test_export_writes_the_visible_rows_in_view_order_with_raw_values(
    make_session: Any, filled_cache: Any, tmp_path: Any
) -> None:
    session = make_session(offline=True, base_url="http://127.0.0.1:9", wait="ready")
    window = session.window
    tab = window.show_tab(Kind.COURSES)
    fee = column_index(Kind.COURSES, "fee")
    nxt = column_index(Kind.COURSES, "next")
    session.finder.indexer.finish_now()
    window.query_box.set_text("audit")
    tab.view.sortByColumn(nxt, Qt.SortOrder.DescendingOrder)
    visible = tab.model.rowCount()
    assert 0 < visible < 20
    path = tmp_path / "courses.csv"
    assert tab.export_visible(path) == visible
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["Title", "Level", "Next date", "Cities", "Fee (min)", "Fee (max)", "CLE", "CPE"]
    body = rows[1:]
    assert [r[0] for r in body] == [tab.model.index(i, 0).data() for i in range(visible)]
    dates = [r[2] for r in body]
    assert all(len(d) == 20 and d.endswith("Z") and d[4] == "-" for d in dates)  # ISO 8601, UTC
    assert dates == sorted(dates, reverse=True)
    for i, r in enumerate(body):
        low, high = tab.model.index(i, fee).data(Qt.ItemDataRole.UserRole)
        assert (r[4], r[5]) == (str(low), str(high))  # plain numbers, no currency or separators
        assert r[6] in ("true", "false")


def test_an_export_asked_for_while_the_rows_are_read_is_refused_until_all_are(
    make_session: Any, paged_cache: Any, tmp_path: Any, qtbot: Any, monkeypatch: Any
) -> None:
    """While a tab's rows are still being read from the cache, an export would write only those
    read so far (and not a filter typed meanwhile, which applies once all are read): it is
    refused, saying so; once every row is read the same export writes them all."""
    from PySide6.QtWidgets import QFileDialog

    from tests.ui.conftest import SMALL_PAGES

    path = tmp_path / "rows.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **_kwargs: (str(path), ""))
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait=None)
    window = session.window
    tab = window.current_tab()
    assert tab.model.loading and tab.model.rowCount() == SMALL_PAGES
    window.dialogs.export_visible_rows()
    assert not path.exists()
    message = window.statusBar().currentMessage()
    assert "Not exported" in message and f"{SMALL_PAGES} of 60" in message
    with qtbot.waitSignal(session.ready, timeout=10000):
        pass
    window.dialogs.export_visible_rows()
    with open(path, encoding="utf-8", newline="") as handle:
        assert len(list(csv.reader(handle))) == 1 + 60
    assert window.statusBar().currentMessage().startswith(f"Exported 60 {tab.kind.value}")


def test_export_as_a_spreadsheet_from_the_window(
    make_session: Any, filled_cache: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    """File ▸ Export visible rows with "Excel workbooks" chosen: typed cells read back by openpyxl."""
    import openpyxl
    from PySide6.QtWidgets import QFileDialog

    session = make_session(offline=True, base_url="http://127.0.0.1:9", wait="ready")
    window = session.window
    window.formatter.set_currency("EUR")
    tab = window.show_tab(Kind.COURSES)
    session.finder.indexer.finish_now()
    window.query_box.set_text("audit")
    visible = tab.model.rowCount()
    asked: dict[str, Any] = {}

    def save(parent: Any, caption: str, name: str, filters: str, chosen: str = "") -> tuple[str, str]:
        asked.update(name=name, filters=filters.split(";;"), chosen=chosen)
        return str(tmp_path / "courses.csv"), asked.get("answer", "Excel workbooks (*.xlsx)")

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    window.dialogs.export_visible_rows()
    assert asked["filters"] == ["CSV files (*.csv)", "CSV for Excel (*.csv)", "Excel workbooks (*.xlsx)"]
    assert asked["chosen"] == ("CSV for Excel (*.csv)" if sys.platform == "win32" else "CSV files (*.csv)")
    ws = openpyxl.load_workbook(tmp_path / "courses.xlsx")["Courses"]
    heads = [c.value for c in ws[1]]
    assert heads[:5] == ["Title", "Level", "Next date", "Next date zone", "Cities"]
    assert ws.freeze_panes == "A2" and ws.max_row == visible + 1
    fee = column_index(Kind.COURSES, "fee")
    for i, row in enumerate(ws.iter_rows(min_row=2)):
        assert row[0].value == tab.model.index(i, 0).data()
        assert row[2].is_date and row[3].value == "UTC"
        low, high = tab.model.index(i, fee).data(Qt.ItemDataRole.UserRole)
        assert (row[5].value, row[6].value) == (low, high) and row[5].number_format == '"EUR" #,##0'
        assert row[7].value in ("Yes", "No")
    assert f"Exported {visible:,} courses to " in window.statusBar().currentMessage()


def test_csv_for_excel_from_the_window_begins_with_a_byte_order_mark(
    make_session: Any, filled_cache: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    from PySide6.QtWidgets import QFileDialog

    session = make_session(offline=True, base_url="http://127.0.0.1:9", wait="ready")
    window = session.window
    tab = window.show_tab(Kind.EXPERTS)
    answers = iter([("plain.csv", "CSV files (*.csv)"), ("excel.csv", "CSV for Excel (*.csv)")])

    def save(parent: Any, caption: str, name: str, filters: str, chosen: str = "") -> tuple[str, str]:
        file, kind = next(answers)
        return str(tmp_path / file), kind

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    window.dialogs.export_visible_rows()
    window.dialogs.export_visible_rows()
    plain, excel = (tmp_path / "plain.csv").read_bytes(), (tmp_path / "excel.csv").read_bytes()
    assert excel[:3] == b"\xef\xbb\xbf" and not plain.startswith(b"\xef\xbb\xbf")
    assert excel[3:] == plain and tab.model.rowCount() > 0
