"""The finder's query engine (Qt-free): the query language (``syntax``, ``literals``), the fields
per kind (``fields``), tables and their indexes (``table``, ``index``, ``bits``, ``text``), the
evaluation (``engine``, ``leaves``, ``derived``), facets, completion and quick-open."""
