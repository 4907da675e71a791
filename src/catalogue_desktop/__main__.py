"""``python -m catalogue_desktop``: the same as the ``catalogue-desktop`` command."""

from catalogue_desktop.cli import entry

entry()
