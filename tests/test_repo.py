"""Repository promises: CI runs exactly the test command README gives newcomers."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "-m pytest" in line]


def test_ci_runs_the_readme_test_command() -> None:
    readme = _commands((ROOT / "README.md").read_text(encoding="utf-8"))
    ci = _commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert readme, "README.md gives no pytest command"
    assert ci[:1] == readme[:1], f"CI first runs {ci[:1]}, README's test command is {readme[:1]}"
    missing = [c for c in ci if c not in readme]
    assert not missing, f"CI runs pytest commands README does not give: {missing}"


def test_readme_gives_an_install_and_run_command() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"pip install .*-e \. && \S*catalogue-desktop", text)


def test_the_service_interface_lives_in_the_repository() -> None:
    spec = ROOT / "docs" / "catalogue-api-v1.md"
    assert spec.is_file() and "## 2. Resources and their fields" in spec.read_text(encoding="utf-8")
    assert "](docs/catalogue-api-v1.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    outside = []
    for folder in ("src", "tests", "docs", "bench", "packaging", "resources"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md", ".toml", ".spec") or path == Path(__file__):
                continue
            text = path.read_text(encoding="utf-8", errors="replace").replace('" / "', "/")
            if "shared/spec" in text:  # the copy outside the repository, where it used to point
                outside.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/spec" not in readme and not outside, outside


def test_the_field_reference_is_the_engines_own() -> None:
    """docs/query-language.md's field table (README links to it) is what ``reference_markdown()``
    writes from the engine's field list (to update it: ``python -m
    catalogue_desktop.core.query.fields``, between the markers)."""
    from catalogue_desktop.core.query.fields import reference_markdown

    text = (ROOT / "docs" / "query-language.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- fields:start -->\n(.*?)<!-- fields:end -->", text, re.S)
    assert found, "docs/query-language.md has no <!-- fields:start --> ... <!-- fields:end --> markers"
    assert found.group(1).strip() == reference_markdown().strip(), (
        "docs/query-language.md's field table differs from reference_markdown(): paste the output "
        "of `python -m catalogue_desktop.core.query.fields` between the markers"
    )
    assert "](docs/query-language.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_window_and_the_first_five_minutes() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    image = re.search(r"!\[[^\]]+\]\((docs/images/[\w.-]+\.png)\)", text)
    assert image and (ROOT / image.group(1)).is_file()
    assert text.index("## The first five minutes") < text.index("## Two commands")
    assert "another tab" in text or "moves to one that has" in text  # results may be on another tab


def test_readme_documents_every_command() -> None:
    from catalogue_desktop.cli import build_parser

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in commands:
        assert f"catalogue-desktop {name}" in text, name


def test_one_line_installs_what_the_benchmarks_need_and_runs_them() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = extras["optional-dependencies"]
    run = (ROOT / "bench" / "run.py").read_text(encoding="utf-8")
    needs = dict(re.findall(r'"(\w+)": "(\w+)"', re.search(r"NEEDS = \{[^}]*\}", run).group(0)))
    assert {"psutil", "duckdb"} <= set(needs)
    for module, extra in needs.items():
        assert any(re.match(rf"{module}\b", dep, re.I) for dep in extras[extra]), (module, extra)
    wanted = sorted(set(needs.values()))
    for doc in ("README.md", "bench/README.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        line = next((ln for ln in text.splitlines() if "pip install" in ln and "bench/run.py" in ln), "")
        named = re.search(r"-e '\.\[([\w,]+)\]'", line)
        assert named and set(wanted) <= set(named.group(1).split(",")), f"{doc}: {line!r}"
