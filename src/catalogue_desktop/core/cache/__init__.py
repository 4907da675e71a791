"""The offline cache: one SQLite file per catalogue (``store``), its schema and upgrades
(``schema``), the packed pages of rows and facts (``pages``) and where the file lives
(``location``)."""
