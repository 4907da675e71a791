"""Keeping the window's data: syncing it with the service (``sync_controller``; on its own every N
hours, ``auto_sync``), showing how fresh it is (``status_panel``, ``banner``, in the words of
``wording``; the whole text in ``status_details``) and what the syncs
changed (the Changes dock: ``changes_dock``, ``changes_view``, ``changes_period``), old caches
listed again (``relister``), and how much history is kept (``over_time``)."""
