"""Fixtures for the public site: the demo newsroom, and stories readers must never see."""

from __future__ import annotations

import datetime as dt
import io
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.management import call_command
from django.utils import timezone

from newsroom import pagecache
from stories.models import Story
from tests.factories import (
    CiteFactory,
    ClaimFactory,
    KeyFactFactory,
    ManifestFactory,
    NewsroomFactory,
    ParagraphFactory,
    SectionFactory,
    StoryFactory,
    publish_story,
)

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "stories" / "fixtures" / "seeds"
DEMO_MANIFESTS = ROOT / "manifests" / "fixtures" / "demo-manifests.json"
TRAINING = "/stories/2026-10-16/agent-training-stack/"
AGENTIC = "/stories/2026-10-20/agentic-rl-production/"


def seed(name: str) -> dict[str, Any]:
    return json.loads((SEEDS / f"{name}.json").read_text())


@pytest.fixture(autouse=True)
def empty_page_cache(settings):
    """A local-memory cache of the test's own: pages cached by one test never answer another
    test's requests (nor another xdist worker's, as a shared Redis would), and no test ever
    clears a shared cache (Django's RedisCache.clear() is FLUSHDB, broker queues included)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"site-{uuid.uuid4().hex}"}
    }
    # The paths (and their tags) this process has stored pages for: each test starts as a
    # process that has served nothing yet, whatever ran before it in this xdist worker.
    pagecache._stored_paths.clear()
    yield
    if isinstance(caches["default"], LocMemCache):  # only ever this test's own cache
        caches["default"].clear()


@pytest.fixture
def demo(db, site_url, seed_site_texts, django_capture_on_commit_callbacks) -> dict[str, Story]:
    """The demo site as `make run` loads it: demo manifests, the seeds' site-wide texts and
    both seeds, published."""
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    call_command("import_manifests", str(DEMO_MANIFESTS), **quiet)
    # As load_demo does: the seeds' newsroom publishes a story once its checks pass.
    NewsroomFactory(slug="artificial-intelligence", title="Artificial Intelligence", auto_publish=True)
    # The checks are queued after commit, and run at once (eager tasks): commit hooks run here,
    # one import at a time, as each import commits on its own outside a test.
    for path in sorted(SEEDS.glob("*.json")):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("import_desk", str(path), **quiet)
    return {story.slug: story for story in Story.objects.all()}


def add_story(*, status: str, headline: str, published_at: dt.datetime | None, like: Story, **extra: Any) -> Story:
    """A story beside ``like`` (same newsroom, beat, edition) with a key fact and a cited paragraph."""
    story = StoryFactory(
        status=status,
        headline=headline,
        dek=f"Dek of {headline}",
        published_at=published_at,
        dateline=(published_at or timezone.now()).date(),
        newsroom=like.newsroom,
        beat=like.beat,
        edition=like.edition,
        **extra,
    )
    KeyFactFactory(story=story, position=0, text=f"Key fact of {headline}")
    section = SectionFactory(story=story, position=0, heading=f"Section of {headline}")
    paragraph = ParagraphFactory(section=section, story=story, position=0, markdown=f"Body of {headline}.")
    CiteFactory(paragraph=paragraph, story=story, position=0, manifest_id="1792067182956183080")
    if status in (Story.Status.PUBLISHED, Story.Status.RETRACTED):
        # What readers get is a published version: made by the gate, never by a status.
        story.status = Story.Status.DRAFT
        Story.objects.filter(pk=story.pk).update(status=Story.Status.DRAFT)
        story = publish_story(story)
        if status == Story.Status.RETRACTED:
            from stories.services import story_retract

            story = story_retract(story=story, user=_chief(), reason="test fixture: retracted")
    return story


def big_story(*, sections: int, paragraphs: int, cites: int) -> Story:
    """A published story of the given size, citing manifests that are in the store with claims."""
    story = StoryFactory(status=Story.Status.DRAFT, published_at=timezone.now() - dt.timedelta(hours=2))
    manifests = [ManifestFactory() for _ in range(cites)]
    claims = [ClaimFactory(manifest=manifest) for manifest in manifests]
    for position in range(sections):
        KeyFactFactory(story=story, position=position, text=f"Fact {position}")
        section = SectionFactory(story=story, position=position, heading=f"Section {position}")
        for number in range(paragraphs):
            paragraph = ParagraphFactory(section=section, story=story, position=number, markdown=f"Para {number}.")
            for index, (manifest, claim) in enumerate(zip(manifests, claims, strict=True)):
                CiteFactory(
                    paragraph=paragraph,
                    story=story,
                    position=index,
                    manifest_id=manifest.manifest_id,
                    claim_ids=[claim.claim_id],
                )
    return publish_story(story)


def _chief() -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="fixture-chief", defaults={"is_superuser": True})
    return user


@dataclass
class Hidden:
    stories: list[Story]

    @property
    def markers(self) -> list[str]:
        return [story.headline for story in self.stories]


@pytest.fixture
def hidden(demo) -> Hidden:
    """Stories in the demo's newsroom, beat and edition that no reader may see, one per
    non-public state, each with a unique word in its headline and body."""
    like = demo["agent-training-stack"]
    now = timezone.now()
    stories = [
        add_story(status=Story.Status.DRAFT, headline="Zebracorn draft", published_at=None, like=like),
        add_story(status=Story.Status.SUBMITTED, headline="Zebracorn submitted", published_at=None, like=like),
        add_story(status=Story.Status.VERIFIED, headline="Zebracorn verified", published_at=None, like=like),
        add_story(status=Story.Status.FAILED, headline="Zebracorn failed", published_at=None, like=like),
        add_story(
            status=Story.Status.RETRACTED,
            headline="Zebracorn retracted",
            published_at=now - dt.timedelta(hours=3),
            like=like,
        ),
        # Published, but scheduled for tomorrow: not public until then.
        add_story(
            status=Story.Status.PUBLISHED,
            headline="Zebracorn scheduled",
            published_at=now + dt.timedelta(days=1),
            like=like,
        ),
    ]
    return Hidden(stories)
