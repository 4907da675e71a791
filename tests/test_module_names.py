"""One name, one module: no two module files of the package share a file name (``__init__.py``
aside), so that a name in a traceback, a docstring or a search says which module it is, and a
module's name says its one job (``core/offers/export_offerings.py``, not a second ``export.py``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "catalogue_desktop"


def shared_names(files: Iterable[Path], root: Path) -> dict[str, list[str]]:
    """File names used by more than one module under ``root``: name -> the modules' paths."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in files:
        if path.name != "__init__.py":
            found[path.name].append(path.relative_to(root).as_posix())
    return {name: sorted(paths) for name, paths in sorted(found.items()) if len(paths) > 1}


def test_no_module_file_name_is_used_twice() -> None:
    modules = list(PACKAGE.rglob("*.py"))
    assert len(modules) > 200  # the package was found
    assert shared_names(modules, PACKAGE) == {}


def test_a_name_used_twice_is_found(tmp_path: Path) -> None:
    for module in ("core/offers/export.py", "cli/export.py", "core/offers/__init__.py", "cli/__init__.py"):
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("")
    assert shared_names(tmp_path.rglob("*.py"), tmp_path) == {
        "export.py": ["cli/export.py", "core/offers/export.py"]
    }
