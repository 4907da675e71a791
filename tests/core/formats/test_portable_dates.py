"""Dates are written with strftime directives every platform knows: C89's (and Python's own %f,
%z, %Z). ``%-d`` (glibc: no padding), ``%#d`` (Windows'), ``%e``, ``%k``, ``%P`` ... raise or
print the directive itself elsewhere (Windows' strftime raises ValueError on ``%-d``). Each
``strftime``/``strptime`` format and each date format spec in an f-string of ``src`` is read from
the source and its directives checked."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import catalogue_desktop

ROOT = Path(catalogue_desktop.__file__).parent
PORTABLE = set("aAbBcdfHIjmMpSUwWxXyYzZ%")
_DIRECTIVE = re.compile(r"%(.)", re.S)


def unportable(source: str, name: str = "<source>") -> list[str]:
    """``name:line: format`` for each date format in ``source`` using a directive outside
    ``PORTABLE``, or not written as a literal (then it cannot be checked)."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        formats: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "strftime" and node.args:
                formats.append(node.args[0])
            elif node.func.attr == "strptime" and len(node.args) > 1:
                formats.append(node.args[1])
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = node.format_spec
            if isinstance(spec, ast.JoinedStr) and any(
                isinstance(v, ast.Constant) and "%" in str(v.value) for v in spec.values
            ):
                formats.append(spec)
        for fmt in formats:
            parts = fmt.values if isinstance(fmt, ast.JoinedStr) else [fmt]
            for part in parts:
                if isinstance(part, ast.FormattedValue):
                    continue  # (a value put into the format: the literal parts are checked)
                if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                    found.append(f"{name}:{fmt.lineno}: {ast.unparse(fmt)} (not a literal)")
                elif set(_DIRECTIVE.findall(part.value)) - PORTABLE:
                    found.append(f"{name}:{fmt.lineno}: {part.value!r}")
    return found


def test_every_date_format_in_the_app_is_portable() -> None:
    found = [
        problem
        for path in sorted(ROOT.rglob("*.py"))
        for problem in unportable(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_finds_what_raises_on_windows() -> None:
    """The check itself: the forms a platform-only directive takes are each reported."""
    source = "\n".join(
        [
            'day.strftime("%-d %b")',  # glibc's unpadded day: ValueError on Windows
            'time.strftime("%e")',
            'datetime.strptime(text, "%Y-%m-%d %P")',
            'f"{day:%#d %B}"',  # Windows' unpadded day
            "day.strftime(pattern)",  # a format the check cannot read
            'day.strftime("%Y-%m-%dT%H:%M:%SZ")',  # portable: not reported
            'f"{day:%d %b %Y}"',
            'f"{fee:,.2f}"',  # no date
        ]
    )
    assert sorted(int(line.split(":")[1]) for line in unportable(source)) == [1, 2, 3, 4, 5]
