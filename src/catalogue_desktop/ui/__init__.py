"""Qt layer: item models, widgets and windows over the core. Imports core, never the reverse."""

from catalogue_desktop.ui.pyside_import import import_pyside

import_pyside()
