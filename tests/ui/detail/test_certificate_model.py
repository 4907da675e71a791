"""CertificateTreeModel: structure, dangling courses, model-tester conformance."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont

from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.detail.certificate_model import CertificateTreeModel
from tests.ui.fixtures_components import *  # noqa: F403
from tests.ui.fixtures_components import DemoCatalogue

TITLES = {6101: "Lease Accounting", 6102: "Fraud Basics", 6103: "Data Analytics"}


def certificate() -> models.Certificate:
    return models.Certificate.model_validate(
        {
            "certificateId": 1,
            "title": "Cert",
            "fee": "2495.00",
            "levels": [
                {
                    "id": 11,
                    "type": 2,
                    "selection": 1,
                    "optionsMin": 1,
                    "coursesMin": 3,
                    "options": [
                        {
                            "optionId": 21,
                            "num": 2,
                            "coursesMin": 2,
                            "coursesTotal": 4,
                            "coursesOperator": "AND",
                        },
                        {
                            "optionId": 22,
                            "num": 1,
                            "coursesMin": 1,
                            "coursesTotal": 1,
                            "coursesOperator": "XOR?",
                        },
                    ],
                    "tracks": [
                        {"trackId": 32, "name": "Second", "displayOrder": 2},
                        {"trackId": 31, "name": "First", "displayOrder": 1},
                    ],
                    "courses": [
                        {"courseId": 6101, "optionId": 21, "trackId": 31},
                        {"courseId": 6102, "optionId": 22, "trackId": 32},
                        {"courseId": 6077, "optionId": 21, "trackId": 31},  # not in the catalogue
                        {"courseId": 6103, "optionId": 99, "trackId": None},  # unknown option
                    ],
                },
                {"id": 12, "courses": [{"courseId": 6101}]},
            ],
        }
    )


def _texts(model: CertificateTreeModel, parent: QModelIndex, column: int = 0) -> list[str]:
    return [model.index(r, column, parent).data() for r in range(model.rowCount(parent))]


def _find(model: CertificateTreeModel, parent: QModelIndex, text: str) -> QModelIndex:
    for r in range(model.rowCount(parent)):
        index = model.index(r, 0, parent)
        if index.data() == text or str(index.data()).startswith(text):
            return index
    raise AssertionError(f"{text!r} not in {_texts(model, parent)}")


def test_structure(qapp: Any) -> None:
    model = CertificateTreeModel()
    model.set_certificate(certificate(), TITLES.get)
    root = QModelIndex()
    assert _texts(model, root) == [
        "Level 1 — at least 1 option and 3 courses",
        "Level 2",
    ]
    level = model.index(0, 0, root)
    assert _texts(model, level) == ["Options", "Tracks", "Other courses"]
    options = _find(model, level, "Options")
    assert _texts(model, options) == [
        "Option 2 — at least 2 of 4 courses (AND)",
        "Option 1 — at least 1 of 1 courses (XOR?)",  # operator shown as it comes
    ]
    option2 = model.index(0, 0, options)
    assert _texts(model, option2) == ["Lease Accounting", "Course #6077 (not in this catalogue)"]
    tracks = _find(model, level, "Tracks")
    assert _texts(model, tracks) == ["Track: First", "Track: Second"]  # by displayOrder
    other = _find(model, level, "Other courses")
    assert _texts(model, other) == ["Data Analytics"]
    level2 = model.index(1, 0, root)
    assert _texts(model, _find(model, level2, "Other courses")) == ["Lease Accounting"]
    assert any("6103" in p and "option #99" in p for p in model.problems)
    assert "codes the service does not explain: type 2, selection 1" in model.index(0, 1, root).data()


def test_courses_and_dangling(qapp: Any) -> None:
    model = CertificateTreeModel()
    model.set_certificate(certificate(), TITLES.get)
    option2 = model.index(0, 0, model.index(0, 0, model.index(0, 0)))
    listed, dangling = model.index(0, 0, option2), model.index(1, 0, option2)
    assert model.course_id(listed) == 6101 and model.in_catalogue(listed)
    assert model.course_id(dangling) == 6077 and not model.in_catalogue(dangling)
    font = dangling.data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.italic()
    assert dangling.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert "does not list" in dangling.data(Qt.ItemDataRole.ToolTipRole)
    assert model.course_id(option2) is None
    assert model.index(0, 1, option2).data() == "course #6101 · track First"
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Details"


def test_model_tester(qtmodeltester: Any, qapp: Any, demo: DemoCatalogue) -> None:
    model = CertificateTreeModel()
    qtmodeltester.check(model)  # empty
    model.set_certificate(certificate(), TITLES.get)
    qtmodeltester.check(model)
    for row in range(len(demo.rowsets[Kind.CERTIFICATES])):
        record = demo.record(Kind.CERTIFICATES, demo.rowsets[Kind.CERTIFICATES].record_id(row))
        model.set_certificate(record, demo.course_title)
        qtmodeltester.check(model)
    model.clear()
    qtmodeltester.check(model)
    assert model.rowCount() == 0


def test_demo_dangling_courses(qapp: Any, demo: DemoCatalogue) -> None:
    model = CertificateTreeModel()
    seen = set()
    for row in range(len(demo.rowsets[Kind.CERTIFICATES])):
        record = demo.record(Kind.CERTIFICATES, demo.rowsets[Kind.CERTIFICATES].record_id(row))
        model.set_certificate(record, demo.course_title)
        stack = [QModelIndex()]
        while stack:
            parent = stack.pop()
            for r in range(model.rowCount(parent)):
                index = model.index(r, 0, parent)
                stack.append(index)
                if model.course_id(index) is not None and not model.in_catalogue(index):
                    assert index.data() == f"Course #{model.course_id(index)} (not in this catalogue)"
                    seen.add(model.course_id(index))
    assert seen == {6077, 6085, 6090}
