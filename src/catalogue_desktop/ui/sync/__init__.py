"""Keeping the window's data: reading the cache into row sets (``catalogue_loader``), refreshing it
from the service (``sync_controller``), and showing how fresh it is (``status_panel``) and what the
last refresh changed (``changes_view``)."""
