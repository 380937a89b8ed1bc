"""The changes feed: a mirror built from it alone is the live story list, after publications,
corrections, re-publications and retractions; updated_at and updated_after for syncing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from .conftest import AGENTIC_ID, TRAINING_ID, body, fresh_document, post_json

CHANGES = "/api/v1/changes/"


@pytest.fixture(autouse=True)
def settled(settings):
    settings.API_CHANGES_SETTLE_SECONDS = 0


def live_list(client) -> dict[str, dict[str, Any]]:
    response = client.get("/api/v1/stories/", {"page_size": 100})
    return {summary["id"]: summary for summary in body(response)["results"]}


def sync(client, mirror: dict[str, dict[str, Any]], cursor: str | None) -> str | None:
    """Apply every change after the cursor to the mirror; the cursor to poll next."""
    url = CHANGES + (f"?after={cursor}" if cursor else "")
    while True:
        page = body(client.get(url))
        for change in page["results"]:
            if change["tombstone"]:
                assert change["story"] is None
                mirror.pop(change["id"], None)
            else:
                mirror[change["id"]] = change["story"]
        if not page["results"]:
            return page["cursor"]
        url = page["next"]


def act(client, what, who, story, data):
    response = post_json(client, f"/api/v1/stories/{story}/{what}/", data, **who)
    assert response.status_code in (200, 201), response.content
    return response


def test_a_mirror_built_from_the_changes_feed_is_the_live_list(client, people, django_capture_on_commit_callbacks):
    mirror: dict[str, dict[str, Any]] = {}
    cursor = sync(client, mirror, None)
    assert mirror == live_list(client)
    assert set(mirror) == {TRAINING_ID, AGENTIC_ID}

    with django_capture_on_commit_callbacks(execute=True):
        submitted = post_json(
            client, "/api/v1/stories/", fresh_document(desk_id="9200", slug="mirrored"), **people.editor
        )
    assert submitted.status_code == 202, submitted.content
    act(client, "corrections", people.chief, TRAINING_ID, {"text": "An earlier figure was wrong."})
    cursor = sync(client, mirror, cursor)
    assert "9200" in mirror
    assert mirror == live_list(client)

    act(client, "retract", people.chief, AGENTIC_ID, {"reason": "The source withdrew its claims."})
    act(client, "corrections", people.chief, "9200", {"text": "A name was misspelt."})
    cursor = sync(client, mirror, cursor)
    assert AGENTIC_ID not in mirror
    assert mirror["9200"]["correction_count"] == 1
    assert mirror == live_list(client)

    # From the very first change, too: one pass gives the same mirror.
    fresh: dict[str, dict[str, Any]] = {}
    sync(client, fresh, None)
    assert fresh == live_list(client)


def test_changes_come_in_order_with_a_tombstone_for_a_retraction(client, people):
    act(client, "corrections", people.chief, TRAINING_ID, {"text": "A date was wrong."})
    act(client, "retract", people.chief, TRAINING_ID, {"reason": "Withdrawn by the desk."})

    changes = body(client.get(CHANGES))["results"]

    mine = [(change["event"], change["tombstone"]) for change in changes if change["id"] == TRAINING_ID]
    assert mine == [("story.published", False), ("story.corrected", False), ("story.retracted", True)]
    assert changes[-1]["reason"] == "Withdrawn by the desk."
    cursors = [change["cursor"] for change in changes]
    assert len(set(cursors)) == len(cursors)
    after = body(client.get(CHANGES, {"after": cursors[-2]}))
    assert [change["cursor"] for change in after["results"]] == [cursors[-1]]
    assert after["cursor"] == cursors[-1]
    assert body(client.get(after["next"]))["results"] == []


def test_a_change_is_listed_only_once_it_has_settled(client, people, settings):
    cursor = body(client.get(CHANGES))["cursor"]
    settings.API_CHANGES_SETTLE_SECONDS = 30
    act(client, "corrections", people.chief, TRAINING_ID, {"text": "A date was wrong."})

    assert body(client.get(CHANGES, {"after": cursor}))["results"] == []
    with time_machine.travel(timezone.now() + timezone.timedelta(seconds=31)):
        [change] = body(client.get(CHANGES, {"after": cursor}))["results"]
    assert change["event"] == "story.corrected"


@pytest.mark.parametrize("after", ["yesterday", "12", "1-2-3", "99999999999999999999-1"])
def test_a_cursor_the_feed_never_gave_is_a_400_naming_after(client, db, after):
    response = client.get(CHANGES, {"after": after})

    assert response.status_code == 400
    assert [problem["at"] for problem in body(response)["problems"]] == ["after"]


def test_summaries_say_when_they_were_updated_and_can_be_filtered_by_it(client, people):
    before = live_list(client)
    # A second later at least: updated_at is to the second, and the filter keeps that second.
    with time_machine.travel(timezone.now() + timedelta(seconds=2), tick=True):
        act(client, "corrections", people.chief, TRAINING_ID, {"text": "A date was wrong."})
    corrected = live_list(client)[TRAINING_ID]["updated_at"]

    assert corrected > before[TRAINING_ID]["updated_at"]
    response = client.get("/api/v1/stories/", {"updated_after": corrected})
    assert [summary["id"] for summary in body(response)["results"]] == [TRAINING_ID]


def test_a_bad_updated_after_is_a_400_naming_it(client, db):
    response = client.get("/api/v1/stories/", {"updated_after": "last week"})

    assert response.status_code == 400
    assert [problem["at"] for problem in body(response)["problems"]] == ["updated_after"]


def test_the_migration_records_the_versions_there_before_the_feed(client, people):
    import importlib

    from django.apps import apps

    from api.models import StoryChange

    act(client, "retract", people.chief, AGENTIC_ID, {"reason": "Withdrawn by the desk."})
    StoryChange.objects.all().delete()  # as before the feed existed
    importlib.import_module("api.migrations.0002_story_changes_backfill").backfill(apps, None)

    mirror: dict[str, dict[str, Any]] = {}
    sync(client, mirror, None)
    assert mirror == live_list(client)
    assert [change["event"] for change in body(client.get(CHANGES))["results"] if change["id"] == AGENTIC_ID] == [
        "story.retracted"
    ]


def test_a_story_published_for_later_enters_the_feed_at_its_time(client, hidden):
    from stories.models import Story

    scheduled = next(story for story in hidden.stories if story.headline == "Zebracorn scheduled")
    assert scheduled.status == Story.Status.PUBLISHED

    mirror: dict[str, dict[str, Any]] = {}
    sync(client, mirror, None)
    assert str(scheduled.desk_id) not in mirror
    assert "zebracorn scheduled" not in client.get(CHANGES).content.decode().lower()
    assert mirror == live_list(client)

    with time_machine.travel(timezone.now() + timezone.timedelta(days=1, minutes=1)):
        sync(client, mirror, None)
        assert mirror[str(scheduled.desk_id)]["headline"] == "Zebracorn scheduled"
        assert mirror == live_list(client)
