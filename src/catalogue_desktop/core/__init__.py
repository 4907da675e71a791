"""Qt-free core, by subsystem, from the bottom up: ``records`` (kinds, models, decoding),
``service`` (HTTP) | ``cache`` (SQLite), ``listing`` (rows, facts, sorting), ``sync``, ``query``
(the finder's engine), ``offers`` | ``export``. A subsystem imports only those below it
(``pyproject.toml``'s ``core-layers`` contract, run by tests/test_architecture.py).

Nothing below this package may import PySide6 (tests/core/test_boundary.py keeps that true).
"""
