"""Readers' view of a story changes only through the gate, a correction or a retraction; each
tells the rooms above (caches, feeds) after commit, with the cache tags of the pages it touched."""

from __future__ import annotations

import pytest

from stories.models import PublishedVersion, Story
from stories.services import story_add_correction, story_import_desk, story_retract
from stories.signals import story_changed
from tests.factories import BeatFactory, publish_story

from .conftest import seed

TAGS_81 = [
    "beat-artificial-intelligence-research",
    "edition-2026-10-16T00",
    "newsroom-artificial-intelligence",
    "site",
    "story-81",
]


@pytest.fixture
def heard(seed_site_texts):
    # The seeds imported here carry site-wide texts, which the site must know first.
    events: list[tuple[int, str, list[str]]] = []

    def listener(sender, story, action, tags=None, **kwargs):
        events.append((story.desk_id, action, sorted(tags or [])))

    story_changed.connect(listener, dispatch_uid="test-listener")
    yield events
    story_changed.disconnect(dispatch_uid="test-listener")


def imported() -> Story:
    return story_import_desk(document=seed("agent-training-stack")).story


def test_importing_a_story_announces_nothing_and_publishes_nothing(db, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        story = imported()

    # The import wrote the working copy; readers get nothing until the gate opens.
    assert heard == []
    assert not PublishedVersion.objects.filter(story=story).exists()


def test_publishing_a_story_announces_it_after_commit_with_its_pages_tags(
    db, heard, django_capture_on_commit_callbacks
):
    story = imported()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        publish_story(story)
        assert heard == []  # nothing before the commit

    for callback in callbacks:
        callback()
    assert heard == [(81, "published", TAGS_81)]


def test_reimporting_a_published_story_announces_nothing_until_it_is_published_again(
    db, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        publish_story(imported())
        document = seed("agent-training-stack") | {"headline": "A new headline"}
        story = story_import_desk(document=document).story
    assert heard == [(81, "published", TAGS_81)]

    with django_capture_on_commit_callbacks(execute=True):
        publish_story(story)
    assert heard == [(81, "published", TAGS_81), (81, "published", TAGS_81)]


def test_importing_a_published_story_as_a_draft_leaves_readers_the_published_version(
    db, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        publish_story(imported())
        story_import_desk(document=seed("agent-training-stack"), as_draft=True)

    assert heard == [(81, "published", TAGS_81)]
    assert Story.objects.get(desk_id=81).is_public


def test_republishing_in_another_beat_announces_both_beats(db, heard, django_capture_on_commit_callbacks):
    story = publish_story(imported())  # its commit hooks never run: not heard
    story.beat = BeatFactory(newsroom=story.newsroom, slug="policy")
    story.save()

    with django_capture_on_commit_callbacks(execute=True):
        publish_story(story)

    # The old beat's pages lose the story, the new one's gain it: both are stale.
    [(_, action, tags)] = heard
    assert action == "published"
    assert tags == sorted([*TAGS_81, "beat-artificial-intelligence-policy"])


def test_a_correction_and_a_retraction_are_announced(db, heard, admin_user, django_capture_on_commit_callbacks):
    story = publish_story(imported())

    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=story, text="A figure was wrong.", user=admin_user)
        story_retract(story=story, user=admin_user, reason="Sources withdrawn.")

    assert heard == [(81, "corrected", TAGS_81), (81, "retracted", TAGS_81)]
