"""Which catalogue (profile) the window opens, and its connection as the command line adjusts it.

The catalogues are in ``profiles.json`` beside the settings file (``core.connection.profiles``);
the first start after an update makes it from the single service address kept before.
``--profile NAME`` opens that one (and the window remembers it), ``--base-url URL`` sets the
address of the ``default`` catalogue (or of ``--profile``'s), ``--demo`` opens the demo. The one
opened is remembered (``current`` in ``profiles.json``): the next start, ``--offline`` and the
commands (``cli.connection.remembered_profile``) read the catalogue the window showed last.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from typing import TYPE_CHECKING

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings, overridden_by
from catalogue_desktop.core.connection.profiles import DEFAULT, Profile, Profiles

if TYPE_CHECKING:
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.shell.options import Options


def open_profiles(settings: Settings) -> Profiles:
    """The catalogues (written at once when made from the old single address)."""
    path = settings.profiles_path
    existed = path.exists()
    profiles = Profiles.load(path, settings.base_url)
    if not existed:
        with suppress(OSError):
            profiles.save()
    return profiles


def choose(settings: Settings, options: Options) -> tuple[Profiles, Profile]:
    """(the catalogues, the one to open) for the window's command line ``options``."""
    profiles = open_profiles(settings)
    if options.demo:
        profile = next(p for p in profiles.profiles if p.demo)
    elif options.profile:
        profile = profiles.get(options.profile)  # ProfileError: said by the command, exit 1
        if options.base_url:
            profile = profiles.with_base_url(profile.name, options.base_url)
    elif options.base_url:
        profile = profiles.with_base_url(DEFAULT, options.base_url)
    else:
        profile = profiles.current_profile()
    remember(profiles, profile.name)
    return profiles, profile


def remember(profiles: Profiles, name: str) -> None:
    """Make ``name`` the catalogue the window opens next time (best effort). A password an
    earlier version wrote in an address goes to the keyring now; what could not be kept is said
    on stderr."""
    profiles.current = name
    with suppress(OSError):
        for note in profiles.save():
            print(f"catalogue-desktop: {note}", file=sys.stderr)


def connection_settings(profile: Profile, options: Options) -> ConnectionSettings:
    """The profile's connection settings with the window's command-line options on top."""
    return overridden_by(profile.connection, options)
