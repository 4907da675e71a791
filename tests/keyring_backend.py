"""A keyring backend for tests: a JSON file named by ``CATALOGUE_TEST_KEYRING`` (so that commands
a test runs share it), never the user's real keyring. ``tests/conftest.py`` selects it for every
test with ``PYTHON_KEYRING_BACKEND=tests.keyring_backend.FileKeyring``; ``LockedKeyring`` is one
whose unlock was refused (as the Secret Service's locked collection when its prompt is dismissed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import KeyringLocked, PasswordDeleteError

ENV = "CATALOGUE_TEST_KEYRING"


class FileKeyring(KeyringBackend):
    priority = 1

    def _path(self) -> Path:
        return Path(os.environ[ENV])

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self._path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._read().get(f"{service}\n{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._read()
        data[f"{service}\n{username}"] = password
        self._path().write_text(json.dumps(data), encoding="utf-8")

    def delete_password(self, service: str, username: str) -> None:
        data = self._read()
        if data.pop(f"{service}\n{username}", None) is None:
            raise PasswordDeleteError("not kept")
        self._path().write_text(json.dumps(data), encoding="utf-8")


class LockedKeyring(FileKeyring):
    """A keyring that is there but locked: every read and write raises KeyringLocked."""

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("Failed to unlock the collection!")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringLocked("Failed to unlock the collection!")
