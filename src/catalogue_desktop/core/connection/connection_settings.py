"""A catalogue's connection settings, as stored: never a secret, only where to find one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

AUTH_KINDS = ("none", "bearer", "basic", "header")
AUTH_NAMES = {
    "none": "None",
    "bearer": "Bearer token",
    "basic": "User name and password (basic)",
    "header": "A header of its own (e.g. X-Api-Key)",
}


class ConnectionSettings(NamedTuple):
    """``ca_file``: an extra CA certificate file (PEM) trusted besides the system's store;
    ``proxy``: "" (the environment's / system's), ``none`` (direct) or a proxy URL;
    ``auth``: one of :data:`AUTH_KINDS`; ``username`` (basic), ``header`` (the custom header's
    name); ``secret_env``: an environment variable holding the secret (used before the keyring).
    (A named tuple, not a dataclass: a dataclass is compiled at every start, docs/decisions.md.)"""

    ca_file: str = ""
    proxy: str = ""
    auth: str = "none"
    username: str = ""
    header: str = ""
    secret_env: str = ""

    def to_json(self) -> dict[str, str]:
        return {k: v for k, v in self._asdict().items() if v and not (k == "auth" and v == "none")}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ConnectionSettings:
        """Tolerant: unknown keys and values that are not text are left out."""
        if not isinstance(data, Mapping):
            return cls()
        known = {f: str(data[f]) for f in cls._fields if isinstance(data.get(f), str)}
        if known.get("auth") not in AUTH_KINDS:
            known.pop("auth", None)
        return cls(**known)

    def but(self, **changes: str) -> ConnectionSettings:
        """A copy with ``changes``."""
        return self._replace(**changes)


# The command line's connection options (the window's and every command's), by attribute name.
COMMAND_LINE_OPTIONS = ("proxy", "ca_file", "token_env", "auth_header", "user", "password_env")


def overridden_by(settings: ConnectionSettings, options: object) -> ConnectionSettings:
    """``settings`` with ``options``' (parsed arguments, the window's ``Options``) on top."""
    return overridden(settings, **{name: getattr(options, name, None) for name in COMMAND_LINE_OPTIONS})


def overridden(
    settings: ConnectionSettings,
    *,
    proxy: str | None = None,
    ca_file: str | None = None,
    token_env: str | None = None,
    auth_header: str | None = None,
    user: str | None = None,
    password_env: str | None = None,
) -> ConnectionSettings:
    """``settings`` with the command line's options on top (``--proxy``, ``--ca-file``,
    ``--token-env`` [+ ``--auth-header``], ``--user`` + ``--password-env``)."""
    from pathlib import Path

    changes: dict[str, str] = {}
    if proxy:
        changes["proxy"] = proxy
    if ca_file:
        changes["ca_file"] = str(Path(ca_file).expanduser().resolve())
    if token_env:
        kind = "header" if auth_header else "bearer"
        changes.update(auth=kind, secret_env=token_env, header=auth_header or "")
    if user and password_env:
        changes.update(auth="basic", username=user, secret_env=password_env)
    return settings.but(**changes)
