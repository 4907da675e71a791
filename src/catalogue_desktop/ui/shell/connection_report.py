"""The connection doctor's report in the window (Preferences ▸ Connection ▸ Test): each step with
its mark, the eight collections' status and time, and the first problem with what to do.

Everything in it comes from the network (certificate names, error texts): it is escaped, never
read as markup.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtWidgets import QTextBrowser, QWidget

from catalogue_desktop.core.connection.addresses import redact
from catalogue_desktop.ui.common.colors import error as error_color

MARKS = {True: ("✓", "passed"), False: ("✗", "failed"), None: ("–", "not tried")}


def report_html(report: dict[str, Any], failed_color: str = "#b00020") -> str:
    """The report (``DoctorReport.to_json()``) as HTML for a QTextBrowser."""
    parts = [f"<h3>Connection check of {escape(str(report['base_url']))}</h3>"]
    problem = report.get("problem")
    if problem:
        parts.append(
            f'<p style="color:{failed_color}"><b>First problem — {escape(problem["title"])}:</b> '
            f"{escape(problem['detail'])}</p><p><b>What to do:</b> {escape(problem['fix'])}</p>"
        )
    else:
        parts.append("<p><b>No problem found:</b> the catalogue can be read through this path.</p>")
    rows = []
    for step in report["steps"]:
        mark, said = MARKS[step["ok"]]
        color = f' style="color:{failed_color}"' if step["ok"] is False else ""
        rows.append(
            f"<tr><td{color} title='{said}'>{mark}</td><td{color}><b>{escape(step['title'])}</b></td>"
            f"<td>{escape(step['detail'])}</td></tr>"
        )
    parts.append('<table cellspacing="4">' + "".join(rows) + "</table>")
    if report.get("collections"):
        rows = []
        for c in report["collections"]:
            status = f"HTTP {c['status']}" if c["status"] is not None else "no answer"
            seconds = f"{c['seconds']:.2f} s" if c["seconds"] is not None else ""
            body = {True: "JSON array", False: "not a JSON array", None: ""}[c["json_array"]]
            note = escape(c["error"]) if c["error"] and c["json_array"] is not True else ""
            rows.append(
                f"<tr><td>{escape(c['kind'])}</td><td>{status}</td><td align='right'>{seconds}</td>"
                f"<td>{body}</td><td>{note}</td></tr>"
            )
        parts.append("<h4>The /v1 collections</h4><table cellspacing='4'>" + "".join(rows) + "</table>")
    return "".join(parts)


class ConnectionReport(QTextBrowser):
    """The report, read-only and selectable (its text can be copied into a ticket to IT)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connection-report")
        self.setAccessibleName("Connection check report")
        self.setOpenLinks(False)
        self.report: dict[str, Any] | None = None

    def show_running(self, base_url: str) -> None:
        self.report = None
        self.setPlainText(f"Checking the path to {redact(base_url)} step by step…")

    def show_report(self, report: dict[str, Any]) -> None:
        self.report = report
        self.setHtml(report_html(report, error_color(self.palette()).name()))
