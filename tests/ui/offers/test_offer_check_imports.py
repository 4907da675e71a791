"""The offers' check that starts once the cached rows are read (``ui.offers.offer_checks``) runs
beside the window's first idle passes: it starts only when an offer is open, and imports what a
check needs, not the finder's engine, plain words and typo matching (the window imports those
when a query or the indexing needs them). Counted, not timed: the modules a fresh process holds
after one check, the checks started."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.store import FILE_NAME

CHECK_ONCE = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QTimer
from catalogue_desktop.ui.offers.offer_checks import OfferChecks

app = QCoreApplication([])
checks = OfferChecks(lambda: Path(sys.argv[1]))
said = []
checks.checked.connect(lambda result: (said.append("checked"), app.quit()))
checks.failed.connect(lambda text: (said.append(text), app.quit()))
QTimer.singleShot(0, checks.check)
QTimer.singleShot(30_000, app.quit)
app.exec()
checks.stop()
print(json.dumps({"said": said, "modules": sorted(sys.modules)}))
"""

NOT_A_CHECK_S = (
    "catalogue_desktop.core.searches",
    "catalogue_desktop.core.query.engine",
    "catalogue_desktop.core.query.reading",
    "catalogue_desktop.core.query.lexicon",
    "rapidfuzz",
)


def test_a_check_with_no_offer_to_read_imports_no_query_engine(filled_cache: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK_ONCE, str(filled_cache / FILE_NAME)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["said"] == ["checked"]
    modules = report["modules"]
    assert "catalogue_desktop.core.offers.checking" in modules  # (it did check)
    loaded = [name for name in modules if name.startswith(NOT_A_CHECK_S)]
    assert loaded == []


def _log_an_offer(cache: Path) -> None:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.offers import checking, logged
    from catalogue_desktop.core.records.zones import local_now

    with Store(cache / FILE_NAME) as store:
        assert not store.offers.any_open()
        occasion = next(iter(checking.now_occasions(store, local_now()).values()))
        offer = logged.remember(store, title="Offer for Acme", items=[occasion], written=[], currency="USD")
        assert offer is not None and store.offers.any_open()


def test_no_check_is_started_once_the_rows_are_read_when_no_offer_is_open(
    make_session: Any, filled_cache: Path, qtbot: Any
) -> None:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    checks = session.offer_log.checks
    assert not checks.busy and checks.last is None
    assert not [t for t in threading.enumerate() if t.name.startswith("offer-checks")]


def test_an_open_offer_is_checked_once_the_rows_are_read(
    make_session: Any, filled_cache: Path, qtbot: Any
) -> None:
    _log_an_offer(filled_cache)
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    checks = session.offer_log.checks
    qtbot.waitUntil(lambda: checks.last is not None, timeout=20000)
    assert [offer.title for offer in checks.last.offers] == ["Offer for Acme"]
