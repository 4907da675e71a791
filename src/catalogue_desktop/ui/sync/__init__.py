"""Keeping the window's data in step with the service: a sync's progress and its cancel
(``sync_controller``), how fresh each collection is (``status_panel``, ``banner``, in the words of
``wording``; the whole text in ``status_details``), what the syncs changed (``changes_view`` in
``changes_dock``, over ``changes_period``) and older caches rewritten in a worker (``relister``)."""
