"""Preferences ▸ Connection: how the window reaches the catalogue open in it, and its Test.

Certificates are checked against the system's store (with an optional extra CA file; there is no
way to turn the check off), the proxy is the system's / the environment's, none, or one given
here; credentials are none, a bearer token, a user name and password, or a header of its own,
their secret kept in the system's keyring (or read from an environment variable: on a computer
without a keyring that is the only way, and the dialog says so). **Test** runs the connection
doctor (``core.service.diagnosis``) on a worker thread with what is entered, saved or not, and shows its
report (``connection_report``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.connection_settings import AUTH_KINDS, AUTH_NAMES, ConnectionSettings
from catalogue_desktop.core.connection.credentials import origin
from catalogue_desktop.core.connection.profiles import Profile, Profiles
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.ui.common.file_dialogs import open_file_name
from catalogue_desktop.ui.shell.connection_report import ConnectionReport
from catalogue_desktop.ui.shell.window_layout import fit_to_screen

POLL_MS = 50  # how often the window looks whether the Test has finished


def _test(base_url: str, settings: ConnectionSettings, profile: str, typed_secret: str) -> dict[str, Any]:
    """The doctor's report as JSON (on a worker thread: no Qt here)."""
    from catalogue_desktop.core.connection.resolved import resolve
    from catalogue_desktop.core.service.diagnosis import run_doctor

    def connection_of(url: str) -> Any:
        found = resolve(url, settings, profile=profile)
        if typed_secret and settings.auth != "none":  # entered, not saved yet
            creds = replace(found.credentials, secret=typed_secret)
            return replace(found, credentials=creds, secret_note="as entered, not saved yet")
        return found

    return asyncio.run(run_doctor(base_url, connection_of)).to_json()


