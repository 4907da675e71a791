"""Names ``vulture`` reports as unused that are used by another library (``tests/test_checks.py``
runs vulture over src, tests, bench, packaging and this file). ``[tool.vulture]`` in pyproject.toml
ignores whole families: pytest's fixtures and hooks, ``http.server``'s ``do_*`` handlers and the
fault server's ``_mode_*`` modes (both looked up by name). Add a line only for such a name; dead
code is removed instead.
"""

# ruff: noqa: B018
from vulture.whitelist_utils import Whitelist

_ = Whitelist()

_.__getattr__  # catalogue_desktop/__init__.py: PEP 562, ``catalogue_desktop.__version__``
_.target_kind  # core.listing.rowset.Ref: a field of a reference, read as the tuple it is

# http.server and socketserver read these class attributes and call these methods
# (demo/server.py, tests/faultserver.py)
_.protocol_version
_.sys_version
_.log_message
_.version_string
_.close_connection
_.daemon_threads
_.block_on_close
_.allow_reuse_address
_.request_queue_size

_.minimumSizeHint  # ui.detail.layout.PageBox: a Qt override
_.eventFilter  # tests/ui/shell/test_app.py: a Qt override (counts paints)
_.handle_starttag  # tests/ui/offers/test_offers_window.py: html.parser calls it
_.handle_data  # ... and this

# qt_compat.event_loop and tests/ui/conftest.py reset qasync's (name-mangled) running flag
_._QEventLoop__is_running

_._preview_printer  # ui.offers.desk: kept alive, never read (Qt does not own the QPrinter)
_.dated_cache  # tests/ui/offers/test_dates_tab.py: a fixture asked for by another for its file
_.ca_in_os_store  # tests/core/connection/test_connection_tls.py: asked for its effect (the OS CA store)
_.FileKeyring  # tests/keyring_backend.py: named by PYTHON_KEYRING_BACKEND (tests/conftest.py)
_.LockedKeyring  # tests/keyring_backend.py: named by PYTHON_KEYRING_BACKEND (tests/cli/test_secrets.py)

# configparser calls it on every key (core/connection/desktop_proxies.py: KDE's keys kept as written)
_.optionxform
_.dont_write_bytecode  # tests/conftest.py: read by the interpreter (and pytest) when it imports
_.tempdir  # tests/forked_cli.py: tempfile reads it (unset in a forked command, found again)
_.arm  # tests/core/cache/sync_stops.py: called by code other interpreters run (sitecustomize)
_.patterns_reused  # qt_compat/support_code.py: a child's script reads it (tests/qt_compat)
# qt_compat/quick_enums.py: Python's enum reads them (the masks and iteration of a Flag class)
_._flag_mask_
_._singles_mask_
_._all_bits_
_._iter_member_
