"""Named catalogues in profiles.json: the single service of earlier versions migrates into the
profile ``default`` (keeping its cache), the demo is one profile, each has its own cache folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.profiles import (
    DEMO,
    Profile,
    ProfileError,
    Profiles,
    legacy_base_url,
)


def test_the_old_single_service_becomes_the_default_profile(tmp_path: Path) -> None:
    ini = tmp_path / "catalogue-desktop.ini"
    ini.write_text(
        "[service]\nbase_url=https://catalogue.example.com\nsync_timeout=90\n\n[display]\ncurrency=EUR\n"
    )
    profiles = Profiles.load(tmp_path / "profiles.json", legacy_base_url(ini))
    assert profiles.names == ["default", DEMO] and profiles.current == "default"
    default = profiles.get("default")
    assert default.base_url == "https://catalogue.example.com"
    assert default.cache_dir(tmp_path / "cache") == tmp_path / "cache"  # the cache it had
    assert profiles.get(DEMO).cache_dir(tmp_path / "cache") == tmp_path / "cache" / "demo"
    assert profiles.get(DEMO).demo and profiles.get(DEMO).connection.proxy == "none"


def test_without_any_service_the_demo_is_the_only_profile(tmp_path: Path) -> None:
    profiles = Profiles.load(tmp_path / "profiles.json", legacy_base_url(tmp_path / "missing.ini"))
    assert profiles.names == [DEMO] and profiles.current == DEMO


def test_profiles_round_trip_without_secrets(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    profiles = Profiles.load(path)
    staging = profiles.add("Staging EU", "https://staging.example.com")
    assert staging.cache == "profiles/staging-eu"
    profiles.put(Profile("Staging EU", staging.base_url, False, staging.cache,
                         ConnectionSettings(ca_file="/etc/company-ca.pem", proxy="http://proxy:3128",
                                            auth="bearer", secret_env="STAGING_TOKEN")))  # fmt: skip
    profiles.current = "Staging EU"
    profiles.save()
    again = Profiles.load(path)
    assert again.current == "Staging EU" and again.get("Staging EU") == profiles.get("Staging EU")
    data = json.loads(path.read_text())
    assert set(data["profiles"][1]["connection"]) == {"ca_file", "proxy", "auth", "secret_env"}


def test_names_are_checked_and_unique(tmp_path: Path) -> None:
    profiles = Profiles.load(tmp_path / "profiles.json")
    profiles.add("production", "https://a.example")
    with pytest.raises(ProfileError, match="already"):
        profiles.add("production", "https://b.example")
    with pytest.raises(ProfileError, match="1 to 40 letters"):
        profiles.add("../../etc", "https://b.example")
    with pytest.raises(ProfileError, match="there are: demo, production"):
        profiles.get("nope")


def test_a_damaged_file_keeps_what_it_can(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    ok = {"name": "ok", "base_url": "https://ok.example", "cache": "../../x", "connection": {"auth": "magic"}}
    dupe = {"name": "ok", "base_url": "https://dupe.example"}
    path.write_text(json.dumps({"current": "gone", "profiles": [ok, {"name": 7}, "junk", dupe]}))
    profiles = Profiles.load(path)
    assert profiles.names == ["ok", DEMO] and profiles.current == "ok"
    got = profiles.get("ok")
    assert (
        got.base_url == "https://ok.example" and got.cache == "profiles/ok" and got.connection.auth == "none"
    )
    path.write_text("{not json")
    assert Profiles.load(path).names == [DEMO]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"profiles": 5}', 'its "profiles" is a number, not a list'),
        ("[" * 100_000, "is not JSON this app can read"),
        ("{not json", "is not valid JSON (Expecting property name"),
        ("[]", 'holds a list, not an object with a "profiles" list'),
        ('{"current": ["x"], "profiles": []}', 'its "current" is a list'),
        ("\udcff", "is not UTF-8 text"),
        (" " * (1024 * 1024 + 1), "is larger than 1024 KiB, too large"),
    ],
)
def test_a_malformed_file_is_kept_aside_with_one_line(tmp_path: Path, body: str, said: str) -> None:
    path = tmp_path / "profiles.json"
    path.write_bytes(body.encode("utf-8", "surrogateescape"))
    profiles = Profiles.load(path, "https://legacy.example")
    assert profiles.names == ["default", DEMO] and profiles.current == "default"
    assert profiles.problem is not None and "\n" not in profiles.problem
    assert profiles.problem.startswith(f"{path}: {said}")
    (aside,) = tmp_path.glob("profiles.json.bad-*")
    assert f"kept aside as {aside.name}; the catalogues start anew" in profiles.problem
    assert not path.exists() and aside.read_bytes() == body.encode("utf-8", "surrogateescape")
    profiles.save()
    assert Profiles.load(path).problem is None


def test_a_catalogue_of_the_wrong_shape_is_said_and_a_copy_kept(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    good = {"name": "ok", "base_url": "https://ok.example"}
    path.write_text(json.dumps({"profiles": [good, {"name": "bad", "base_url": 5}]}))
    profiles = Profiles.load(path)
    assert profiles.names == ["ok", "bad", DEMO] and profiles.get("bad").base_url is None
    assert profiles.problem is not None
    assert profiles.problem.startswith(f"{path}: catalogue 2 ('bad'): \"base_url\" is a number; a copy kept")
    (aside,) = tmp_path.glob("profiles.json.bad-*")
    assert json.loads(aside.read_text())["profiles"][1]["base_url"] == 5 and path.exists()
