"""The finder (to come): a query box over ``core.query``, a facet panel, saved searches and a
quick-open palette. It sits above ``browse`` (it shows its results in collection tabs) and below
the shell, which wires it into the window."""
