"""PySide's Python enums made in one pass over their members, not one Python call chain each.

Why: PySide makes a Python ``enum`` class for every enum of a Qt class the first time the class
is used, through the functional API (shiboken's ``createEnumForPython``: ``IntEnum(name,
[(member, value), ...], boundary=KEEP)``, then ``_missing_``, ``__qualname__``, ``__module__``).
Python 3.11 makes each member through ``_EnumDict.__setitem__`` (four name checks), then
``_proto_member.__set_name__``: a ``delattr`` and a ``setattr`` through ``EnumType``'s own Python
``__delattr__``/``__setattr__``, the class's flag masks set again per member, and a walk of the
bases' dictionaries for a descriptor of the member's name. The window's first paint makes ~190
enum classes and ~3,000 members (the ``Qt`` namespace alone 94 and 1,195, whatever touches
``Qt``): ~250 M instructions, ~27 ms of a ~170 ms start-up; a bare PySide window makes 37.

So ``install()`` (``qt_compat.pyside_import``, before PySide is imported) puts a ``_create_`` on
``enum.EnumType`` that makes the class without members as ``EnumType.__new__`` does (the same
methods, flag structures, ``__new__``: what it gave the first class of the same base and
boundary, handed to ``type.__new__`` at once, a third of the time), then adds the members in one
loop, doing what ``__set_name__`` does for each, in the same order, with the same results (the
flag masks set once at the end, as the last member left them; the members' attributes, the
maps, aliases, ``_member_names_``, ``_iter_member_``). Only for a call shaped like PySide's: a
base of ``Enum``, ``IntEnum``, ``Flag`` or ``IntFlag``, a list of ``(name, int)`` pairs, no
member name that is private, sunder or dunder, repeated, or found in a base's dictionary (where
Python puts a redirect instead); any other call goes to Python's own ``_create_``. The window's
enums before its first paint: ~250 M instructions -> ~70 M.

Kept only for CPython 3.11 (the steps repeated here are 3.11's; another Python's enums are made
as before). Measured on PySide6 6.11.3 (Python 3.11.7); ``tests/qt_compat/test_quick_enums.py``
makes every enum of QtCore, QtGui and QtWidgets both ways and compares them.
"""

from __future__ import annotations

import builtins
import enum
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import Any

_KEPT = sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
_BASES = (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag)
_PYTHONS = enum.EnumType.__dict__["_create_"]  # Python's own (a plain function on the metaclass)


def install() -> None:
    """From now on, enums made as PySide makes them are made in one pass (idempotent)."""
    if _KEPT:
        type.__setattr__(enum.EnumType, "_create_", _create_)


def uninstall() -> None:
    """Python's own ``_create_`` again (tests)."""
    type.__setattr__(enum.EnumType, "_create_", _PYTHONS)


def _create_(
    cls: enum.EnumType,
    class_name: str,
    names: object,
    *,
    module: str | None = None,
    qualname: str | None = None,
    type: builtins.type | None = None,  # (Python's own parameter names)
    start: int = 1,
    boundary: enum.FlagBoundary | None = None,
) -> enum.EnumType:
    """``EnumType._create_``: Python's, but for PySide's calls (see the module's docstring)."""
    if module is None:  # (as Python's: the caller of ``EnumType.__call__``, two frames up)
        with suppress(AttributeError, ValueError, KeyError):
            module = sys._getframe(2).f_globals["__name__"]
    if cls not in _BASES or type is not None or qualname is not None or not _plain(cls, names):
        # (the module found here: Python's would look a frame short)
        made: enum.EnumType = _PYTHONS(
            cls,
            class_name,
            names,
            module=module,
            qualname=qualname,
            type=type,
            start=start,
            boundary=boundary,
        )
        return made
    assert isinstance(names, list)
    enum_class = _empty_class(cls, class_name, module, boundary)
    _add_members(enum_class, names)
    return enum_class


