"""Two runs of ``bench/run.py`` side by side: ``python bench/compare.py BEFORE.md AFTER.md``
prints a markdown table of the results rows both reports hold (matched by their "what"), each
with its figure, ratio and result before and after. For an issue's closing figures: the same
bench, run on the code before and after the change, on the same machine, one after the other.
"""

from __future__ import annotations

import sys
from pathlib import Path


def rows(report: Path) -> dict[str, list[str]]:
    """The results table of a ``RESULTS.md``: what -> [figure, baseline, ratio, goal, result]."""
    found: dict[str, list[str]] = {}
    inside = False
    for line in report.read_text(encoding="utf-8").splitlines():
        if line.startswith("| what |"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        if inside and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            found[cells[0]] = cells[1:]
    return found


def table(before: Path, after: Path) -> list[str]:
    old, new = rows(before), rows(after)
    lines = [
        "| what | goal | before: figure | ratio | result | after: figure | ratio | result |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for what, cells in new.items():
        if what not in old:
            continue
        was = old[what]
        lines.append(
            f"| {what} | {cells[3]} | {was[0]} | {was[2]} | {was[4]} | {cells[0]} | {cells[2]} | {cells[4]} |"
        )
    return lines


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    print("\n".join(table(Path(sys.argv[1]), Path(sys.argv[2]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
