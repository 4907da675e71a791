"""The window's log of what went wrong: a rotating file in the platform's log folder
(``platformdirs.user_log_dir``: ``~/.local/state/catalogue-desktop/log`` on Linux,
``~/Library/Logs/catalogue-desktop`` on macOS, ``%LOCALAPPDATA%\\catalogue-desktop\\Logs`` on
Windows; ``$CATALOGUE_DESKTOP_LOG_DIR`` moves it), and ``redacted``: text with its secrets out,
for the log, Copy details and Report a problem.

Nothing is imported or opened until the first fault: ``logging`` (and its handlers) cost the
window's start-up time otherwise. Safe from any thread.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

ENV_LOG_DIR = "CATALOGUE_DESKTOP_LOG_DIR"
LOG_NAME = "catalogue-desktop.log"
LOG_BYTES = 1024 * 1024  # per file; with BACKUPS older files: at most 4 MB in all
BACKUPS = 3
SAME_FAULT_LOGGED = 3  # times the same traceback is written (a paint that fails does so at each paint)


def log_dir() -> Path:
    """The folder of the log (made when first written)."""
    if os.environ.get(ENV_LOG_DIR):
        return Path(os.environ[ENV_LOG_DIR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_log_dir("catalogue-desktop", appauthor=False))


class FaultLog:
    """``write(what, details)`` appends a dated entry (redacted); ``last_lines(n)``."""

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder
        self._path: Path | None = None
        self._lock = threading.Lock()
        self._logger: logging.Logger | None = None
        self._seen: dict[str, int] = {}

    @property
    def path(self) -> Path:
        """The log file: its folder found when first needed (platformdirs is imported then, not
        when the hooks are installed, on the window's way to showing every cached row)."""
        if self._path is None:
            self._path = (self._folder or log_dir()) / LOG_NAME
        return self._path

    def write(self, what: str, details: str) -> bool:
        """Log one fault; False when it was not written (the same one logged often enough
        already, or the folder cannot be written)."""
        with self._lock:
            count = self._seen[details] = self._seen.get(details, 0) + 1
            if count > SAME_FAULT_LOGGED:
                return False
            try:
                logger = self._logger or self._open()
            except OSError:
                return False
            again = f" (the same, {count} times)" if count > 1 else ""
            logger.error("%s%s\n%s", redacted(what), again, redacted(details).rstrip("\n"))
            return True

    def _open(self) -> logging.Logger:
        import logging
        import logging.handlers

        self.path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            self.path, maxBytes=LOG_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger = logging.getLogger(f"catalogue-desktop.faults.{id(self)}")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)
        self._logger = logger
        return logger

    def last_lines(self, count: int = 60) -> list[str]:
        """The log's last ``count`` lines (none when there is no log yet)."""
        try:
            with self.path.open("rb") as handle:
                handle.seek(0, os.SEEK_END)
                size = handle.tell()
                handle.seek(max(0, size - 64 * 1024))
                tail = handle.read().decode("utf-8", "replace")
        except OSError:
            return []
        return tail.splitlines()[-count:]

    def close(self) -> None:
        with self._lock:
            logger, self._logger = self._logger, None
            if logger is None:
                return
            for handler in list(logger.handlers):
                logger.removeHandler(handler)
                handler.close()


_SECRETS = [
    # Authorization: Bearer abc / Basic abc / X-Api-Key: abc
    r"(?i)\b(authorization|proxy-authorization|x-api-key|api[-_]?key)(\s*[:=]\s*)(\S+(?: \S+)?)",
    r"(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{6,})",
    # token=..., password: ..., secret=...
    r"(?i)\b(\w*(?:token|password|passwd|secret)\w*)(\s*[:=]\s*)([^\s,;&'\"()\[\]{}<>]+)",
]


def redacted(text: str) -> str:
    """``text`` with the passwords of addresses (``core.connection.addresses.redact``) and
    tokens, passwords and authorization values (``token=…``, ``Bearer …``) replaced."""
    from catalogue_desktop.core.connection.addresses import redact

    text = redact(text)
    for pattern in _SECRETS:
        text = re.sub(pattern, lambda m: f"{m.group(1)}{m.group(2)}***", text)
    return text
