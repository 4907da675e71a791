"""Watched searches in the window: saved searches kept in the store, the news after each sync,
the What's new panel, the badge and the word when something new matches."""
