"""Searches run on the cache: a query over the stored catalogue (``stored``: ``find``, ``export
--query``), and the saved searches' news, what newly matches a watched one, changed or went since
the user last looked (``news``; ``evaluated``: the same on tables already built). On top of the
core's finding: it reads the finder's engine (``query``), each record's history (``cache.record_history``)
and the saved searches kept in the cache (``cache.saved_searches``)."""
