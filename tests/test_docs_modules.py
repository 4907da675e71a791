"""Docs that cannot drift: the module names the docs and docstrings give exist (issue 37, point 9).

* ``docs/architecture.md``'s folder map names every package under ``src/catalogue_desktop``, each
  under its parent, and no package that does not exist; every module of a package is named in its
  part of the map.
* ``docs/architecture.md``, ``docs/development.md``, every package's caption (its ``__init__``
  docstring) and every module's docstring: each module they name (``catalogue_desktop.x.y``,
  ``x.y`` relative to a package above, or a path ``x/y.py``) exists; a name after the module
  (``app.run``) is one its source defines.
* ``docs/development.md``'s layout names exactly the Qt layer's folders.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "catalogue_desktop"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
DEVELOPMENT = ROOT / "docs" / "development.md"
TOP_FOLDERS = {p.name for p in ROOT.iterdir() if p.is_dir()}

Parts = tuple[str, ...]


def _packages() -> list[Parts]:
    return sorted(p.parent.relative_to(SRC).parts for p in SRC.rglob("__init__.py"))


PACKAGES = _packages()
PACKAGE_NAMES = {name for package in PACKAGES for name in package}
NAMES = PACKAGE_NAMES | {p.stem for p in SRC.rglob("*.py") if p.stem != "__init__"}


def _source(parts: Parts) -> Path | None:
    """The file of module or package ``parts`` (relative to ``catalogue_desktop``), if any."""
    path = SRC.joinpath(*parts) if parts else SRC
    if parts and path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def _bases(package: Parts) -> list[Parts]:
    """Where a relative name is looked up from ``package``: it, each package above, core, ui and
    cli, then any package (prose names a module by its last name: ``table_model.set_result``)."""
    above = [package[:i] for i in range(len(package), -1, -1)]
    return above + [("core",), ("ui",), ("cli",)] + [p for p in PACKAGES if p not in above]


def resolves(dotted: str, package: Parts = ()) -> bool:
    """Whether ``dotted`` names a module (or a name a module defines) from ``package``."""
    parts = dotted.split(".")
    bases = _bases(package)
    if parts[0] == "catalogue_desktop":
        parts, bases = parts[1:], [()]
    for base in bases:
        found = list(base)
        for part in parts:
            if _source((*found, part)) is None:
                break
            found.append(part)
        matched = len(found) - len(base)
        if matched == len(parts):
            return True
        if matched:  # the rest are names in that module: the first must be in its source
            source = _source(tuple(found))
            if source and re.search(rf"\b{re.escape(parts[matched])}\b", source.read_text()):
                return True
    return False


def path_resolves(path: str) -> bool:
    """Whether a path (``ui/offers/sheet_pdf``, ``core/sync/workers.py``, ``tests/...``) exists."""
    path = path.rstrip("/")
    if path.split("/")[0] in TOP_FOLDERS:
        return (ROOT / path).exists()
    for base in (SRC, SRC / "core", SRC / "ui"):
        target = base / path
        if target.is_dir() or target.with_suffix(".py").is_file() or target.is_file():
            return True
    return False


DOTTED = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+$")
PATH = re.compile(r"(?<![\w./-])((?:[a-z_][a-z0-9_]*/)+[a-z_][a-z0-9_]*(?:\.[a-z]+)?/?)(?![\w-])")
FILE_TYPES = {"json", "md", "py", "toml", "csv", "ics", "txt", "html", "xlsx", "pdf", "png", "sh", "spec"}
QUALIFIED = re.compile(r"\bcatalogue_desktop(?:\.[a-z_][a-z0-9_]*)+")


def stale_names(text: str, package: Parts, quote: str, any_path: bool = True) -> list[str]:
    """The module names in ``text`` (quoted by ``quote``, a path, or fully qualified) that do not
    resolve from ``package``. Without ``any_path``, only paths to a ``.py`` file or under one of
    the repository's folders count (docstrings also quote settings keys: ``finder/saved``)."""
    stale = []
    quoted = re.findall(rf"{re.escape(quote)}([^`\s]+?){re.escape(quote)}", text)
    for token in quoted + QUALIFIED.findall(text):
        token = token.rstrip(".")
        module_like = DOTTED.match(token) and token.split(".")[-1] not in FILE_TYPES
        if (
            module_like
            and token.split(".")[0] in NAMES | {"catalogue_desktop"}
            and not resolves(token, package)
        ):
            stale.append(token)
    for path in PATH.findall(text):
        first = path.split("/")[0]
        if not any_path and not (path.endswith(".py") or first in TOP_FOLDERS):
            continue
        if first in PACKAGE_NAMES | TOP_FOLDERS and not path_resolves(path):
            stale.append(path)
    return stale


