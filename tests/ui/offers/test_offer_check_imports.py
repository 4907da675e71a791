"""The offers' check that starts once the cached rows are read (``ui.offers.offer_checks``) runs
beside the window's first idle passes: it imports what a check needs, not the finder's engine,
plain words and typo matching (the window imports those when a query or the indexing needs them).
Counted, not timed: the modules a fresh process holds after one check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
