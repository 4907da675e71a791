"""The command line's connection options, shared by the commands that contact the service.

Every command that contacts the service takes ``--profile NAME`` (a catalogue of
``profiles.json``: its base URL, connection settings and cache), ``--proxy URL`` (or ``none``),
``--ca-file FILE`` and credentials read from the environment: ``--token-env VAR`` (a bearer
token, or with ``--auth-header NAME`` that header's value), ``--user NAME --password-env VAR``
(basic). A secret is never an argument: arguments show in process lists and shell histories.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from catalogue_desktop.cli.output import say

if TYPE_CHECKING:  # (each imported where used: a command loads only what it runs)
    from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
    from catalogue_desktop.core.connection.profiles import Profile
    from catalogue_desktop.core.connection.resolved import Connection

ConnectionOf = Callable[[str], "Connection"]  # a base URL -> the way to reach it

CONNECTION_HELP = "connection (README: At work)"
_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")


def variable_name(text: str) -> str:
    """An environment variable's name; a value that is not one (a secret given by mistake, say) is
    refused without being repeated."""
    if not _VARIABLE.match(text):
        raise argparse.ArgumentTypeError(
            "expected the NAME of an environment variable (letters, digits, _) that holds the secret, "
            "never the secret itself"
        )
    return text


def add_profile(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        metavar="NAME",
        help="the catalogue NAME (the window's Catalogue menu): its address, connection and cache",
    )


def add_connection(parser: argparse.ArgumentParser) -> None:
    """The options of every command that contacts the service."""
    add_profile(parser)
    group = parser.add_argument_group(CONNECTION_HELP)
    group.add_argument(
        "--proxy",
        metavar="URL",
        help="use this proxy (http://host:port), or 'none' for none "
        "(default: HTTPS_PROXY/NO_PROXY, the system's settings, the catalogue's own)",
    )
    group.add_argument(
        "--ca-file",
        metavar="FILE",
        help="also trust the CA certificates in FILE (PEM), besides the system's certificate store",
    )
    group.add_argument(
        "--token-env",
        type=variable_name,
        metavar="VAR",
        help="send the bearer token held in the environment "
        "variable VAR (with --auth-header: that header's value)",
    )
    group.add_argument(
        "--auth-header",
        metavar="NAME",
        help="send the secret of --token-env in this header (e.g. X-Api-Key) instead of as a bearer token",
    )
    group.add_argument(
        "--user", metavar="NAME", help="basic authentication's user name (with --password-env)"
    )
    group.add_argument(
        "--password-env",
        type=variable_name,
        metavar="VAR",
        help="basic authentication's password, from the environment variable VAR",
    )


def usage_error(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Errors argparse cannot see: no address at all (neither given nor a catalogue the window
    showed last, which is then the one used and said), half of a basic pair."""
    if not getattr(args, "sync_base_url", None) and not getattr(args, "profile", None):
        remembered = remembered_profile()
        if remembered is None or not (remembered.demo or remembered.base_url):
            parser.error("give the service's address with --base-url URL, or a catalogue with --profile NAME")
        _say_catalogue(remembered, "using", "--profile NAME or --base-url URL")
        args.profile = remembered.name
    if bool(getattr(args, "user", None)) != bool(getattr(args, "password_env", None)):
        parser.error("--user and --password-env go together")
    if getattr(args, "auth_header", None) and not getattr(args, "token_env", None):
        parser.error("--auth-header NAME needs --token-env VAR (the header's value)")


def profile_of(name: str | None) -> Profile | None:
    """The profile ``name`` of the profiles file (None without a name)."""
    if not name:
        return None
    from catalogue_desktop.core.connection import profiles

    folder = profiles.config_dir()
    legacy = profiles.legacy_base_url(folder / profiles.SETTINGS_FILE)
    found = profiles.Profiles.load(folder / profiles.FILE_NAME, legacy)
    if found.problem:
        say(f"catalogue-desktop: {found.problem}", sys.stderr)
    return found.get(name)


def settings_of(args: argparse.Namespace, profile: Profile | None) -> ConnectionSettings:
    """The profile's connection settings with the command line's on top."""
    from catalogue_desktop.core.connection.connection_settings import ConnectionSettings, overridden_by

    return overridden_by(profile.connection if profile is not None else ConnectionSettings(), args)


