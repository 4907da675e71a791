"""Keeping the window's data: reading the cache into row sets (``ui.browse.catalogue_loader``), syncing it
with the service (``sync_controller``), and showing how fresh it is (``status_panel``) and what the
last sync changed (``changes_view``)."""
