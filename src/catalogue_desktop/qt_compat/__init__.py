"""The one door for PySide6, shiboken6 and qasync workarounds (filled in by the next commits)."""