def target_of(args: argparse.Namespace) -> tuple[str | None, ConnectionOf, Profile | None]:
    """(the base URL, or None for the demo profile; its Connection maker; the profile or None)."""
    from catalogue_desktop.core.connection.resolved import resolve

    profile = profile_of(getattr(args, "profile", None))
    settings = settings_of(args, profile)
    base_url = getattr(args, "sync_base_url", None) or (profile.base_url if profile is not None else None)
    name = profile.name if profile is not None else ""

    def connection_of(url: str) -> Connection:
        return resolve(url, settings, profile=name)

    return base_url, connection_of, profile


def cache_base(args: argparse.Namespace, profile: Profile | None) -> str | None:
    """The cache directory of a command: ``--cache-dir`` or the default, the profile's folder in it."""
    from catalogue_desktop.core.cache.location import cache_dir

    base = getattr(args, "sync_cache_dir", None)
    return str(profile.cache_dir(cache_dir(base))) if profile is not None else base


def remembered_profile() -> Profile | None:
    """The catalogue the window showed last (the Catalogue menu, ``--profile``, ``--demo``): the
    "current" of ``profiles.json``, read without Qt; None before the window or ``profile`` ever
    wrote that file."""
    from catalogue_desktop.core.connection import profiles

    path = profiles.config_dir() / profiles.FILE_NAME
    if not path.exists():
        return None
    found = profiles.Profiles.load(path)
    if found.problem:
        say(f"catalogue-desktop: {found.problem}", sys.stderr)
    return found.current_profile()


def offline_cache(args: argparse.Namespace) -> tuple[str | None, bool]:
    """(cache directory, whether it is the demo's) of ``export``, ``find``, ``history`` and
    ``watch``: ``--profile``'s folder, else ``--cache-dir`` and ``--demo``, else the catalogue the
    window showed last (named on stderr), else the service's cache; ``args.cache_demo`` follows
    the demo profile."""
    explicit = getattr(args, "profile", None) or args.sync_cache_dir or args.cache_demo
    profile = profile_of(getattr(args, "profile", None)) if explicit else remembered_profile()
    if not explicit:
        _say_catalogue(profile)
    if profile is None:
        return args.sync_cache_dir, args.cache_demo
    if profile.demo:
        args.cache_demo = True
        return args.sync_cache_dir, True
    return cache_base(args, profile), False


def _say_catalogue(
    profile: Profile | None, verb: str = "reading", other: str = "--profile NAME, --demo or --cache-dir DIR"
) -> None:
    """One line on stderr: the catalogue a command reads when none was named on its command line."""
    if profile is None:
        from catalogue_desktop.core.cache.location import cache_dir

        say(
            f"catalogue-desktop: {verb} the cache in {cache_dir()} (no catalogue chosen yet; "
            f"{other} reads another)",
            sys.stderr,
        )
    else:
        which = "the demo catalogue" if profile.demo else f"the catalogue {profile.name!r}"
        say(
            f"catalogue-desktop: {verb} {which}, the one the window showed last ({other} reads another)",
            sys.stderr,
        )


def say_connection(connection: Connection) -> None:
    """The path requests take, on stderr (status text; stdout stays the command's output), when
    it is not the plain one (a proxy, an extra CA file or credentials)."""
    plain = connection.proxy.url is None and not connection.ca_file
    if plain and connection.credentials.kind == "none":
        return
    from catalogue_desktop.core.connection.addresses import redact

    say(f"Connecting to {redact(connection.base_url)} {connection.describe()}", sys.stderr)


@contextlib.contextmanager
def service(args: argparse.Namespace) -> Iterator[tuple[str, ConnectionOf, Profile | None]]:
    """(base URL, Connection maker, profile or None) of a command; the demo profile's service
    runs in-process meanwhile."""
    base_url, connection_of, profile = target_of(args)
    if base_url is not None:
        yield base_url, connection_of, profile
        return
    from catalogue_desktop.demo.server import DemoServer, load_sample

    demo = DemoServer(load_sample()).start()
    try:
        yield str(demo.base_url), connection_of, profile
    finally:
        demo.stop()
