"""A sync (the window's Refresh): every collection fetched at once (``runner``), each payload
ingested into a snapshot in a worker process (``ingest``, ``workers``), old listings rewritten
(``relist``), and the ``check`` command's conformance report (``conformance``)."""
