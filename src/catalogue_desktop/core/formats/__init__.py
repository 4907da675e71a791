"""One rule per output format, in one place: every text that comes from the service goes through
its format's encoder here before it reaches a file or a screen a customer sees. Qt-free.

* ``drawn_text``: what a drawn output (the offer sheet's PDF, the window, an e-mail) shows of one
  field: bidi controls made visible (text cannot be drawn reversed), other control characters
  shown as control pictures, at most ``drawn_text.DRAWN_LIMIT`` characters (cut with "…", the full
  length noted): no output's time grows with one field's size.
* ``csv_cells``: spreadsheet cells: OWASP's rule against formula injection (a cell beginning with
  ``=``, ``+``, ``-``, ``@``, tab or CR is prefixed with ``'``), every cell holding the separator,
  a quote, CR or LF quoted (RFC 4180), so one record is one row.
* ``ics``: the iCalendar file (RFC 5545), written by the ``icalendar`` library: text values
  escaped, control characters made visible, links that are not web links left out, UIDs unique.
* ``links``: what counts as a web link (made clickable, written as a calendar's URL).
* ``numbers``: fees as plain numbers (never an exponent).
* ``html`` escaping is ``html.escape`` (``text.html_text``), after the drawn rule.
"""
