"""The shell: application start (``app.run``), the session that feeds the window, the main window
wiring the features together, navigation history, dialogs and ``--self-test``. The top layer: it
may import every feature below it; nothing below imports it."""
