"""The finder: one query box for every tab (``query_box``), the engine kept in step with the rows
shown (``indexer``, ``controller``), facets (``facet_panel``), the Ctrl+K palette. It sits above
``browse`` (it shows its results in collection tabs) and below the shell, which wires it into the
window (``connect_finder``). Saved searches are ``ui.searches``'."""