def _empty_class(
    cls: enum.EnumType, class_name: str, module: str | None, boundary: enum.FlagBoundary | None
) -> enum.EnumType:
    """A subclass of ``cls`` without members, as ``EnumType.__new__`` makes it: from what it
    gave the first one of ``cls`` and ``boundary`` (kept: ``_TEMPLATES``), the type made with
    them at once and ``__new__`` set after (as Python sets it: not made a static method)."""
    metacls: Any = cls.__class__
    bases = (cls,)
    if module is None:  # (not picklable: Python's own way)
        classdict = metacls.__prepare__(class_name, bases)
        enum._make_class_unpicklable(classdict)  # type: ignore[attr-defined]
        made: enum.EnumType = metacls.__new__(metacls, class_name, bases, classdict, boundary=boundary)
        return made
    template = _TEMPLATES.get((cls, boundary))
    if template is None:
        first = metacls.__new__(
            metacls, class_name, bases, metacls.__prepare__(class_name, bases), boundary=boundary
        )
        template = _TEMPLATES[cls, boundary] = {k: v for k, v in vars(first).items() if k not in _OWN}
    classdict = dict(template)
    new = classdict.pop("__new__")
    classdict.update(
        __module__=module, _member_names_=[], _member_map_={}, _value2member_map_={}, _unhashable_values_=[]
    )
    enum_class: enum.EnumType = builtins.type.__new__(metacls, class_name, bases, classdict)
    builtins.type.__setattr__(enum_class, "__new__", new)
    return enum_class


# What EnumType.__new__ gives a class without members, by base and boundary; the keys each class
# has of its own (its name and module, its attributes' slots, the member containers) left out.
_TEMPLATES: dict[tuple[enum.EnumType, enum.FlagBoundary | None], dict[str, object]] = {}
_OWN = frozenset(
    {
        "__module__",
        "__qualname__",
        "__dict__",
        "__weakref__",
        "_member_names_",
        "_member_map_",
        "_value2member_map_",
        "_unhashable_values_",
    }
)


def _plain(cls: enum.EnumType, names: object) -> bool:
    """``names`` is a list of ``(name, int)`` pairs whose names Python would make members of
    ``cls``'s subclass with nothing else to do: public, not repeated, in no base's dictionary."""
    if not isinstance(names, list) or not names:
        return False
    seen: set[str] = set()
    for item in names:
        if not isinstance(item, tuple) or len(item) != 2:
            return False
        name, value = item
        if not isinstance(name, str) or not name or name.startswith("_") or name == "mro":
            return False
        if value.__class__ is not int or name in seen:
            return False
        seen.add(name)
    return all(seen.isdisjoint(vars(base)) for base in cls.__mro__)


def _add_members(enum_class: enum.EnumType, names: list[tuple[str, int]]) -> None:
    """What ``_proto_member.__set_name__`` does for each of ``names``, in order."""
    members: Any = enum_class  # (the class's private attributes, as Python's enum reads them)
    member_type = members._member_type_
    new_member: Callable[..., Any] = members._new_member_
    use_args = members._use_args_
    is_flag = issubclass(enum_class, enum.Flag)
    member_names: list[str] = members._member_names_
    member_map: dict[str, Any] = members._member_map_
    value_map: dict[object, Any] = members._value2member_map_
    init = members.__init__ is not enum.Enum.__init__  # (Enum's does nothing)
    single_bit: Callable[[int], bool] = enum._is_single_bit  # type: ignore[attr-defined]
    set_class_attr = type.__setattr__  # (EnumType's refuses only names already members)
    flag_mask = singles = 0
    for name, given in names:
        member = new_member(enum_class, given) if use_args else new_member(enum_class)
        member._value_ = given if member_type is object else member_type(given)
        value = member._value_
        member._name_ = name
        member.__objclass__ = enum_class
        if init:
            member.__init__(given)
        member._sort_order_ = len(member_names)
        if is_flag:
            flag_mask |= value
            if single_bit(value):
                singles |= value
        canonical = value_map.get(value)
        if canonical is not None:  # an alias of the member made first with this value
            member = canonical
        elif not is_flag or single_bit(value):
            member_names.append(name)
        set_class_attr(enum_class, name, member)
        member_map[name] = member
        value_map.setdefault(value, member)
    if is_flag:
        members._flag_mask_ = flag_mask
        members._singles_mask_ = singles
        members._all_bits_ = 2 ** flag_mask.bit_length() - 1
        values = [member._value_ for member in members]
        if values != sorted(values):
            members._iter_member_ = members._iter_member_by_def_
