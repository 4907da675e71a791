"""Browsing a collection: its tab (count, table, the detail pane beside it; its columns, its order
and the selection kept across new rows each an object of the tab's) and the table model over a
``RowSet`` (sorting and filtering on precomputed keys, change markers)."""
