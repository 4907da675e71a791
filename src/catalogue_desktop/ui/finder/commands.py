"""Quick open's commands: every action of the window's menus, read from the menus themselves, so
that Ctrl+K reaches whatever a menu does (and a new menu item needs nothing here).

Menus filled when they open (Columns, Searches) are filled first (their ``aboutToShow``). A
command is named by its menu path and text ("File ▸ Offer" · "Calendar file (.ics)…")
and matched on both, with its shortcut shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from catalogue_desktop.core.query.folding import fold

__all__ = ["MenuCommand", "matching", "menu_commands"]


@dataclass(frozen=True)
class MenuCommand:
    path: str  # "File ▸ Offer"
    text: str  # "Calendar file (.ics)…"
    keys: str  # "Ctrl+P", or ""
    action: QAction

    def words(self) -> str:
        return fold(f"{self.path} {self.text}")


def menu_commands(menu_bar: QMenuBar) -> list[MenuCommand]:
    """Every enabled, visible action of ``menu_bar``'s menus (submenus walked), in menu order."""
    out: list[MenuCommand] = []
    seen: set[int] = set()

    def walk(menu: QMenu, path: str) -> None:
        menu.aboutToShow.emit()  # menus made when shown (Columns, Searches) are filled now
        for act in menu.actions():
            if act.isSeparator() or not act.isVisible():
                continue
            text = _plain(act.text())
            sub = act.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{path} ▸ {text}")
                continue
            if not text or not act.isEnabled() or id(act) in seen:
                continue
            seen.add(id(act))
            keys = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            out.append(MenuCommand(path, text, keys, act))

    for top in menu_bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            walk(menu, _plain(top.text()))
    return out


def matching(commands: list[MenuCommand], text: str) -> list[MenuCommand]:
    """The commands whose path and text hold every word of ``text`` (all for no words)."""
    words = fold(text).split()
    return [c for c in commands if all(word in c.words() for word in words)]


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")
