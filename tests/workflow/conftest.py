"""Fixtures for the workflow: stories built to pass or fail their checks, and Celery switches.

Stories are imported as drafts through ``story_import_desk`` (the real path) and cite
manifests stored with claims whose texts back them, dated today so they are recent.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.utils import timezone

from manifests.models import Manifest
from newsroom.celery import app as celery_app
from newsroom.models import Newsroom, Role
from newsroom.roles import grant_role
from stories.models import Story
from stories.services import story_import_desk
from stories.signals import story_changed
from tests.factories import ClaimFactory, ManifestFactory

_numbers = itertools.count(1)

# Distinct vocabulary for each story, so published test stories never repeat one another.
TOPICS = [
    ("Harbour authority", "dredging", "ferry terminal", "tide gauges"),
    ("Orchard cooperative", "pruning", "cider press", "frost alarms"),
    ("Regional library", "digitising", "map archive", "reading rooms"),
    ("Glacier survey", "drilling", "ice cores", "weather masts"),
    ("Railway museum", "restoring", "steam locomotive", "signal boxes"),
    ("Vineyard council", "replanting", "hillside terraces", "irrigation pumps"),
]


def passing_texts(number: int) -> tuple[str, str, str]:
    """A key fact, a paragraph and the claim that backs both, on a topic of their own."""
    who, doing, what, extra = TOPICS[number % len(TOPICS)]
    claim = f"The {who.lower()} began {doing} the {what} and installed new {extra} this week."
    return claim, claim, claim


@dataclass
class StoryMaker:
    """Builds draft stories whose checks pass (``good``) or fail (``bad``)."""

    newsroom_slug: str = "workflow-desk"
    made: list[Story] = field(default_factory=list)

    def manifest(self, claims: dict[str, str]) -> Manifest:
        manifest = ManifestFactory(published_date=timezone.now().date())
        for position, (claim_id, text) in enumerate(claims.items()):
            ClaimFactory(manifest=manifest, claim_id=claim_id, position=position, text=text)
        return manifest

    def document(self, *, number: int, manifest_id: str, claim_ids: list[str], text: str) -> dict[str, Any]:
        cites = [{"manifest_id": manifest_id, "claim_ids": claim_ids}]
        return {
            "schema": "hangingcontext.desk/1",
            "type": "story",
            "id": str(70_000 + number),
            "slug": f"workflow-story-{number}",
            "edition": timezone.now().strftime("%Y-%m-%dT%H"),
            "newsroom": self.newsroom_slug,
            "beat": "testing",
            "angle": "An angle.",
            "headline": text.split(" began")[0] + f" story {number}",
            "dek": "",
            "labels": {"trust": "reported"},
            "key_facts": [{"text": text, "self_reported": False, "cites": cites}],
            "sections": [{"heading": "The news", "paragraphs": [{"markdown": text, "cites": cites}]}],
        }

    def good(self) -> Story:
        number = next(_numbers)
        claim, fact, _ = passing_texts(number)
        claim_id = f"c-{number}"
        manifest = self.manifest({claim_id: claim})
        return self._import(number=number, manifest_id=manifest.manifest_id, claim_ids=[claim_id], text=fact)

    def bad(self) -> Story:
        """Cites a claim id its manifest does not have: claims_belong fails."""
        number = next(_numbers)
        claim, fact, _ = passing_texts(number)
        manifest = self.manifest({f"c-{number}": claim})
        return self._import(number=number, manifest_id=manifest.manifest_id, claim_ids=["not-a-claim"], text=fact)

    def _import(self, **kwargs: Any) -> Story:
        story = story_import_desk(document=self.document(**kwargs), as_draft=True, actor="test").story
        self.made.append(story)
        return Story.objects.get(pk=story.pk)


@pytest.fixture
def stories(db) -> StoryMaker:
    return StoryMaker()


@pytest.fixture
def auto_publish(stories: StoryMaker) -> Newsroom:
    newsroom, _ = Newsroom.objects.update_or_create(
        slug=stories.newsroom_slug, defaults={"title": "Workflow Desk", "auto_publish": True}
    )
    return newsroom


@pytest.fixture
def eager() -> Iterator[None]:
    """Tasks run in-process, as in the embedded default, even when REDIS_URL is set."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


def use_broker(url: str, *, eager: bool) -> None:
    """Point the Celery app at another broker. Its cached connection pools belong to the old
    broker, so they are dropped; the next publish opens a connection to the new one."""
    celery_app.conf.broker_url = url
    celery_app.conf.task_always_eager = eager
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def switch_broker() -> Iterator[Callable[..., None]]:
    saved = (celery_app.conf.broker_url, celery_app.conf.task_always_eager)
    yield use_broker
    use_broker(saved[0], eager=saved[1])


# A port nothing listens on: connecting is refused at once, like a Redis that is down.
UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"


def own_redis_broker(redis_url: str, switch_broker: Callable[..., None], db: int) -> Iterator[Any]:
    """For a fixture: Redis database ``db`` of the server at ``redis_url``, the test's own (not the
    suite's), as the broker of real workers, emptied before and after; yields its client."""
    import redis

    url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{db}"))
    client = redis.Redis.from_url(url)
    client.flushdb()
    switch_broker(url, eager=False)
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def signals_sent() -> Iterator[list[tuple[int, str]]]:
    """(story pk, action) for every story_changed sent during the test."""
    sent: list[tuple[int, str]] = []

    def listener(sender: Any, story: Story, action: str, **kwargs: Any) -> None:
        sent.append((story.pk, action))

    story_changed.connect(listener, dispatch_uid="workflow-tests")
    yield sent
    story_changed.disconnect(dispatch_uid="workflow-tests")


def member(django_user_model, username: str, role: str, newsroom_slug: str = StoryMaker.newsroom_slug) -> Any:
    """A user with ``role`` in the newsroom the story maker writes for, given as ``add_editor`` gives it."""
    newsroom, _ = Newsroom.objects.get_or_create(slug=newsroom_slug, defaults={"title": "Workflow Desk"})
    user = django_user_model.objects.create_user(username=username, password="pw")
    grant_role(user=user, newsroom=newsroom, role=role)
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def editor(django_user_model) -> Any:
    """An editor of the stories' newsroom: writes and submits, never publishes."""
    return member(django_user_model, "editor", Role.EDITOR)


@pytest.fixture
def chief(django_user_model) -> Any:
    """A chief of the stories' newsroom: also publishes, overrides, corrects and retracts."""
    return member(django_user_model, "chief", Role.CHIEF)
