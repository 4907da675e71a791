"""What lists show: per-kind columns and rows (``rows``), the facts the finder reads
(``facts``), a collection's rows held column-wise with an index of links (``rowset``), and
sorting on precomputed keys (``sorting``)."""
