"""Named catalogues ("production", "staging", the demo...): each with its base URL, connection
settings and a cache folder of its own, in ``profiles.json`` beside the window's settings file.

The file holds no secret (those are in the keyring: ``secrets``), and is readable by its owner
only (0600). A password written in an address (``http://bob:pw@proxy:3128`` as the proxy, or in
the service's address, as earlier versions kept it) is moved to the keyring when the file is
written (:func:`keep_passwords_aside`), or left out with a note saying how to give it instead.
The first time it is read, the single service of earlier versions (``[service] base_url`` of the
settings file) becomes the profile ``default``, which keeps the cache it had (the cache directory
itself); the demo catalogue is the profile ``demo`` (its ``demo/`` folder, as before); new
profiles get ``profiles/<name>/``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.addresses import parse_address, redact, without_user
from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.records.errors import CatalogueError

ENV_CONFIG_DIR = "CATALOGUE_DESKTOP_CONFIG_DIR"
LARGEST_FILE = 1024 * 1024  # bytes of profiles.json read at most (a few hundred catalogues)
APP_FOLDER = "catalogue-desktop"
FILE_NAME = "profiles.json"
SETTINGS_FILE = "catalogue-desktop.ini"  # the window's QSettings file (ui.common.settings)
DEMO = "demo"
DEFAULT = "default"
_NAME = re.compile(r"^[\w][\w .-]{0,39}$")


class ProfileError(CatalogueError):
    """A profile that does not exist, or a name or address that cannot be used."""


class Profile(NamedTuple):
    """A catalogue: ``base_url`` (None for the demo, served in-process), ``cache`` (its folder
    under the cache directory: "" the directory itself), ``connection``.
    (A named tuple, not a dataclass: a dataclass is compiled at every start, docs/decisions.md.)"""

    name: str
    base_url: str | None = None
    demo: bool = False
    cache: str = ""
    connection: ConnectionSettings = ConnectionSettings()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "cache": self.cache}
        if self.demo:
            out["demo"] = True
        if self.base_url:
            out["base_url"] = self.base_url
        connection = self.connection.to_json()
        if connection:
            out["connection"] = connection
        return out

    @classmethod
    def from_json(cls, data: object) -> Profile | None:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"]:
            return None
        url = data.get("base_url")
        cache = data.get("cache")
        return cls(
            data["name"],
            url if isinstance(url, str) and url else None,
            data.get("demo") is True,
            cache if isinstance(cache, str) and ".." not in Path(cache).parts else cache_folder(data["name"]),
            ConnectionSettings.from_json(data.get("connection")),
        )

    def cache_dir(self, base: Path) -> Path:
        """This profile's cache folder under the cache directory ``base``."""
        return base / self.cache if self.cache else base


def demo_profile() -> Profile:
    return Profile(DEMO, None, True, DEMO, ConnectionSettings(proxy="none"))