def _docstrings() -> Iterator[tuple[Path, Parts, str]]:
    for path in sorted(SRC.rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text()), clean=False)
        if doc:
            package = path.parent.relative_to(SRC).parts
            yield path, package, doc


# -- docs/architecture.md's folder map ---------------------------------------------------------------


def folder_map() -> str:
    text = ARCHITECTURE.read_text()
    section = text.split("## Folders", 1)[1]
    return section.split("```", 2)[1].strip("\n")


def mapped_packages(block: str) -> dict[Parts, str]:
    """The packages the folder map names, each with its part of the map (its lines, until the next
    package at its depth or above). A package is ``name/`` at a line's start, or after ``| ``;
    its parent is the package above it with less indentation."""
    lines = block.splitlines()[1:]  # the first line is src/catalogue_desktop/, the map ends at tests/
    lines = lines[: next((i for i, line in enumerate(lines) if not line.startswith(" ")), len(lines))]
    entries: list[tuple[int, int, list[str]]] = []  # (line, indentation, names)
    for number, line in enumerate(lines):
        match = re.match(r"^( *)([a-z_]+)/(?: \| ([a-z_]+)/)?", line)
        if match and (line[match.end() :].startswith(" ") or match.end() == len(line)):
            names = [n for n in match.group(2, 3) if n]
            entries.append((number, len(match.group(1)), names))
    found: dict[Parts, str] = {}
    stack: list[tuple[int, Parts]] = []
    for i, (number, indent, names) in enumerate(entries):
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ()
        end = next((n for n, ind, _ in entries[i + 1 :] if ind <= indent), len(lines))
        deeper = [n for n, ind, _ in entries[i + 1 :] if ind > indent and n < end]
        own = lines[number : deeper[0] if deeper else end]
        for name in names:
            found[(*parent, name)] = "\n".join(own)
        for name in re.findall(r"(?<![\w/.])([a-z_]+)/ ", "\n".join(own)[match_end(own[0]) :]):
            found[(*parent, names[-1], name)] = "\n".join(own)
        stack.append((indent, (*parent, names[0])))
    return found


def match_end(line: str) -> int:
    match = re.match(r"^ *[a-z_]+/(?: \| [a-z_]+/)?", line)
    return match.end() if match else 0


def test_the_folder_map_names_every_package_and_only_packages() -> None:
    mapped = set(mapped_packages(folder_map()))
    real = {p for p in PACKAGES if p}
    assert not real - mapped, (
        f"packages missing from docs/architecture.md's folder map: {sorted(real - mapped)}"
    )
    assert not mapped - real, (
        f"docs/architecture.md's folder map names no such package: {sorted(mapped - real)}"
    )


def test_the_folder_map_names_every_module_in_its_package() -> None:
    unnamed = []
    for package, part in mapped_packages(folder_map()).items():
        words = set(re.findall(r"[a-z_][a-z0-9_]*", part))
        for module in sorted((SRC.joinpath(*package)).glob("*.py")):
            if module.stem not in {"__init__", "__main__"} and module.stem not in words:
                unnamed.append("/".join((*package, module.name)))
    assert not unnamed, f"modules not named in docs/architecture.md's folder map: {unnamed}"


