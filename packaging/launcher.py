"""Entry point of the PyInstaller bundle: the ``catalogue-desktop`` command, frozen.

``multiprocessing.freeze_support()`` runs first, before anything else is imported: a worker process
of the sync's ProcessPoolExecutor ("spawn" context) starts this same executable with
``--multiprocessing-fork`` and must become a worker here, never reach the argument parser.
(``cli.main`` calls it again when frozen; the second call is a no-op.)
"""

import multiprocessing

if __name__ == "__main__":
    multiprocessing.freeze_support()

    from catalogue_desktop.cli import entry

    entry()