def cache_folder(name: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "catalogue"
    return f"profiles/{slug}"


def config_dir() -> Path:
    """Where the window's settings file and ``profiles.json`` are (Qt's INI place for the user:
    ``$XDG_CONFIG_HOME`` or ``~/.config``, ``%APPDATA%`` on Windows), or ``$CATALOGUE_DESKTOP_CONFIG_DIR``."""
    if os.environ.get(ENV_CONFIG_DIR):
        return Path(os.environ[ENV_CONFIG_DIR]).expanduser()
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / APP_FOLDER
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_FOLDER


def legacy_base_url(settings_file: Path) -> str | None:
    """The single service address earlier versions kept (``[service] base_url``), if any."""
    import configparser  # (the commands ask; the window's start-up does not: ~1 ms)

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(settings_file, encoding="utf-8")
    except (OSError, configparser.Error, UnicodeDecodeError):
        return None
    value = parser.get("service", "base_url", fallback="").strip()
    return value or None


class Profiles:
    """Every profile, and which the window opens; ``problem``: why the file read was not used
    (one line naming the file, what is wrong and where it was kept aside), else None. (A plain
    class, not a dataclass: a dataclass is compiled at every start, docs/decisions.md.)"""

    __slots__ = ("current", "path", "problem", "profiles")

    def __init__(
        self, profiles: list[Profile], current: str, path: Path | None = None, problem: str | None = None
    ) -> None:
        self.profiles = profiles
        self.current = current
        self.path = path
        self.problem = problem

    def __repr__(self) -> str:
        return f"Profiles({self.profiles!r}, {self.current!r}, {self.path!r}, {self.problem!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profiles):
            return NotImplemented
        return (self.profiles, self.current, self.path, self.problem) == (
            other.profiles,
            other.current,
            other.path,
            other.problem,
        )

    @classmethod
    def load(cls, path: Path, legacy_url: str | None = None) -> Profiles:
        """Read ``path``; without one, the demo and (``legacy_url``) the ``default`` profile.
        Never an exception: a file that cannot be used (not JSON, too deep or too large, not an
        object with a "profiles" list) is moved aside (``profiles.json.bad-YYYYMMDD-HHMMSS``)
        and the defaults are used; one with some unusable catalogues (a value of the wrong type)
        keeps the others, and a copy of it is put aside. ``problem`` says which, in one line."""
        data, wrong = _read(path)
        problem = None
        if wrong is not None:
            problem = f"{path}: {wrong}; {_kept_aside(path, moved=data is None)}"
        found = [p for p in map(Profile.from_json, data["profiles"]) if p is not None] if data else []
        if data is None or not found:
            found = [demo_profile()]
            if legacy_url:
                found.insert(0, Profile(DEFAULT, legacy_url))
            return cls(found, found[0].name, path, problem)
        names = [p.name for p in found]
        unique = [p for i, p in enumerate(found) if p.name not in names[:i]]
        if not any(p.demo for p in unique):
            unique.append(demo_profile())
        current = data.get("current")
        return cls(unique, current if current in names else unique[0].name, path, problem)

    def save(self, path: Path | None = None) -> list[str]:
        """Write the file whole (a new file, 0600, moved over the old one), unless it says so
        already: the window saves the one it opens at every start, and moving a file over another
        makes the file system write it out first (ext4: a few ms, tens on a busy disk). Passwords
        in addresses go to the keyring first; returns what could not be kept, in words."""
        target = path or self.path
        if target is None:
            raise ProfileError("no file to save the catalogues in")
        notes: list[str] = []
        self.profiles = [keep_passwords_aside(p, notes) for p in self.profiles]
        body = {"current": self.current, "profiles": [p.to_json() for p in self.profiles]}
        text = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
        try:
            if target.read_text(encoding="utf-8") == text and target.stat().st_mode & 0o077 == 0:
                return notes
        except (OSError, UnicodeDecodeError):
            pass  # (none yet, or unreadable: written anew)
        target.parent.mkdir(parents=True, exist_ok=True)
        from catalogue_desktop.core.formats.files import text_writer, write_file

        write_file(target, text_writer(lambda out: out.write(text)), private=True)
        return notes

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.profiles]

    def get(self, name: str) -> Profile:
        for p in self.profiles:
            if p.name == name:
                return p
        raise ProfileError(f"there is no catalogue named {name!r}; there are: {', '.join(self.names)}")

    def current_profile(self) -> Profile:
        return self.get(self.current)

    def put(self, profile: Profile) -> Profile:
        """Add ``profile``, or replace the one of its name."""
        for i, p in enumerate(self.profiles):
            if p.name == profile.name:
                self.profiles[i] = profile
                return profile
        self.profiles.append(profile)
        return profile

    def add(self, name: str, base_url: str) -> Profile:
        """A new profile ``name`` for ``base_url`` (its own cache folder)."""
        name = name.strip()
        if not _NAME.match(name):
            raise ProfileError(
                f"a catalogue's name is 1 to 40 letters, digits, spaces, dots, dashes, not {name!r}"
            )
        if name in self.names:
            raise ProfileError(f"there is a catalogue named {name!r} already")
        folders = {p.cache for p in self.profiles}
        if name == DEFAULT and "" not in folders:  # the single service of old: the cache it had
            return self.put(Profile(name, base_url.strip(), False, ""))
        folder = cache_folder(name)
        while folder in folders:
            folder += "-"
        return self.put(Profile(name, base_url.strip(), False, folder))

    def with_base_url(self, name: str, base_url: str) -> Profile:
        """The profile ``name`` (created if missing) now for ``base_url``."""
        try:
            found = self.get(name)
        except ProfileError:
            return self.add(name, base_url)
        return self.put(found._replace(base_url=base_url))


