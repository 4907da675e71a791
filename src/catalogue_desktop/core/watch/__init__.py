"""Watched searches' news: what newly matches a saved search (kept in the cache,
``cache.saved_searches``), changed or went since the user last looked, read from the cache
(``news``: the command line's ``watch``) or on tables already built (``evaluate``: the window's).
On top of the core: it reads the finder's engine (``query``) and each record's history
(``cache.history``)."""
