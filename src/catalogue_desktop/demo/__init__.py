"""The demo catalogue service: bundled sample data and synthetic catalogues over real HTTP."""
