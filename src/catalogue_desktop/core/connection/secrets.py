"""Secrets (tokens, passwords) in the operating system's keyring, or in an environment variable.

The keyring is the ``keyring`` package's (macOS Keychain, Windows Credential Manager, the Secret
Service on Linux). A machine without one (a server, a minimal Linux, a container) gets a clear
sentence (:func:`keyring_problem`) and the secret is read from an environment variable only: it
is never written to the settings file instead. Each secret belongs to one catalogue and the
service's origin it was entered for: moving a catalogue to another host does not send it there.
"""

from __future__ import annotations

import os
from typing import Any

from catalogue_desktop.core.records.errors import CatalogueError

KEYRING_SERVICE = "catalogue-desktop"
NO_KEYRING = (
    "no keyring is available on this computer ({why}): a secret cannot be stored here. Put it in an "
    "environment variable and name that variable instead (in Preferences ▸ Connection, or "
    "--token-env VAR on the command line); it is never written to the settings file"
)


LOCKED = (
    "the keyring is locked: unlock it (on Linux: log in to the desktop session, or open "
    "Passwords and Keys (Seahorse) / KWalletManager and unlock the login keyring; on macOS: "
    "Keychain Access), then try again; or give the secret in an environment variable"
)


class KeyringMissing(CatalogueError):
    """The secret cannot be kept: the machine has no usable keyring."""


class KeyringLocked(KeyringMissing):
    """The keyring is there but locked (``keyring.errors.KeyringLocked``, a locked Secret Service
    collection whose unlock prompt was dismissed or could not be shown)."""


def _locked(exc: BaseException) -> bool:
    """Whether ``exc`` says the keyring is locked (keyring's own error, or the Secret Service's)."""
    try:
        from keyring.errors import KeyringLocked as Locked
    except ImportError:  # pragma: no cover - a bundle built without it
        return False
    if isinstance(exc, Locked):
        return True
    name = type(exc).__name__.lower()
    return "locked" in name or "locked" in str(exc).lower()


def account(profile: str, origin: str) -> str:
    """The keyring's user name of a catalogue's secret: ``production https://host:443``."""
    return f"{profile} {origin}"


def proxy_account(profile: str, proxy: str) -> str:
    """The keyring's user name of a catalogue's proxy password: ``staging proxy http://proxy:3128``
    (``proxy``: the proxy's address, with or without its user info)."""
    from catalogue_desktop.core.connection.addresses import parse_address

    address = parse_address(proxy)
    return account(profile, f"proxy {address.scheme}://{address.netloc}")


def _backend() -> Any:
    """The keyring backend, or raise KeyringMissing saying why there is none."""
    try:
        import keyring
        from keyring.backends import chainer, fail
    except ImportError as exc:  # pragma: no cover - a bundle built without it
        raise KeyringMissing(NO_KEYRING.format(why=f"the keyring package is missing: {exc}")) from None
    try:
        backend = keyring.get_keyring()
    except Exception as exc:  # a broken keyring configuration (keyringrc, PYTHON_KEYRING_BACKEND)
        raise KeyringMissing(NO_KEYRING.format(why=f"{type(exc).__name__}: {exc}")) from None
    if isinstance(backend, fail.Keyring) or (
        isinstance(backend, chainer.ChainerBackend) and not backend.backends
    ):
        raise KeyringMissing(NO_KEYRING.format(why="no keyring backend was found"))
    return backend


def keyring_problem() -> str | None:
    """None when secrets can be kept in the keyring, else the sentence saying why not."""
    try:
        _backend()
    except KeyringMissing as exc:
        return str(exc)
    return None


def load(name: str) -> str | None:
    """The secret kept for ``name`` (:func:`account`), or None (none kept, or no keyring);
    KeyringLocked when the keyring is locked (said as such: not "none is kept")."""
    try:
        backend = _backend()
        value = backend.get_password(KEYRING_SERVICE, name)
    except KeyringMissing:
        return None
    except Exception as exc:  # locked (said), or its service went away (as if none were kept)
        if _locked(exc):
            raise KeyringLocked(LOCKED) from None
        return None
    return value if isinstance(value, str) and value else None


def store(name: str, secret: str) -> None:
    """Keep ``secret`` for ``name``; an empty secret forgets it. KeyringMissing if it cannot be kept."""
    backend = _backend()
    try:
        if secret:
            backend.set_password(KEYRING_SERVICE, name, secret)
        else:
            forget(name)
    except KeyringMissing:
        raise
    except Exception as exc:
        if _locked(exc):
            raise KeyringLocked(LOCKED) from None
        raise KeyringMissing(f"the keyring refused to keep the secret ({type(exc).__name__})") from None


def forget(name: str) -> None:
    """Delete the secret kept for ``name`` (nothing if there is none or no keyring)."""
    try:
        _backend().delete_password(KEYRING_SERVICE, name)
    except Exception:  # PasswordDeleteError (none kept), KeyringMissing, a locked keyring
        return


def from_environment(variable: str) -> str | None:
    """The secret in environment variable ``variable`` (None if unset or empty)."""
    value = os.environ.get(variable.strip()) if variable.strip() else None
    return value or None
