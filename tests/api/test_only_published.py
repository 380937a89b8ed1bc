"""Drafts, working copies and retracted stories never leave through the read API."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from stories import desk
from stories.models import Story
from stories.services import story_import_desk, story_retract

from .conftest import TRAINING_ID, body, results

LISTS = [
    "/api/v1/stories/",
    "/api/v1/stories/?q=Zebracorn",
    "/api/v1/stories/?newsroom=artificial-intelligence&beat=research",
    "/api/v1/stories/?cites=1792067182956183080",
    "/api/v1/stories/?edition=2026-10-16T00",
]


@pytest.mark.parametrize("path", LISTS)
def test_no_list_shows_a_story_that_is_not_published(client, hidden, path):
    response = client.get(path)

    assert response.status_code == 200
    assert "zebracorn" not in response.content.decode().lower()


def test_the_published_stories_appear_beside_the_hidden_ones(client, hidden):
    assert {story["slug"] for story in results(client, "/api/v1/stories/")} == {
        "agent-training-stack",
        "agentic-rl-production",
    }


def test_a_story_that_is_not_published_has_no_detail(client, hidden):
    for story in hidden.stories:
        response = client.get(f"/api/v1/stories/{story.desk_id}/")

        # A retracted story is gone for good (410); a draft or one scheduled for later is not there.
        expected = 410 if story.status == Story.Status.RETRACTED else 404
        assert response.status_code == expected, story.headline
        assert "zebracorn" not in response.content.decode().lower()
        assert body(response)["error"] == ("withdrawn" if expected == 410 else "not_found")


def test_a_signed_in_editor_reads_only_published_stories_too(client, hidden, admin_user):
    client.force_login(admin_user)

    assert "zebracorn" not in client.get("/api/v1/stories/").content.decode().lower()
    assert client.get(f"/api/v1/stories/{hidden.stories[0].desk_id}/").status_code == 404


def test_an_edited_working_copy_is_not_served_until_it_is_republished(client, demo):
    story = demo["agent-training-stack"]
    before = client.get(f"/api/v1/stories/{TRAINING_ID}/").content
    document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    document["headline"] = "An edit nobody reads yet"
    document["dek"] = "A dek nobody reads yet"

    story_import_desk(document=document)

    assert Story.objects.get(pk=story.pk).headline == "An edit nobody reads yet"
    assert client.get(f"/api/v1/stories/{TRAINING_ID}/").content == before
    assert json.loads(before)["headline"] == story.headline
    listed = {item["id"]: item for item in results(client, "/api/v1/stories/")}
    assert listed[TRAINING_ID]["headline"] == story.headline
    assert results(client, "/api/v1/stories/", q="nobody") == []


def test_a_retracted_story_leaves_the_api_at_once(client, demo):
    story = demo["agent-training-stack"]
    chief = get_user_model().objects.create_superuser("chief", password="x" * 12)

    story_retract(story=story, user=chief, reason="The sources did not hold up")

    assert TRAINING_ID not in {item["id"] for item in results(client, "/api/v1/stories/")}
    response = client.get(f"/api/v1/stories/{TRAINING_ID}/")
    assert response.status_code == 410
    assert body(response) == {"error": "withdrawn", "message": "This story was retracted.", "problems": []}
    assert "2026-10-16T00" not in {edition["id"] for edition in results(client, "/api/v1/editions/")}
    cited = {manifest["manifest_id"] for manifest in results(client, "/api/v1/manifests/", page_size=100)}
    assert "1792067182956183080" not in cited  # only the retracted story cited it
