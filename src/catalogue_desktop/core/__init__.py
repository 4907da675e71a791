"""Qt-free core: models, API client, cache store, sync, search and diff.

Nothing below this package may import PySide6 (tests/core/test_boundary.py keeps that true).
"""
