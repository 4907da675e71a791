"""Getting rows out of a collection table: copy as TSV, export as CSV (``table_rows``)."""
