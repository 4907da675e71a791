"""Watched searches: saved searches kept in the cache, and what newly matches them, changed or
went since the user last looked (``searches``). On top of the core: it reads the finder's engine
(``query``) and each record's history (``cache.history``)."""
