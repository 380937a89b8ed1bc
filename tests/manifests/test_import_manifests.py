"""manage.py import_manifests: arrays, single manifests and JSON Lines; bad ones named, good ones kept."""

import json

import pytest

from manifests.models import Claim, Manifest
from tests.stories.helpers import run_command

pytestmark = pytest.mark.django_db


def manifest(manifest_id: str, *claim_ids: str, **changes) -> dict:
    payload = {
        "manifest_id": manifest_id,
        "title": f"Manifest {manifest_id}",
        "source": {"name": "example-publisher", "url": "https://example.org/a", "published_date": "2026-10-15"},
        "brief": {"headline": "A brief", "summary": "A summary."},
        "signal": {
            "claims": [
                {"claim_id": claim_id, "text": f"Claim {claim_id}.", "type": "finding", "confidence": 0.8}
                for claim_id in claim_ids
            ]
        },
    }
    return payload | changes


def test_it_imports_an_array_of_manifests_with_their_claims(tmp_path):
    path = tmp_path / "manifests.json"
    path.write_text(json.dumps([manifest("m1", "c1", "c2"), manifest("m2", "c3")]))
    run = run_command("import_manifests", str(path))
    assert run.ok
    assert run.stdout.splitlines()[-1] == "2 manifests imported (2 created, 0 updated), 0 failed"
    assert list(Claim.objects.filter(manifest__manifest_id="m1").values_list("claim_id", flat=True)) == ["c1", "c2"]
    assert Manifest.objects.get(manifest_id="m2").origin == Manifest.Origin.FILE


def test_importing_again_replaces_the_claims_whole(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(manifest("m1", "c1", "c2")))
    run_command("import_manifests", str(path))
    path.write_text(json.dumps(manifest("m1", "c2", "c9")))
    run = run_command("import_manifests", str(path))
    assert run.stdout.splitlines()[0] == "m1\t2 claims\tupdated"
    assert list(Claim.objects.values_list("claim_id", flat=True)) == ["c2", "c9"]


def test_a_bad_manifest_is_named_and_the_good_ones_are_kept(tmp_path):
    bad = manifest("m2", "c3")
    bad["signal"]["claims"][0]["claim_id"] = 17
    lines = [json.dumps(manifest("m1", "c1")), json.dumps(bad), json.dumps(manifest("m3", "c1"))]
    path = tmp_path / "manifests.jsonl"
    path.write_text("\n".join(lines))
    run = run_command("import_manifests", str(path))
    assert not run.ok
    assert f"{path}:2: signal.claims[0].claim_id: must be a string, not a number" in run.stderr
    assert run.error == "2 manifests imported (2 created, 0 updated), 1 failed"
    assert sorted(Manifest.objects.values_list("manifest_id", flat=True)) == ["m1", "m3"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"source": {"url": "https://example.org"}}, "source.name: is required"),
        ({"manifest_id": ""}, "manifest_id: must not be empty"),
        (
            {"source": {"name": "p", "published_date": "2026-02-31"}},
            "source.published_date: '2026-02-31' is not a real",
        ),
        ({"signal": {"claims": [{"claim_id": "a", "text": "x"}, {"claim_id": "a", "text": "y"}]}}, "appears twice"),
    ],
)
def test_it_refuses_malformed_manifests(tmp_path, change, expected):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([manifest("m1", "c1") | change]))
    run = run_command("import_manifests", str(path))
    assert not run.ok
    assert expected in run.stderr
    assert not Manifest.objects.exists()


def test_the_demo_manifests_are_marked_illustrative():
    run = run_command("load_demo")
    assert run.ok
    # The seeds' nine, and the three dated relative to today for a newcomer's story.
    assert Manifest.objects.count() == 12
    assert not Manifest.objects.filter(is_illustrative=False).exists()
    assert "Created admin user 'admin' with password:" in run.stdout
    again = run_command("load_demo")
    assert "already exists; its password is unchanged" in again.stdout


def test_the_admin_page_of_a_demo_manifest_says_its_claims_are_illustrative(admin_client):
    run_command("load_demo")
    manifest = Manifest.objects.get(manifest_id="1792067182956183080")
    page = admin_client.get(f"/admin/manifests/manifest/{manifest.pk}/change/")
    assert page.status_code == 200
    assert "this manifest&#x27;s claim texts are illustrative" in page.content.decode()
    listing = admin_client.get("/admin/manifests/manifest/?is_illustrative__exact=1")
    assert listing.content.decode().count("1792067182956183080") >= 1
