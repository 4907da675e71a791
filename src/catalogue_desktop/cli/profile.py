"""``catalogue-desktop profile``: the catalogues (profiles) listed, one added or changed, its
secret put in the keyring (read from standard input, never an argument). The window's File ▸
Catalogue and Preferences ▸ Connection edit the same ``profiles.json``."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from catalogue_desktop.cli.output import say

if TYPE_CHECKING:
    from catalogue_desktop.core.connection.profiles import Profile, Profiles


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.connection import profiles as store

    folder = store.config_dir()
    path = folder / store.FILE_NAME
    existed = path.exists()
    found = store.Profiles.load(path, store.legacy_base_url(folder / store.SETTINGS_FILE))
    notes = found.save(path) if _holds_password(path) else []  # an earlier version's file
    if found.problem:
        say(f"catalogue-desktop: {found.problem}", sys.stderr)
    if not args.name:
        _say_notes(notes)
        say(listing(found))
        return 1 if notes else 0
    profile = changed(found, args)
    if profile is None:
        return 2
    if changes_asked(args) or not existed:
        notes += found.save(path)  # a password in an address goes to the keyring (or is refused)
    _say_notes(notes)
    say(listing(found, only=profile.name))
    kept = keep_secret(found.get(profile.name) or profile) if args.secret_stdin else True
    return 1 if notes or not kept else 0


def _say_notes(notes: list[str]) -> None:
    for note in notes:
        say(f"catalogue-desktop: {note}", sys.stderr)


def _holds_password(path: Path) -> bool:
    """Whether ``profiles.json`` (an earlier version's) holds a password in an address, or can be
    read by others: then it is written anew (the password moved to the keyring, the file 0600)."""
    from catalogue_desktop.core.connection.addresses import redact

    try:
        text = path.read_text(encoding="utf-8")
        private = path.stat().st_mode & 0o077 == 0
    except (OSError, UnicodeDecodeError):
        return False
    return redact(text) != text or not private


def changes_asked(args: argparse.Namespace) -> bool:
    names = ("base_url", "proxy", "ca_file", "auth", "user", "auth_header", "secret_env")
    return any(getattr(args, n) is not None for n in names)


def changed(found: Profiles, args: argparse.Namespace) -> Profile | None:
    """The profile ``args.name`` with the options given (made if missing); None after an error."""
    from catalogue_desktop.core.connection.proxies import check_proxy_url
    from catalogue_desktop.core.service.failures import normalise_base_url

    url = normalise_base_url(args.base_url) if args.base_url else None
    if args.name in found.names:
        profile = found.get(args.name)
        if url:
            profile = found.with_base_url(args.name, url)
    elif url:
        profile = found.add(args.name, url)
    else:
        say(f"catalogue-desktop: a new catalogue needs --base-url URL; there are: {', '.join(found.names)}",
            sys.stderr)  # fmt: skip
        return None
    settings = profile.connection
    changes: dict[str, str] = {}
    if args.proxy is not None:
        proxy = args.proxy.strip()
        changes["proxy"] = "" if proxy == "system" else proxy if proxy == "none" else check_proxy_url(proxy)
    if args.ca_file is not None:
        changes["ca_file"] = args.ca_file
    if args.auth is not None:
        changes["auth"] = args.auth
    if args.user is not None:
        changes["username"] = args.user
    if args.auth_header is not None:
        changes["header"] = args.auth_header
    if args.secret_env is not None:
        changes["secret_env"] = args.secret_env
    return found.put(profile._replace(connection=settings.but(**changes)))


def keep_secret(profile: Profile) -> bool:
    """Read the secret from standard input (without echo on a terminal) into the keyring."""
    from catalogue_desktop.core.connection import secrets
    from catalogue_desktop.core.connection.credentials import origin

    if profile.base_url is None:
        say("catalogue-desktop: the demo catalogue takes no credentials", sys.stderr)
        return False
    if sys.stdin.isatty():
        from catalogue_desktop.core.connection.addresses import redact

        secret = getpass.getpass(f"Secret for {profile.name} ({redact(profile.base_url)}): ")
    else:
        secret = sys.stdin.readline().rstrip("\r\n")
    try:
        secrets.store(secrets.account(profile.name, origin(profile.base_url)), secret)
    except secrets.KeyringMissing as exc:
        say(f"catalogue-desktop: {exc}", sys.stderr)
        return False
    say(f"Kept the secret of {profile.name} in the keyring", sys.stderr)
    return True


def listing(found: Profiles, only: str | None = None) -> str:
    """One line per catalogue: name (``*`` the window's), address, cache folder, connection (no
    password: an address shows its user as ``user:***@``)."""
    from catalogue_desktop.core.connection.addresses import redact

    lines = []
    for p in found.profiles:
        if only is not None and p.name != only:
            continue
        mark = "*" if p.name == found.current else " "
        where = "the bundled demo catalogue" if p.demo else redact(p.base_url or "no address")
        c = p.connection
        parts = [f"cache {p.cache or '(the cache directory)'}"]
        if c.proxy:
            parts.append(f"proxy {redact(c.proxy)}")
        if c.ca_file:
            parts.append(f"extra CA file {c.ca_file}")
        if c.auth != "none":
            who = {"basic": f" as {c.username}", "header": f" in {c.header}"}.get(c.auth, "")
            source = f" from ${c.secret_env}" if c.secret_env else " from the keyring"
            parts.append(f"credentials {c.auth}{who}{source}")
        lines.append(f"{mark} {p.name:12} {where} ({'; '.join(parts)})")
    return "\n".join(lines)