def keep_passwords_aside(profile: Profile, notes: list[str]) -> Profile:
    """``profile`` without any password in its addresses: each kept in the keyring (the service
    address's as the catalogue's basic credentials, the proxy's under ``secrets.proxy_account``), or
    left out with a note in ``notes`` saying how to give it instead."""
    from catalogue_desktop.core.records.errors import InvalidUrl

    connection = profile.connection
    base_url = profile.base_url
    if base_url and "@" in base_url:
        bare, user, password = without_user(base_url)
        if user is not None and password is not None:
            from catalogue_desktop.core.connection.credentials import origin  # (not at every start)

            base_url = bare
            if connection.auth in ("none", "basic"):
                connection = connection.but(auth="basic", username=user)
                account = secrets.account(profile.name, origin(bare))
                _keep(
                    account, password, redact(profile.base_url or ""), notes, "--user NAME --password-env VAR"
                )
            else:
                notes.append(
                    f"{profile.name}: the user and password in its address "
                    f"{redact(profile.base_url or '')} were left out "
                    f"(its credentials are set as {connection.auth})"
                )
    proxy = connection.proxy
    if "@" in proxy:
        try:
            address = parse_address(proxy)
        except InvalidUrl:
            address = None
        if address is not None and address.password is not None:
            connection = connection.but(proxy=address.with_user(address.user))
            _keep(secrets.proxy_account(profile.name, proxy), address.password, redact(proxy), notes,
                  "HTTPS_PROXY=http://user:password@proxy:port")  # fmt: skip
    if base_url == profile.base_url and connection == profile.connection:
        return profile
    return profile._replace(base_url=base_url, connection=connection)


def _keep(account: str, password: str, shown: str, notes: list[str], instead: str) -> None:
    try:
        secrets.store(account, password)
    except secrets.KeyringMissing as exc:
        notes.append(
            f"the password in {shown} was not written to profiles.json and cannot be kept here ({exc}); "
            f"give it in the environment instead ({instead})"
        )


_TYPES = {bool: "true or false", int: "a number", float: "a number", str: "text", list: "a list"}
_FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "base_url": (str, type(None)),
    "demo": (bool,),
    "cache": (str,),
    "connection": (dict, type(None)),
}


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """(the file's data, None), or (None, what is wrong with it); (None, None): no file."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(LARGEST_FILE + 1)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    if len(raw) > LARGEST_FILE:
        return None, f"is larger than {LARGEST_FILE // 1024} KiB, too large for a list of catalogues"
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
    except json.JSONDecodeError as exc:
        return None, f"is not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})"
    except (ValueError, RecursionError):
        return None, "is not JSON this app can read (nested too deep, or a number too long)"
    wrong = _unusable(data)
    return (None, wrong) if wrong else (data, _entries_wrong(data))


def _unusable(data: object) -> str | None:
    """Why a profiles file's data cannot be used at all, or None."""
    if not isinstance(data, dict):
        return f'holds {_kind(data)}, not an object with a "profiles" list'
    if "profiles" not in data:
        return 'has no "profiles" list'
    if not isinstance(data["profiles"], list):
        return f'its "profiles" is {_kind(data.get("profiles"))}, not a list'
    if not isinstance(data.get("current"), str | None):
        return f'its "current" is {_kind(data["current"])}, not a catalogue\'s name'
    return None


def _entries_wrong(data: dict[str, Any]) -> str | None:
    """What is wrong with the first unusable catalogue of a profiles file, or None."""
    for number, entry in enumerate(data["profiles"], 1):
        if not isinstance(entry, dict):
            return f"catalogue {number} is {_kind(entry)}, not an object"
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            return f"catalogue {number} has no name"
        for key, types in _FIELDS.items():
            if key in entry and not isinstance(entry[key], types):
                return f'catalogue {number} ({entry["name"][:40]!r}): "{key}" is {_kind(entry[key])}'
    return None


def _kind(value: object) -> str:
    return "null" if value is None else _TYPES.get(type(value), "an object")


def _kept_aside(path: Path, *, moved: bool) -> str:
    """Move ``path`` aside (``NAME.bad-YYYYMMDD-HHMMSS``), or put a copy of it there (not
    ``moved``: the catalogues read from it are kept), and say where and what follows."""
    import shutil
    import time

    aside = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
    for n in range(2, 100):
        if not aside.exists():
            break
        aside = aside.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
    try:
        if moved:
            path.rename(aside)
        else:
            shutil.copy2(path, aside)
    except OSError as exc:
        return f"it could not be put aside ({exc.strerror or exc}); " + _what_follows(moved)
    return f"{'kept' if moved else 'a copy kept'} aside as {aside.name}; " + _what_follows(moved)


def _what_follows(moved: bool) -> str:
    return "the catalogues start anew (the demo)" if moved else "the other catalogues are used"
