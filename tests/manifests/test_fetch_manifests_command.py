"""manage.py fetch_manifests ID… [--refresh], against the test provider."""

import io

import pytest
from django.core.management import CommandError, call_command, execute_from_command_line

from manifests.models import Manifest
from tests.factories import ClaimFactory, ManifestFactory
from tests.provider_server import Reply, manifest_payload

pytestmark = pytest.mark.django_db


def fetch(*args: str) -> str:
    out = io.StringIO()
    call_command("fetch_manifests", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_it_prints_one_line_per_id_and_a_summary(provider):
    provider.add_manifest(manifest_payload("m1", claims=["c1", "c2", "c3"]))
    ClaimFactory(manifest=ManifestFactory(manifest_id="m2"))

    out = fetch("m1", "m2")

    assert out.splitlines() == [
        "m1\tfetched\tfetched from the provider with 3 claims",
        "m2\tstored\talready stored with 1 claim (origin: file)",
        "2 manifests: 1 fetched, 1 already stored, 0 missing, 0 failed",
    ]
    assert Manifest.objects.get(manifest_id="m1").claims.count() == 3


def test_it_fetches_stored_manifests_again_with_refresh(provider):
    ClaimFactory(manifest=ManifestFactory(manifest_id="m1"))
    provider.add_manifest(manifest_payload("m1"))

    out = fetch("--refresh", "m1")

    assert out.startswith("m1\tfetched\t")
    assert len(provider.requests) == 1


def test_it_exits_1_when_a_manifest_does_not_exist(provider):
    provider.add_manifest(manifest_payload("m1"))
    out = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("fetch_manifests", "m1", "nope", stdout=out)

    assert raised.value.returncode == 1
    assert str(raised.value) == "2 manifests: 1 fetched, 0 already stored, 1 missing, 0 failed"
    assert "nope\tmissing\tthe provider has no manifest with this id (HTTP 404)" in out.getvalue()


def test_it_exits_3_when_the_provider_cannot_answer(provider):
    provider.always(Reply(status=503))
    out = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("fetch_manifests", "m1", stdout=out)

    assert raised.value.returncode == 3
    assert "m1\terror\tthe provider answered HTTP 503 Service Unavailable; gave up after 3 attempts" in out.getvalue()


def test_its_exit_status_reaches_the_shell(provider, capsys):
    with pytest.raises(SystemExit) as raised:
        execute_from_command_line(["manage.py", "fetch_manifests", "nope"])

    assert raised.value.code == 1
    captured = capsys.readouterr()
    assert "nope\tmissing" in captured.out
    assert "1 missing" in captured.err


def test_it_reports_an_unconfigured_provider(settings):
    settings.MANIFEST_PROVIDER_URL = ""
    out = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("fetch_manifests", "m1", stdout=out)

    assert raised.value.returncode == 3
    assert "m1\terror\tno manifest provider is configured: set MANIFEST_PROVIDER_URL" in out.getvalue()


def test_it_needs_at_least_one_id():
    with pytest.raises(CommandError, match=r"^ID: give at least one manifest id$"):
        call_command("fetch_manifests")


def test_it_refuses_a_blank_id(provider):
    with pytest.raises(CommandError, match=r"^ID: argument 2 is blank; give a manifest id$"):
        call_command("fetch_manifests", "m1", "  ")

    assert provider.requests == []
