"""Addresses with a user and password: read whole whatever the password holds (the user info ends
at the last @), shown as ``user:***@`` in an address or in any text, and never a traceback nor a
password in an error."""

from __future__ import annotations

import contextlib
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.connection.addresses import parse_address, redact, without_user
from catalogue_desktop.core.connection.proxies import check_proxy_url
from catalogue_desktop.core.records.errors import InvalidUrl
from catalogue_desktop.core.service.failures import normalise_base_url

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PASSWORDS = st.text(st.characters(blacklist_categories=["Cs"]), min_size=6, max_size=30).filter(
    lambda p: not any(c.isspace() for c in p)
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://bob:abc/def@proxy:3128", "http://bob:***@proxy:3128"),
        ("http://bob:p@ss:w%rd/x@proxy:3128/", "http://bob:***@proxy:3128/"),
        ("http://me@corp.com:pw@proxy", "http://me@corp.com:***@proxy"),
        ("http://bob@proxy:3128", "http://bob@proxy:3128"),
        ("https://catalogue.example.com/v1", "https://catalogue.example.com/v1"),
        ("not usable: 'http://bob:abc/def#?@p:1' (x)", "not usable: 'http://bob:***@p:1' (x)"),
        (
            "Connecting to http://u1:pw@h:8 through the proxy http://b:x#?@p:3 (from HTTPS_PROXY)",
            "Connecting to http://u1:***@h:8 through the proxy http://b:***@p:3 (from HTTPS_PROXY)",
        ),
        ("mail bob@example.com", "mail bob@example.com"),
        ("bob:abc/def@proxy:3128", "bob:***@proxy:3128"),
        ("https://catalogue.example.com/a@b", "https://catalogue.example.com/a@b"),  # a path's @
    ],
)
def test_redact(text: str, shown: str) -> None:
    assert redact(text) == shown


def test_a_password_with_any_character_is_read_whole() -> None:
    address = parse_address("http://bob:p@ss:w%rd/x#?@[::1]:3128")
    assert (address.user, address.password, address.host, address.port) == (
        "bob",
        "p@ss:w%rd/x#?",
        "::1",
        3128,
    )
    assert address.bare == "http://[::1]:3128" and address.shown == "http://bob:***@[::1]:3128"
    assert "p@ss" not in repr(address)
    assert without_user("https://u1:a/b@host/v1") == ("https://host/v1", "u1", "a/b")
    in_path = parse_address("https://catalogue.example.com/a@b")
    assert (in_path.host, in_path.rest, in_path.user) == ("catalogue.example.com", "/a@b", None)


@pytest.mark.parametrize(
    "text",
    [
        "http://bob:abc/def@proxy:eighty",
        "http://bob:p@ss:w%rd/x@proxy:99999",
        "http://bob:abc/def@",
        "bob:abc/def@proxy:3128",
        "http://bob:abc/def@[::1:3128",
    ],
)
def test_bad_addresses_are_refused_without_their_password(text: str) -> None:
    for check in (parse_address, check_proxy_url, normalise_base_url):
        with pytest.raises(InvalidUrl) as info:
            check(text)
        said = str(info.value) + repr(info.value)
        assert "abc/def" not in said and "w%rd" not in said and "p@ss" not in said


@SETTINGS
@given(password=PASSWORDS, port=st.integers(1, 65535))
def test_any_password_is_read_whole_and_never_shown(password: str, port: int) -> None:
    text = f"http://bob:{password}@proxy.corp:{port}"
    assume(password not in f"refused: 'http://bob:***@proxy.corp:{port}'")  # (text shown anyway)
    address = parse_address(text)
    assert address.password == unquote(password) and (address.host, address.port) == ("proxy.corp", port)
    for shown in (
        redact(text),
        redact(f"refused: {text!r}"),
        address.shown,
        check_proxy_url(text) and redact(text),
    ):
        assert password not in shown
    assert redact(text) == f"http://bob:***@proxy.corp:{port}"


@SETTINGS
@given(text=st.text(max_size=60))
def test_any_text_is_read_or_refused_never_a_traceback(text: str) -> None:
    with contextlib.suppress(InvalidUrl):
        parse_address(text)
    redact(text)
