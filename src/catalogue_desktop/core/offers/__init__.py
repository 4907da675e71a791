"""The sales desk, Qt-free: occasions and their outputs (``occasions``: JSON/CSV rows, .ics,
e-mail text, the data's age), the offer sheet's HTML (``sheet``) and what ``export offerings``
selects and renders (``export``)."""
