"""``Options``: what the command line asks of the window (``cli``'s window options), read from its
namespace in one place (each command defines its own options, so a name may be absent).

(No ``from __future__ import annotations`` here: a NamedTuple's field types given as strings
are each compiled into a ``typing.ForwardRef`` when the class is made, at every start-up.)"""

import argparse
from typing import NamedTuple

__all__ = ["Options"]


class Options(NamedTuple):
    """What the command line asks of the window (see ``cli.parser``)."""

    base_url: str | None = None
    demo: bool = False
    offline: bool = False
    cache_dir: str | None = None
    open: str | None = None
    self_test: bool = False
    currency: str | None = None
    max_size: int = 256  # MiB per collection response
    query: str | None = None  # the finder's query to start with
    profile: str | None = None  # the catalogue to open (ui.shell.profile_choice)
    proxy: str | None = None  # --proxy, --ca-file, --token-env...: on top of its connection
    ca_file: str | None = None
    token_env: str | None = None
    auth_header: str | None = None
    user: str | None = None
    password_env: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "Options":
        return cls(
            **{name: getattr(args, name, None) or default for name, default in cls._field_defaults.items()}
        )
