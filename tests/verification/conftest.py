"""Fixtures for the checks: the demo manifests, the seed stories, small stories built to order."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from manifests.models import Manifest
from stories.desk import format_utc, parse_utc
from stories.models import Story
from stories.services import story_import_desk
from tests.factories import ClaimFactory, ManifestFactory, publish_story

ROOT = Path(__file__).resolve().parents[2]
DEMO_MANIFESTS = ROOT / "manifests" / "fixtures" / "demo-manifests.json"
SEEDS = ROOT / "stories" / "fixtures" / "seeds"
SEED_NAMES = ["agent-training-stack", "agentic-rl-production"]


def seed_document(name: str) -> dict[str, Any]:
    return json.loads((SEEDS / f"{name}.json").read_text())


@pytest.fixture
def demo_manifests(db) -> None:
    call_command("import_manifests", str(DEMO_MANIFESTS), verbosity=0)


@pytest.fixture
def import_story(db, django_capture_on_commit_callbacks) -> Callable[..., Story]:
    """Import a desk/1 document as the importer does, running its after-commit work (the
    repeat index) as a real commit would. A document with ``published_at`` is then published
    as it stands (through the gate's recorded exception: these tests are about the checks
    that judge other stories against it), unless ``as_draft``."""

    def do_import(document: dict[str, Any], **kwargs: Any) -> Story:
        with django_capture_on_commit_callbacks(execute=True):
            result = story_import_desk(document=copy.deepcopy(document), **kwargs)
        if document.get("published_at") and not kwargs.get("as_draft"):
            with django_capture_on_commit_callbacks(execute=True):
                publish_story(result.story)
        return Story.objects.get(pk=result.story.pk)

    return do_import


@pytest.fixture
def seeds(demo_manifests, seed_site_texts, import_story) -> dict[str, Story]:
    return {name: import_story(seed_document(name)) for name in SEED_NAMES}


def story_document(
    *,
    story_id: str = "9001",
    slug: str = "a-test-story",
    published_at: str | None = "2026-10-16T12:00:00Z",
    headline: str = "A test story",
    dek: str = "A dek.",
    key_facts: list[tuple[str, list[tuple[str, list[str]]]]] = (),
    paragraphs: list[tuple[str, list[tuple[str, list[str]]]]] = (),
) -> dict[str, Any]:
    """A minimal desk/1 document: key facts and one section of paragraphs, each given as
    (text, [(manifest_id, [claim_id, ...]), ...])."""

    def cites(items: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
        return [{"manifest_id": manifest_id, "claim_ids": list(claim_ids)} for manifest_id, claim_ids in items]

    document = {
        "schema": "hangingcontext.desk/1",
        "type": "story",
        "id": story_id,
        "slug": slug,
        "edition": "2026-10-16T00",
        "newsroom": "test-desk",
        "beat": "testing",
        "angle": "An angle.",
        "headline": headline,
        "dek": dek,
        "labels": {"trust": "reported"},
        "key_facts": [{"text": text, "self_reported": False, "cites": cites(c)} for text, c in key_facts],
        "sections": [
            {"heading": "The news", "paragraphs": [{"markdown": text, "cites": cites(c)} for text, c in paragraphs]}
        ],
    }
    if published_at is not None:
        document["published_at"] = published_at
    return document


def make_manifest(
    manifest_id: str, claims: dict[str, str], *, published: str = "2026-10-15", **fields: Any
) -> Manifest:
    """A manifest in the store with the given claims {claim_id: text}."""
    manifest = ManifestFactory(manifest_id=manifest_id, published_date=date.fromisoformat(published), **fields)
    for position, (claim_id, text) in enumerate(claims.items()):
        ClaimFactory(manifest=manifest, claim_id=claim_id, position=position, text=text)
    return manifest


def shifted(document: dict[str, Any], *, days: int) -> str:
    return format_utc(parse_utc(document["published_at"]) + timedelta(days=days))
