"""Links in spreadsheets obey the one link rule (``core.formats.links``; issue 35, point 3): a link
with a bidi control, a line or paragraph separator, a line feed, a tab, a user part
(``…aaa@evil.example``) or over Excel's length is text, not a hyperlink; past the 65,530 links a
sheet holds the rest are plain text, said on the About sheet and by the command, and no library
warning reaches stderr. Read back by openpyxl (the sheet past the link limit by its XML)."""

from __future__ import annotations

import inspect
import io
import json
import re
import warnings
import zipfile
from typing import Any
from xml.etree import ElementTree

import openpyxl
import pytest
import xlsxwriter  # type: ignore[import-untyped]

from catalogue_desktop.core.export import spreadsheet
from catalogue_desktop.core.formats.links import web_link
from catalogue_desktop.core.records.decode import decode_collection
from catalogue_desktop.core.records.kinds import Kind

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
GOOD = "https://catalogue.example.org/webinars/1?x=1#part"
HOSTILE = [
    "https://catalogue.example.org/files/\u202egpj.exe",  # shows as "exe.jpg"
    "https://catalogue.example.org/a\u2028b",
    "https://catalogue.example.org/a\u2029b",
    "https://catalogue.example.org/a\nb",
    "https://catalogue.example.org/a\tb",
    "https://catalogue.example.org" + "a" * 400 + "@evil.example/x",  # a link to evil.example
    "https://user:secret@catalogue.example.org/x",
    "https://catalogue.example.org/\u200bx",  # a zero-width space
    "https://catalogue.example.org/\x85x",  # C1
    "https://catalogue.example.org/" + "a" * 2100,  # past Excel's 2,079
    "https://catalogue.example.org/" + "\U0001f600" * 1030,  # 2,060 characters, 4,090 in UTF-16
    "javascript:alert(1)",
    "https://",
]


def _workbook(data: bytes) -> Any:
    return openpyxl.load_workbook(io.BytesIO(data))


@pytest.mark.parametrize("url", HOSTILE)
def test_the_link_rule_refuses(url: str) -> None:
    assert web_link(url) is None


def test_only_web_links_become_hyperlinks() -> None:
    records = [{"webinarId": i, "title": f"W{i}", "detailUrl": url} for i, url in enumerate([GOOD, *HOSTILE])]
    decoded = decode_collection(Kind.WEBINARS, json.dumps(records).encode())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no library warning
        data = spreadsheet.collection_xlsx(Kind.WEBINARS, [r for _, r in decoded.records], ["about"], None)
    ws = _workbook(data)["Webinars"]
    column = [c.value for c in ws[1]].index("detailUrl") + 1
    good = ws.cell(row=2, column=column)
    assert good.value == GOOD and good.hyperlink is not None
    assert f"{good.hyperlink.target}#{good.hyperlink.location}" == GOOD  # (openpyxl splits off the anchor)
    for row, url in enumerate(HOSTILE, start=3):
        cell = ws.cell(row=row, column=column)
        assert cell.hyperlink is None, url
        assert cell.value == url.replace("\r", "")[:32767] or url.startswith(str(cell.value)[:100])


LINKS = 260  # the sheet's link limit in the test below: past the 200 rows measured for widths


def test_past_the_sheet_s_link_limit_the_rest_are_text_and_said() -> None:
    """330 webinars with a link each and a limit of 260 links a sheet (``max_links``; Excel's
    65,530 is checked against XlsxWriter below): the first 260 are hyperlinks, the other 70 plain
    text (never empty cells), the About sheet and the notes for the command say so, and no library
    warning is raised. (The workbook's XML read with ElementTree: openpyxl takes minutes over 65,530
    hyperlinks.)"""
    count = LINKS + 70
    records = [{"webinarId": i, "detailUrl": f"https://catalogue.example.org/w/{i}"} for i in range(count)]
    decoded = decode_collection(Kind.WEBINARS, json.dumps(records).encode())
    notes: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # XlsxWriter's "Ignoring URL ... 65,530 URLs" is a warning
        data = spreadsheet.collection_xlsx(
            Kind.WEBINARS, [r for _, r in decoded.records], ["about"], None, notes, max_links=LINKS
        )
    note = f"Webinars: 70 links past the {LINKS:,} a sheet can hold are written as plain text."
    assert notes == [note]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        strings = ElementTree.fromstring(archive.read("xl/sharedStrings.xml"))
        sheet = ElementTree.fromstring(archive.read("xl/worksheets/sheet1.xml"))
        about = ElementTree.fromstring(archive.read("xl/worksheets/sheet2.xml"))
    assert [s.get("name") for s in book.iter(f"{MAIN}sheet")] == ["Webinars", "About"]
    shared = ["".join(t.text or "" for t in si.iter(f"{MAIN}t")) for si in strings.iter(f"{MAIN}si")]
    webinars = _columns(sheet, shared)
    column = next(letter for letter, values in webinars.items() if values.get(1) == "detailUrl")
    values = [webinars[column].get(row) for row in range(2, count + 2)]
    assert values == [f"https://catalogue.example.org/w/{i}" for i in range(count)]  # none left empty
    assert note in _columns(about, shared)["A"].values()
    refs = [h.get("ref") for h in sheet.iter(f"{MAIN}hyperlink")]
    assert refs == [f"{column}{row}" for row in range(2, LINKS + 2)]


def test_the_link_limit_is_excel_s_where_xlsxwriter_stops() -> None:
    """``MAX_LINKS`` is Excel's 65,530 links a sheet, the most XlsxWriter writes: it takes that
    many and refuses the next with a warning (past it, a cell would be left empty); the workbook's
    own sheet takes its links up to that limit (the test above lowers it)."""
    assert spreadsheet.MAX_LINKS == 65_530
    assert (
        inspect.signature(spreadsheet.collection_xlsx).parameters["max_links"].default
        == spreadsheet.MAX_LINKS
    )
    assert spreadsheet.Book("x").max_links == spreadsheet.MAX_LINKS
    ws = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True}).add_worksheet()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(
            ws.write_url(row, 0, f"https://a.example/{row}") == 0 for row in range(spreadsheet.MAX_LINKS)
        )
    with pytest.warns(UserWarning, match="65,530 URLs"):
        assert ws.write_url(spreadsheet.MAX_LINKS, 0, "https://a.example/x") == -4


def _columns(sheet: ElementTree.Element, shared: list[str]) -> dict[str, dict[int, object]]:
    """The sheet's cell values by column letters, then row number (strings looked up in the
    shared-string table, inline strings read as written, numbers as text)."""
    columns: dict[str, dict[int, object]] = {}
    for cell in sheet.iter(f"{MAIN}c"):
        letters, row = re.fullmatch(r"([A-Z]+)(\d+)", cell.get("r", "")).groups()  # type: ignore[union-attr]
        kind, v = cell.get("t"), cell.find(f"{MAIN}v")
        if kind == "s" and v is not None:
            value: object = shared[int(v.text or "")]
        elif kind == "inlineStr":
            value = "".join(t.text or "" for t in cell.iter(f"{MAIN}t"))
        else:
            value = None if v is None else v.text
        columns.setdefault(letters, {})[int(row)] = value
    return columns
