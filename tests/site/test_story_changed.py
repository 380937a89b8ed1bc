"""Importing a story tells the rooms above (caches, feeds) when readers will see a change."""

from __future__ import annotations

import pytest

from stories.models import Story
from stories.services import story_import_desk
from stories.signals import story_changed

from .conftest import seed


@pytest.fixture
def heard(seed_site_texts):
    # The seeds imported here carry site-wide texts, which the site must know first.
    events: list[tuple[int, str]] = []

    def listener(sender, story, action, **kwargs):
        events.append((story.desk_id, action))

    story_changed.connect(listener, dispatch_uid="test-listener")
    yield events
    story_changed.disconnect(dispatch_uid="test-listener")


def test_importing_a_published_story_announces_it_after_commit(db, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        story_import_desk(document=seed("agent-training-stack"))
        assert heard == []  # nothing before the commit

    for callback in callbacks:
        callback()
    assert heard == [(81, "published")]


def test_reimporting_a_published_story_announces_an_update(db, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        story_import_desk(document=seed("agent-training-stack"))
        story_import_desk(document=seed("agent-training-stack"))

    assert heard == [(81, "published"), (81, "updated")]


def test_importing_a_draft_announces_nothing(db, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        story_import_desk(document=seed("agent-training-stack"), as_draft=True)

    assert heard == []
    assert Story.objects.get(desk_id=81).status == Story.Status.DRAFT


def test_turning_a_published_story_back_into_a_draft_is_announced(db, heard, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        story_import_desk(document=seed("agent-training-stack"))
        story_import_desk(document=seed("agent-training-stack"), as_draft=True)

    # Readers lose the page: caches must hear of it.
    assert heard == [(81, "published"), (81, "updated")]
