"""``python -m catalogue_desktop``: the same as the ``catalogue-desktop`` command."""

import sys

from catalogue_desktop.cli import main

sys.exit(main())
