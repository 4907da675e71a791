"""Qt layer: item models, widgets and windows over the core. Imports core, never the reverse."""
