"""Browsing a collection: its tab (filter line, count, table, the detail pane beside it) and the
table model over a ``RowSet`` (sorting and filtering on precomputed keys, change markers)."""
