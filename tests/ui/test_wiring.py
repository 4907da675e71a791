"""Explicit wiring in the window's code (``docs/architecture.md``, "Wiring"), checked on its source:
no object sets attributes on the window, none probes another with ``getattr(obj, name, default)``,
``hasattr`` or ``setattr``, and no class is a mixin (a second base that is not a ``Protocol``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import catalogue_desktop.ui

UI = Path(catalogue_desktop.ui.__file__).parent
# Probes left, by file and the probed name: the command line's namespace (each command defines
# its own options), read in one place (``Options.from_args``).
ALLOWED_PROBES = {("shell/options.py", "args")}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(UI.rglob("*.py")):
        yield path.relative_to(UI).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def probes(source: str) -> list[str]:
    """``getattr`` with a default, ``hasattr`` and ``setattr`` calls in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        name = node.func.id
        if name in ("hasattr", "setattr") or (name == "getattr" and len(node.args) >= 3):
            found.append(ast.unparse(node))
    return found


def injections(source: str) -> list[str]:
    """Attributes assigned on a window from outside it (``window.x = ...``, ``w.x = ...``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for item in target.elts if isinstance(target, ast.Tuple) else [target]:
                owner = item.value if isinstance(item, ast.Attribute) else None
                if isinstance(owner, ast.Name) and owner.id in ("window", "w"):
                    found.append(ast.unparse(item))
                if isinstance(owner, ast.Attribute) and owner.attr == "window":
                    found.append(ast.unparse(item))
    return found


def test_the_checks_find_what_they_look_for() -> None:
    source = (
        "def wire(window, w, box):\n"
        "    window.result_for = f\n"
        "    w.open_palette, x = g, 1\n"
        "    self.window.engine = h\n"
        "    box.text = 'kept'\n"
        "    getattr(window, 'finder_engine', None)\n"
        "    getattr(window, 'status')\n"
        "    hasattr(box, 'typed')\n"
        "    setattr(box, 'completions', f)\n"
    )
    assert injections(source) == ["window.result_for", "w.open_palette", "self.window.engine"]
    assert probes(source) == [
        "getattr(window, 'finder_engine', None)",
        "hasattr(box, 'typed')",
        "setattr(box, 'completions', f)",
    ]


def test_no_attribute_is_injected_into_the_window() -> None:
    found = {name: injections(ast.unparse(tree)) for name, tree in _modules()}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_no_object_is_probed_for_attributes() -> None:
    found = {}
    for name, tree in _modules():
        hits = [
            hit
            for hit in probes(ast.unparse(tree))
            if not any(name == file and f"({probed}," in hit for file, probed in ALLOWED_PROBES)
        ]
        if hits:
            found[name] = hits
    assert found == {}


def test_no_class_is_a_mixin() -> None:
    mixed = [
        f"{name}: {node.name}"
        for name, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and len([b for b in node.bases if ast.unparse(b) not in ("Protocol", "Generic")]) > 1
        and "Protocol" not in [ast.unparse(b) for b in node.bases]
    ]
    assert mixed == []
