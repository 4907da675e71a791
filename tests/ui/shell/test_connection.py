"""At work, in the window: a service that wants a bearer token (its own words without it, the
token entered in Preferences ▸ Connection opens it, and is in no file or message), the Test's
report after a refused certificate, the Catalogue menu switching catalogues with their own caches,
and the proxy named in the status message. Real servers on loopback; the keyring is the tests'."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.profiles import Profiles
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.shell.connection_dialog import ConnectionDialog
from tests.connection_servers import ConnectProxy, tls_server
from tests.faultserver import FaultServer
from tests.ui.conftest import wait_rows_loaded

TOKEN = "window-Token-5521"
SCREENSHOTS = "CATALOGUE_SCREENSHOT_DIR"  # set: the report is saved there as a PNG


@pytest.fixture
def guarded(sample: dict[Kind, bytes]) -> Iterator[FaultServer]:
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value=f"Bearer {TOKEN}", body=sample[kind])
        yield server


def refresh(qtbot: Any, session: Any) -> Any:
    with qtbot.waitSignal(session.synced, timeout=20000) as blocker:
        qtbot.keyClick(session.window, Qt.Key.Key_F5)
    wait_rows_loaded(qtbot, session)
    return blocker.args[0]


def run_dialog(monkeypatch: pytest.MonkeyPatch, act: Any) -> list[ConnectionDialog]:
    """ConnectionDialog.exec() does what ``act`` does, as a person would, then presses OK."""
    shown: list[ConnectionDialog] = []

    def exec_(dialog: ConnectionDialog) -> int:
        shown.append(dialog)
        act(dialog)
        dialog.accept()
        return int(dialog.result())

    monkeypatch.setattr(ConnectionDialog, "exec", exec_)
    return shown


def wait_up_to_date(qtbot: Any, window: Any) -> None:
    """Every collection's status says "up to date" (said once the sync's queued news are in:
    under load, a moment after the ``synced`` signal)."""

    def texts() -> list[str]:
        return [window.status.text(kind) for kind in ALL_KINDS]

    try:
        qtbot.waitUntil(lambda: all(t.endswith("up to date") for t in texts()), timeout=30000)
    except qtbot.TimeoutError:  # (pytest-qt's own: say what the statuses said instead)
        raise AssertionError(texts()) from None


def every_file(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


def test_a_token_entered_in_preferences_opens_a_guarded_service(
    make_session: Any, guarded: FaultServer, qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    session = make_session(base_url=guarded.base_url)
    window = session.window
    for kind in ALL_KINDS:
        text = window.status.text(kind)
        assert text.startswith("credentials needed: the service asks for credentials (HTTP 401"), text
    assert window.banner.text().startswith("Credentials needed")

    def enter_token(dialog: ConnectionDialog) -> None:
        dialog.auth.setCurrentIndex(dialog.auth.findData("bearer"))
        qtbot.keyClicks(dialog.secret, TOKEN)

    shown = run_dialog(monkeypatch, enter_token)
    with qtbot.waitSignal(session.synced, timeout=20000):
        window.menu_actions.catalogue_menu.edit_connection()
    wait_rows_loaded(qtbot, session)
    assert len(shown) == 1 and shown[0].result() == QDialog.DialogCode.Accepted
    wait_up_to_date(qtbot, window)
    assert guarded.requests[-1].headers["authorization"] == f"Bearer {TOKEN}"
    messages = window.statusBar().currentMessage() + "".join(window.status.text(k) for k in ALL_KINDS)
    assert TOKEN not in messages
    settings_dir = Path(Settings().q.fileName()).parent
    assert TOKEN.encode() not in every_file(settings_dir) + every_file(session.cache_dir)
    assert TOKEN in (tmp_path / "test-keyring.json").read_text()
    saved = Profiles.load(Settings().profiles_path).get("default").connection
    assert saved == ConnectionSettings(auth="bearer")


def test_the_test_reports_a_refused_certificate(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ca = trustme.CA(organization_name="Company Inspection CA")
    with tls_server(ca) as server:
        profiles = Profiles.load(Settings().profiles_path)
        profiles.add("production", server.base_url)
        profiles.save()
        dialog = ConnectionDialog(Settings().profiles_path, "production")
        qtbot.addWidget(dialog)
        dialog.resize(760, 960)
        dialog.show()
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        assert dialog.testing and not dialog.test_button.isEnabled()
        qtbot.waitUntil(lambda: not dialog.testing, timeout=20000)
    report = dialog.report.report
    assert report is not None and report["problem"]["step"] == "tls"
    text = dialog.report.toPlainText()
    assert "First problem — TLS handshake: the certificate's issuer is not trusted" in text
    assert "Company Inspection CA" in text and "What to do:" in text
    assert "not tried" in text  # the steps after it
    if os.environ.get(SCREENSHOTS):
        target = Path(os.environ[SCREENSHOTS]) / "connection-report-tls-refused.png"
        assert dialog.grab().save(str(target))
    dialog.reject()


def test_a_ca_file_entered_makes_the_test_pass(qtbot: Any, tmp_path: Path) -> None:
    ca = trustme.CA()
    pem = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(pem))
    with tls_server(ca) as server:
        profiles = Profiles.load(Settings().profiles_path)
        profiles.add("production", server.base_url)
        profiles.save()
        dialog = ConnectionDialog(Settings().profiles_path, "production")
        qtbot.addWidget(dialog)
        dialog.ca_file.setText(str(pem))
        dialog.test()
        qtbot.waitUntil(lambda: not dialog.testing, timeout=20000)
    assert dialog.report.report is not None and dialog.report.report["ok"], dialog.report.toPlainText()
    assert "No problem found" in dialog.report.toPlainText()


def test_file_catalogue_switches_between_catalogues_and_their_caches(
    make_session: Any, demo_server: Any, qtbot: Any, tmp_path: Path, cache_dir: Path
) -> None:
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    assert session.profile.name == "default" and session.cache_dir == cache_dir
    menu = window.menu_actions.catalogue_menu
    menu.fill()
    names = [a.text() for a in menu.actions() if a.isCheckable()]
    assert names == [f"default — {demo_server.base_url}", "demo — the bundled demo catalogue"]
    profiles = Profiles.load(Settings().profiles_path)
    profiles.add("staging", demo_server.base_url + "/v1")
    profiles.save()
    menu.fill()
    staging = next(a for a in menu.actions() if a.text().startswith("staging"))
    with qtbot.waitSignal(session.synced, timeout=20000):
        staging.trigger()
    wait_rows_loaded(qtbot, session)
    assert session.cache_dir == cache_dir / "profiles" / "staging"
    assert (session.cache_dir / "catalogue.sqlite3").exists() or list(session.cache_dir.glob("*.sqlite*"))
    assert window.windowTitle().endswith(f"staging ({demo_server.base_url}/v1)")
    assert Profiles.load(Settings().profiles_path).current == "staging"
    menu.fill()
    assert [a.text().split(" ")[0] for a in menu.actions() if a.isChecked()] == ["staging"]


def test_the_proxy_is_named_in_the_status_message(
    make_session: Any, qtbot: Any, sample: dict[Kind, bytes]
) -> None:
    ca = trustme.CA()
    with tls_server(ca) as server, ConnectProxy() as proxy:
        for kind in Kind:
            server.set(kind.path, "json", body=sample[kind])
        pem = Path(Settings().profiles_path).parent / "ca.pem"
        pem.parent.mkdir(parents=True, exist_ok=True)
        ca.cert_pem.write_to_path(str(pem))
        session = make_session(base_url=server.base_url, proxy=proxy.url, ca_file=str(pem))
        message = session.window.statusBar().currentMessage()
        assert message.endswith(f"— through the proxy {proxy.url} (set for this catalogue)"), message
        assert proxy.tunnels and set(proxy.tunnels) == {f"127.0.0.1:{server.port}"}
        wait_up_to_date(qtbot, session.window)


def test_preferences_opens_the_connection_of_the_catalogue_shown(
    make_session: Any, demo_server: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QPushButton

    from catalogue_desktop.ui.shell.preferences import Preferences

    session = make_session(base_url=demo_server.base_url)
    opened: list[ConnectionDialog] = []

    def prefs_exec(dialog: Preferences) -> int:
        button = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Connection…")
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        return int(QDialog.DialogCode.Rejected)

    def connection_exec(dialog: ConnectionDialog) -> int:
        opened.append(dialog)
        assert dialog.windowTitle() == "Connection — default"
        assert dialog.base_url.text() == demo_server.base_url and dialog.test_button.isEnabled()
        return int(QDialog.DialogCode.Rejected)

    monkeypatch.setattr(Preferences, "exec", prefs_exec)
    monkeypatch.setattr(ConnectionDialog, "exec", connection_exec)
    session.window.menu_actions.preferences_action.trigger()
    assert len(opened) == 1


def test_without_a_keyring_the_dialog_says_so(qtbot: Any) -> None:
    import keyring
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        dialog = ConnectionDialog(Settings().profiles_path, None)
    finally:
        keyring.set_keyring(before)
    qtbot.addWidget(dialog)
    dialog.auth.setCurrentIndex(dialog.auth.findData("bearer"))
    assert not dialog.secret.isEnabled() and dialog.secret_env.isEnabled()
    assert dialog.secret_note.text().startswith("no keyring is available on this computer")
    assert not dialog.secret_note.isHidden()


def test_the_report_shows_service_text_as_text(qtbot: Any) -> None:
    from catalogue_desktop.ui.shell.connection_report import ConnectionReport

    hostile = '<img src="x"><b>Evil CA</b> & co'
    report = {
        "base_url": "https://x.example",
        "ok": False,
        "steps": [{"step": "tls", "title": "TLS handshake", "ok": False, "detail": hostile, "fix": hostile}],
        "collections": [],
        "problem": {"step": "tls", "title": "TLS handshake", "detail": hostile, "fix": hostile},
    }
    widget = ConnectionReport()
    qtbot.addWidget(widget)
    widget.show_report(report)
    assert widget.toPlainText().count(hostile) == 3


def test_profile_on_the_command_line_opens_that_catalogue(
    make_session: Any, demo_server: Any, cache_dir: Path, qtbot: Any
) -> None:
    profiles = Profiles.load(Settings().profiles_path)
    profiles.add("production", demo_server.base_url)
    profiles.save()
    session = make_session(profile="production")
    assert session.cache_dir == cache_dir / "profiles" / "production"
    assert session.window.windowTitle().endswith(f"production ({demo_server.base_url})")
    wait_up_to_date(qtbot, session.window)
    assert Profiles.load(Settings().profiles_path).current == "production"


def test_a_proxy_password_entered_in_preferences_goes_to_the_keyring(
    make_session: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sample: dict[Kind, bytes]
) -> None:
    import stat

    password = "s3cr/t#?@x"
    ca = trustme.CA()
    with tls_server(ca) as server, ConnectProxy(login=("bob", password)) as proxy:
        for kind in Kind:
            server.set(kind.path, "json", body=sample[kind])
        pem = Path(Settings().profiles_path).parent / "ca.pem"
        pem.parent.mkdir(parents=True, exist_ok=True)
        ca.cert_pem.write_to_path(str(pem))
        session = make_session(base_url=server.base_url, ca_file=str(pem))  # direct, at first
        window = session.window
        assert not proxy.tunnels
        port = proxy.url.rsplit(":", 1)[1]

        def enter_proxy(dialog: ConnectionDialog) -> None:
            dialog.proxy_manual.click()
            dialog.proxy_url.clear()
            qtbot.keyClicks(dialog.proxy_url, f"http://bob:{password}@127.0.0.1:{port}")
            dialog.ca_file.setText(str(pem))

        shown = run_dialog(monkeypatch, enter_proxy)
        with qtbot.waitSignal(session.synced, timeout=20000):
            window.menu_actions.catalogue_menu.edit_connection()
        wait_rows_loaded(qtbot, session)
        assert shown[0].result() == QDialog.DialogCode.Accepted
        wait_up_to_date(qtbot, window)
        assert proxy.tunnels and all(
            auth and auth.startswith("Proxy-Authorization: Basic") for auth in proxy.auths
        )
    profiles = Path(Settings().profiles_path)
    assert password not in profiles.read_text() and stat.S_IMODE(profiles.stat().st_mode) == 0o600
    assert Profiles.load(profiles).get("default").connection.proxy == f"http://bob@127.0.0.1:{port}"
    assert password in (tmp_path / "test-keyring.json").read_text()
    message = window.statusBar().currentMessage()
    assert f"through the proxy http://bob:***@127.0.0.1:{port}" in message and password not in message
