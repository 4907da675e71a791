"""The sales desk: the Dates tab (``dates_tab``: every bookable occasion) and the offers made from
it (PDF offer sheet, print, ``.ics``, e-mail copy). It sits above ``browse`` and ``detail`` (it
reuses their tables and pages) and below the shell, which wires it into the window."""
