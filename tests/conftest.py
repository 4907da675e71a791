"""Test-wide settings: Qt runs offscreen, never on a real display."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_QUICK_BACKEND", "software")
