"""Qt classes made ahead, a class per step of an idle job, before a layout needs them.

PySide6 (6.8 and later; measured on 6.11.3) makes a Qt class, with all its Python enums, the first
time its name is read from its module (``QtWidgets.QStyle`` is not in the module's ``__dict__``
until then). For ``QStyle`` that is ~500 enum members, 8-15 ms of the GUI thread's CPU (loaded
machine). The facet panel's first layout read it (its cells' text margin) inside the longest
event-loop stall of a 10,000 refresh (bench/run.py --only stall; docs/decisions.md, "Stalls once
the window is on screen"): made ahead as a step of the finder's first job, no layout pays for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

# The classes the finder's panel makes on its first layout (``ui.finder.facet_panel``).
FACETS = ("QStyle",)


def made_in_steps(names: Iterable[str]) -> Iterator[None]:
    """Make the ``QtWidgets`` classes ``names``, yielding after each one not made yet (for a job
    run a step at a time by an idle timer: ``ui.finder.indexer``)."""
    from PySide6 import QtWidgets

    for name in names:
        if name in vars(QtWidgets):  # (made already: reading it costs nothing)
            continue
        getattr(QtWidgets, name)
        yield
