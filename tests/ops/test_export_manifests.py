"""manage.py export_manifests writes what import_manifests reads: export, empty the store,
import, and every field of every manifest and claim is back."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from manifests.models import Claim, Manifest
from tests.factories import ClaimFactory, ManifestFactory
from tests.stories.helpers import run_command

pytestmark = pytest.mark.django_db

DEMO_MANIFESTS = Path(__file__).resolve().parents[2] / "manifests" / "fixtures" / "demo-manifests.json"
FIELDS = [
    "manifest_id",
    "title",
    "source_name",
    "source_url",
    "published_date",
    "brief_headline",
    "brief_summary",
    "is_illustrative",
]
CLAIM_FIELDS = ["claim_id", "position", "text", "type", "confidence"]


def store_contents() -> list[dict]:
    return [
        {
            **{name: getattr(manifest, name) for name in FIELDS},
            "claims": [{name: getattr(claim, name) for name in CLAIM_FIELDS} for claim in manifest.claims.all()],
        }
        for manifest in Manifest.objects.order_by("manifest_id").prefetch_related("claims")
    ]


@pytest.fixture
def varied_store():
    full = ManifestFactory(
        manifest_id="1790000000000000001",
        title="Ünïcode title — with “quotes”",
        brief_headline="A headline",
        brief_summary="A summary\nover two lines.",
        is_illustrative=True,
        published_date=date(2026, 10, 15),
    )
    # Claims stored out of position order, with every kind of type and confidence.
    ClaimFactory(manifest=full, claim_id="c-2", position=1, text="Second: 30.7% of 1,200.", type="", confidence=None)
    ClaimFactory(manifest=full, claim_id="c-1", position=0, text="First.", type="finding", confidence=0.86)
    ClaimFactory(manifest=full, claim_id="007", position=2, text="Opaque id.", type="method", confidence=1.0)
    # Known only from a story import: no claims, no date, no URL.
    ManifestFactory(
        manifest_id="m-from-a-story",
        title="Known from a story",
        source_url="",
        published_date=None,
        origin=Manifest.Origin.STORY_IMPORT,
    )
    ManifestFactory(manifest_id="m-provider", origin=Manifest.Origin.PROVIDER)
    ClaimFactory(manifest=Manifest.objects.get(manifest_id="m-provider"), claim_id="p1", position=0)


@pytest.mark.parametrize("jsonl", [False, True], ids=["array", "json-lines"])
def test_export_then_import_into_an_empty_store_gives_back_every_field(varied_store, tmp_path, jsonl):
    before = store_contents()
    path = tmp_path / ("manifests.jsonl" if jsonl else "manifests.json")
    exported = run_command("export_manifests", "--output", str(path), *(["--jsonl"] if jsonl else []))
    assert exported.ok, exported.stderr
    assert exported.stderr.strip() == "3 manifests exported with 4 claims, 0 left out"

    Manifest.objects.all().delete()
    assert not Manifest.objects.exists()
    assert not Claim.objects.exists()

    imported = run_command("import_manifests", str(path))
    assert imported.ok, imported.stderr
    assert imported.stdout.splitlines()[-1] == "3 manifests imported (3 created, 0 updated), 0 failed"
    assert store_contents() == before
    # Where a manifest came from is the store's own record: an imported file is a file.
    assert set(Manifest.objects.values_list("origin", flat=True)) == {Manifest.Origin.FILE}


def test_the_demo_manifests_come_back_out_as_the_file_they_were_imported_from(tmp_path):
    assert run_command("import_manifests", str(DEMO_MANIFESTS)).ok
    ids = [item["manifest_id"] for item in json.loads(DEMO_MANIFESTS.read_text())]
    path = tmp_path / "out.json"
    assert run_command("export_manifests", "--id", *ids, "--output", str(path)).ok
    assert json.loads(path.read_text()) == json.loads(DEMO_MANIFESTS.read_text())


def test_ids_choose_the_manifests_and_their_order_on_standard_output(varied_store):
    run = run_command("export_manifests", "--id", "m-provider", "--id", "1790000000000000001")
    assert run.ok
    exported = json.loads(run.stdout)
    assert [item["manifest_id"] for item in exported] == ["m-provider", "1790000000000000001"]
    assert [claim["claim_id"] for claim in exported[1]["signal"]["claims"]] == ["c-1", "c-2", "007"]
    assert exported[1]["illustrative"] is True
    assert "illustrative" not in exported[0]


def test_an_unknown_id_is_named_and_nothing_is_written(varied_store, tmp_path):
    path = tmp_path / "out.json"
    run = run_command("export_manifests", "--id", "m-provider", "no-such", "--output", str(path))
    assert not run.ok
    assert run.error == "not in the store: 'no-such'"
    assert not path.exists()


def test_an_empty_store_exports_an_empty_array():
    run = run_command("export_manifests")
    assert run.ok
    assert json.loads(run.stdout) == []


def test_a_manifest_the_import_would_refuse_is_left_out_and_named(varied_store):
    Manifest.objects.filter(manifest_id="m-provider").update(source_name="")
    run = run_command("export_manifests")
    assert not run.ok
    assert run.error == "2 manifests exported with 3 claims, 1 left out"
    assert "m-provider: source.name:" in run.stderr
    assert [item["manifest_id"] for item in json.loads(run.stdout)] == ["1790000000000000001", "m-from-a-story"]


def test_an_output_that_cannot_be_written_is_named(tmp_path):
    run = run_command("export_manifests", "--output", str(tmp_path / "missing" / "out.json"))
    assert not run.ok
    assert run.error.startswith(f"{tmp_path / 'missing' / 'out.json'}: cannot write: ")
