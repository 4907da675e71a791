"""Saved and watched searches in the window: kept in the catalogue's store (``book``), saved,
renamed, watched and deleted from the Searches menu (``organize``), and a watched search's news
after each sync (``watcher``) in the What's new dock (``whats_new``), with a badge and a word when
something new matches (``notice``); joined to the session by ``connect_watch``."""
