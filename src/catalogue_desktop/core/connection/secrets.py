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


class KeyringMissing(CatalogueError):
    """The secret cannot be kept: the machine has no usable keyring."""


def account(profile: str, origin: str) -> str:
    """The keyring's user name of a catalogue's secret: ``production https://host:443``."""
    return f"{profile} {origin}"


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
    """The secret kept for ``name`` (:func:`account`), or None (none kept, or no keyring)."""
    try:
        backend = _backend()
        value = backend.get_password(KEYRING_SERVICE, name)
    except KeyringMissing:
        return None
    except Exception:  # the keyring is locked, or its service went away: as if none were kept
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
