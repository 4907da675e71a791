"""Exporting stored collections: every record of a kind (or those a query selected) as CSV or
JSON (``records``)."""