def test_the_layers_diagram_names_every_subsystem_and_feature() -> None:
    diagram = ARCHITECTURE.read_text().split("## Layers", 1)[1].split("```", 2)[1]
    ui_box = diagram.split("ui/", 1)[1].split("qt_compat", 1)[0]
    core_part = diagram.split("\n   core", 1)[1]
    missing = [
        "/".join(p)
        for p in PACKAGES
        if len(p) == 2
        and p[0] in {"core", "ui"}
        and p[1] not in re.findall(r"[a-z_]+", core_part if p[0] == "core" else ui_box)
    ]
    assert not missing, f"the layers' diagram of docs/architecture.md leaves out: {missing}"


# -- names of modules in the docs and docstrings --------------------------------------------------------


@pytest.mark.parametrize("doc", [ARCHITECTURE, DEVELOPMENT], ids=lambda p: p.name)
def test_the_modules_the_docs_name_exist(doc: Path) -> None:
    assert not stale_names(doc.read_text(), (), "`"), f"{doc.name} names no such module"


def test_the_modules_captions_and_docstrings_name_exist() -> None:
    stale = {
        str(path.relative_to(ROOT)): names
        for path, package, doc in _docstrings()
        if (names := stale_names(doc, package, "``", any_path=False))
    }
    assert not stale, f"docstrings name no such module: {stale}"


def test_each_package_caption_names_its_own_modules() -> None:
    """A package's caption (``name`` quoted alone) names modules of that package, or a package or
    module that exists elsewhere; a word that is no module is a stale name."""
    stale = {}
    for init in sorted(SRC.rglob("__init__.py")):
        package = init.parent.relative_to(SRC).parts
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        source = "\n".join(p.read_text() for p in init.parent.rglob("*.py"))
        names = [
            n
            for n in re.findall(r"``([a-z_][a-z0-9_]+)``", doc)
            if not resolves(n, package)
            and not _library(n)
            and not re.search(rf"\b(def|class) {n}\b|^{n}\b *[:=]", source, re.M)
            and n not in NOT_MODULES
        ]
        if names:
            stale[str(init.relative_to(ROOT))] = names
    assert not stale, f"package captions name no such module: {stale}"


NOT_MODULES = {"destroyed"}  # QObject's signal, in qt_compat's caption


def _library(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_development_md_names_the_qt_layer_s_folders() -> None:
    layout = DEVELOPMENT.read_text().split("`ui` (", 1)[1].split("`qt_compat`", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", layout))
    real = {p[1] for p in PACKAGES if len(p) == 2 and p[0] == "ui"}
    assert named == real, (
        f"docs/development.md names {sorted(named - real)}, leaves out {sorted(real - named)}"
    )


# -- the check can fail ----------------------------------------------------------------------------


def test_the_checks_see_a_stale_name() -> None:
    assert resolves("catalogue_desktop.core.sync.workers") and resolves("records.field_registry")
    assert resolves("app.run", ("ui", "shell")) and resolves("cache.record_history", ("core", "searches"))
    assert not resolves("catalogue_desktop.core.sync.gone") and not resolves("records.gone")
    assert not resolves("app.no_such_function", ("ui", "shell"))
    assert path_resolves("ui/offers/sheet_pdf") and path_resolves("tests/core/test_boundary.py")
    assert not path_resolves("ui/export") and not path_resolves("tests/test_gone.py")
    assert stale_names("see ``query.gone`` and core/gone.py", (), "``") == ["query.gone", "core/gone.py"]
    block = "src/catalogue_desktop/\n  core/  a\n    cache/ | service/   store\n  demo/  x\n    watch/  news"
    assert set(mapped_packages(block)) == {
        ("core",),
        ("core", "cache"),
        ("core", "service"),
        ("demo",),
        ("demo", "watch"),
    }
