"""PySide's enums made in one pass (``qt_compat.quick_enums``) are the classes Python makes: every
enum of QtCore, QtGui and QtWidgets made both ways from the same members and compared, and the
window's start makes PySide's enums that way. Counted and compared, not timed."""

from __future__ import annotations

import enum
import textwrap
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from catalogue_desktop.qt_compat import quick_enums
from tests.fresh_python import run_json

_BASES = (enum.IntFlag, enum.Flag, enum.IntEnum, enum.Enum)  # (the most derived first)


def _pyside_enums() -> Iterator[enum.EnumType]:
    """Every enum class of QtCore, QtGui and QtWidgets (each class made now if it was not)."""
    for module in (QtCore, QtGui, QtWidgets):
        for name in dir(module):
            owner = getattr(module, name)
            if isinstance(owner, type):
                for value in vars(owner).values():
                    if isinstance(value, enum.EnumType):
                        yield value


def _made(pyside: enum.EnumType, quick: bool) -> Any:
    """``pyside``'s members made again as PySide makes them, by Python's ``_create_`` or by the
    one-pass one."""
    base = next(base for base in _BASES if issubclass(pyside, base))
    pairs = [(name, int(member._value_)) for name, member in pyside.__members__.items()]
    if quick:
        quick_enums.install()
    else:
        quick_enums.uninstall()
    try:
        return base(pyside.__name__, pairs, boundary=enum.KEEP)  # type: ignore[call-overload]
    finally:
        quick_enums.install()


def _differences(python: Any, quick: Any) -> list[str]:
    """What differs between two enum classes made from the same members: their dictionaries
    (members by name and value, the maps, masks, methods), iteration, and what members say."""
    found = []
    python_dict, quick_dict = dict(vars(python)), dict(vars(quick))
    if set(python_dict) != set(quick_dict):
        found.append(f"keys {set(python_dict) ^ set(quick_dict)}")
    for key in set(python_dict) & set(quick_dict):
        a, b = python_dict[key], quick_dict[key]
        if key in python._member_map_:
            same = (type(a) is python, type(b) is quick) == (True, True) and (
                a._name_,
                a._value_,
                a._sort_order_,
                a.__objclass__ is python,
                vars(a).keys(),
            ) == (b._name_, b._value_, b._sort_order_, b.__objclass__ is quick, vars(b).keys())
        elif key in ("_member_map_", "_value2member_map_"):
            same = [(k, v._name_) for k, v in a.items()] == [(k, v._name_) for k, v in b.items()]
        elif key == "_iter_member_":
            same = a.__func__ is b.__func__
        elif key == "__dict__" or key == "__weakref__":
            same = True
        else:
            same = a is b or a == b
        if not same:
            found.append(f"{key}: {a!r} / {b!r}")
    if [m._name_ for m in python] != [m._name_ for m in quick]:
        found.append("iteration")
    for a, b in zip(python._member_map_.values(), quick._member_map_.values(), strict=True):
        if (repr(a), str(a), format(a), hash(a)) != (repr(b), str(b), format(b), hash(b)):
            found.append(f"member {a!r} / {b!r}")
    if issubclass(python, enum.Flag):
        pairs = list(zip(python._member_map_.values(), quick._member_map_.values(), strict=True))
        for (a1, b1), (a2, b2) in pairwise(pairs):
            if (repr(a1 | a2), repr(~a1), repr(a1 & a2)) != (repr(b1 | b2), repr(~b1), repr(b1 & b2)):
                found.append(f"flags {a1!r} | {a2!r}")
    for value in [*list(python._value2member_map_)[:40], 123_456_789]:
        try:
            a_found = repr(python(value))
        except (ValueError, TypeError) as exc:  # (an enum without members: TypeError)
            a_found = type(exc).__name__
        try:
            b_found = repr(quick(value))
        except (ValueError, TypeError) as exc:
            b_found = type(exc).__name__
        if a_found != b_found:
            found.append(f"{python.__name__}({value}): {a_found} / {b_found}")
    return found


def compared() -> dict[str, Any]:
    """Every PySide enum made both ways and compared: how many, and the differences found. Run in
    a fresh interpreter (``python -m tests.qt_compat.test_quick_enums``): see the test below."""
    pyside = list(_pyside_enums())
    different = {}
    for made in pyside:
        found = _differences(_made(made, quick=False), _made(made, quick=True))
        if found:
            different[made.__qualname__] = found
    return {"count": len(pyside), "different": different}


def test_every_pyside_enum_made_in_one_pass_is_the_class_python_makes() -> None:
    """In a fresh interpreter: making every class of QtCore, QtGui and QtWidgets (PySide makes a
    type when first used) is kept out of the test workers, whose later tests process Qt events
    (a worker of a full run crashed twice in pytest-qt's event processing, ~80% into the suite,
    after this test had run in it in-process; not shown to be the cause)."""
    script = "import runpy; runpy.run_module('tests.qt_compat.test_quick_enums', run_name='__main__')"
    seen, _ = run_json(script, timeout=120)
    assert seen["count"] > 600  # (QtCore, QtGui and QtWidgets: ~700 enums)
    assert seen["different"] == {}


@pytest.mark.parametrize(
    "make",
    [
        lambda: enum.IntEnum("Named", "A B C"),  # names, no values
        lambda: enum.IntEnum("Mapped", {"A": 1, "B": 2}),  # a mapping
        lambda: enum.Enum("Valued", [("name", 1), ("other", 2)]),  # a member shadowing Enum.name
        lambda: enum.Enum("Texts", [("A", "a"), ("B", "b")]),  # values not ints
        lambda: enum.IntFlag("Sunder", [("_A", 1)]),  # a private name
    ],
)
def test_other_calls_are_pythons_own(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    quick_enums.install()
    monkeypatch.setattr(quick_enums, "_add_members", lambda *_: pytest.fail("made in one pass"))
    made = make()
    assert isinstance(made, enum.EnumType)


def test_the_windows_start_makes_pysides_enums_in_one_pass() -> None:
    """A fresh start of the window's imports: the ``Qt`` namespace's enums (made by whatever
    first touches ``Qt``) are made by the one-pass ``_create_``, every one of them."""
    script = textwrap.dedent("""
        import json
        from catalogue_desktop.qt_compat import quick_enums
        made = []
        one_pass = quick_enums._add_members
        def counted(enum_class, names):
            made.append(enum_class.__name__)
            one_pass(enum_class, names)
        quick_enums._add_members = counted
        import catalogue_desktop.ui.shell.app
        from PySide6.QtCore import Qt
        import enum
        namespace = [v.__name__ for v in vars(Qt).values() if isinstance(v, enum.EnumType)]
        print(json.dumps({"made": made, "namespace": namespace}))
    """)
    seen, _ = run_json(script)
    assert len(seen["namespace"]) > 90
    assert set(seen["namespace"]) <= set(seen["made"])


if __name__ == "__main__":  # (the comparison in a fresh interpreter: ``compared``)
    import json

    print(json.dumps(compared()))