class ConnectionDialog(QDialog):
    """The connection of one catalogue (profile) of ``profiles_path``."""

    def __init__(self, profiles_path: Path, name: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profiles = Profiles.load(profiles_path)
        self.profile: Profile = self.profiles.get(name) if name else self.profiles.current_profile()
        self.setWindowTitle(f"Connection — {self.profile.name}")
        fit_to_screen(self, parent, 680, 620)  # (the Test's report scrolls: it fits 1024x700)
        self._pool: ThreadPoolExecutor | None = None
        self._running: Future[dict[str, Any]] | None = None
        self._poll = QTimer(self, interval=POLL_MS)
        self._poll.timeout.connect(self._check_done)
        layout = QVBoxLayout(self)
        settings = self.profile.connection

        top = QFormLayout()
        self.base_url = QLineEdit(self.profile.base_url or "")
        self.base_url.setAccessibleName("Service address")
        self.base_url.setPlaceholderText("https://catalogue.example.com (the part before /v1)")
        if self.profile.demo:
            self.base_url.setEnabled(False)
            self.base_url.setPlaceholderText("the demo catalogue is served by the app itself")
        top.addRow(f"Address of {self.profile.name}:", self.base_url)
        layout.addLayout(top)

        certs = QGroupBox("Certificates")
        certs_box = QVBoxLayout(certs)
        certs_box.addWidget(
            QLabel("Checked against the system's certificate store; the check cannot be turned off.")
        )
        row = QHBoxLayout()
        self.ca_file = QLineEdit(settings.ca_file)
        self.ca_file.setAccessibleName("Extra CA file")
        self.ca_file.setPlaceholderText("extra CA certificate file (PEM), e.g. your company's")
        choose = QPushButton("Choose…")
        choose.setAccessibleName("Choose the extra CA file")
        choose.clicked.connect(self._choose_ca_file)
        row.addWidget(QLabel("Also trust:"))
        row.addWidget(self.ca_file, 1)
        row.addWidget(choose)
        certs_box.addLayout(row)
        layout.addWidget(certs)

        proxies = QGroupBox("Proxy")
        proxy_box = QVBoxLayout(proxies)
        self.proxy_system = QRadioButton("The system's and the environment's (HTTPS_PROXY, NO_PROXY)")
        self.proxy_none = QRadioButton("No proxy")
        self.proxy_manual = QRadioButton("This proxy:")
        self.proxy_url = QLineEdit("" if settings.proxy.lower() in ("", "none") else settings.proxy)
        self.proxy_url.setAccessibleName("Proxy address")
        self.proxy_url.setPlaceholderText("http://proxy.example.com:3128")
        group = QButtonGroup(self)
        manual_row = QHBoxLayout()
        manual_row.addWidget(self.proxy_manual)
        manual_row.addWidget(self.proxy_url, 1)
        for button in (self.proxy_system, self.proxy_none, self.proxy_manual):
            group.addButton(button)
        proxy_box.addWidget(self.proxy_system)
        proxy_box.addWidget(self.proxy_none)
        proxy_box.addLayout(manual_row)
        {"": self.proxy_system, "none": self.proxy_none}.get(
            settings.proxy.lower(), self.proxy_manual
        ).setChecked(True)
        layout.addWidget(proxies)

        layout.addWidget(self._credentials_box(settings))

        test_row = QHBoxLayout()
        self.test_button = QPushButton("Test")
        self.test_button.setAccessibleName("Test the connection")
        self.test_button.setToolTip("Walk the path to the service step by step, with the settings as entered")
        self.test_button.clicked.connect(self.test)
        self.test_button.setEnabled(not self.profile.demo)
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        layout.addLayout(test_row)
        self.report = ConnectionReport()
        self.report.hide()
        layout.addWidget(self.report, 1)

        ok_cancel = QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        buttons = QDialogButtonBox(ok_cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._auth_changed()

    def _credentials_box(self, settings: ConnectionSettings) -> QGroupBox:
        box = QGroupBox("Credentials")
        form = QFormLayout(box)
        self.auth = QComboBox()
        self.auth.setAccessibleName("Kind of credentials")
        for kind in AUTH_KINDS:
            self.auth.addItem(AUTH_NAMES[kind], kind)
        self.auth.setCurrentIndex(AUTH_KINDS.index(settings.auth))
        self.auth.currentIndexChanged.connect(self._auth_changed)
        form.addRow("Send:", self.auth)
        self.username = QLineEdit(settings.username)
        self.username.setAccessibleName("User name")
        form.addRow("User name:", self.username)
        self.header = QLineEdit(settings.header)
        self.header.setAccessibleName("Header name")
        self.header.setPlaceholderText("X-Api-Key")
        form.addRow("Header name:", self.header)
        self.secret = QLineEdit()
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret.setAccessibleName("Secret (token or password)")
        self.keyring_problem = secrets.keyring_problem()
        if self.keyring_problem:
            self.secret.setEnabled(False)
            self.secret.setPlaceholderText("no keyring on this computer: use an environment variable")
        else:
            self.secret.setPlaceholderText("kept in the system's keyring; empty: keep the one kept")
        form.addRow("Token or password:", self.secret)
        self.secret_env = QLineEdit(settings.secret_env)
        self.secret_env.setAccessibleName("Environment variable holding the secret")
        self.secret_env.setPlaceholderText("CATALOGUE_TOKEN")
        form.addRow("Or from the environment variable:", self.secret_env)
        self.secret_note = QLabel(self.keyring_problem or "")
        self.secret_note.setWordWrap(True)
        self.secret_note.setObjectName("secret-note")
        self.secret_note.setVisible(bool(self.keyring_problem))
        form.addRow(self.secret_note)
        return box

    def _auth_changed(self) -> None:
        kind = self.auth.currentData()
        self.username.setEnabled(kind == "basic")
        self.header.setEnabled(kind == "header")
        self.secret_env.setEnabled(kind != "none")
        self.secret.setEnabled(kind != "none" and not self.keyring_problem)

    def _choose_ca_file(self) -> None:
        path, _ = open_file_name(
            self, "Extra CA file", self.ca_file.text(), "Certificates (*.pem *.crt *.cer);;All files (*)"
        )
        if path:
            self.ca_file.setText(path)

    # -- what is entered -----------------------------------------------------------------------

    def entered(self) -> ConnectionSettings:
        proxy = "" if self.proxy_system.isChecked() else "none"
        if self.proxy_manual.isChecked():
            proxy = self.proxy_url.text().strip() or ""
        return ConnectionSettings(
            ca_file=self.ca_file.text().strip(),
            proxy=proxy,
            auth=str(self.auth.currentData()),
            username=self.username.text().strip(),
            header=self.header.text().strip(),
            secret_env=self.secret_env.text().strip(),
        )

    def entered_url(self) -> str | None:
        return self.base_url.text().strip() or None

    # -- Test ----------------------------------------------------------------------------------

    def test(self) -> None:
        url = self.entered_url()
        if url is None or self._running is not None:
            return
        self.report.show()
        self.report.show_running(url)
        self.test_button.setEnabled(False)
        self._pool = self._pool or ThreadPoolExecutor(1, thread_name_prefix="connection-test")
        self._running = self._pool.submit(_test, url, self.entered(), self.profile.name, self.secret.text())
        self._poll.start()

    @property
    def testing(self) -> bool:
        return self._running is not None

    def _check_done(self) -> None:
        running = self._running
        if running is None or not running.done():
            return
        self._poll.stop()
        self._running = None
        self.test_button.setEnabled(True)
        try:
            self.report.show_report(running.result())
        except Exception as exc:  # the doctor reports failures itself; this is its own error
            self.report.setPlainText(f"The test could not run: {type(exc).__name__}: {exc}")

    # -- save ----------------------------------------------------------------------------------

    def save(self) -> bool:
        """Write the catalogue's settings and keep the secret; False (said in the dialog) if the
        secret cannot be kept."""
        url = self.entered_url() if not self.profile.demo else self.profile.base_url
        settings = self.entered()
        typed = self.secret.text()
        if typed and settings.auth != "none" and url:
            try:
                secrets.store(secrets.account(self.profile.name, origin(url)), typed)
            except CatalogueError as exc:
                self.secret_note.setText(str(exc))
                self.secret_note.show()
                return False
        self.profile = self.profiles.put(self.profile._replace(base_url=url, connection=settings))
        notes = self.profiles.save()  # a password in the proxy's address: to the keyring, or refused
        self.profile = self.profiles.get(self.profile.name)
        if notes:
            self.secret_note.setText("\n".join(notes))
            self.secret_note.show()
            return False
        return True

    def accept(self) -> None:
        if self.save():
            super().accept()

    def done(self, result: int) -> None:
        self._poll.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        super().done(result)
