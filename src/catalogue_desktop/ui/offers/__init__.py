"""The sales desk (to come): a "Dates" tab of upcoming sessions and the offer sheet, with its PDF,
``.ics`` and e-mail copy. It sits above ``browse`` and ``detail`` (it reuses their tables and
pages) and below the shell, which wires it into the window."""
