"""An editor of one newsroom reaches nothing of another's through any admin URL: not its list,
pages, forms, preview, workflow steps, bulk actions, autocomplete or history."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from newsroom.models import Beat, Role
from stories.models import KeyFact, Story
from tests.workflow.conftest import StoryMaker, member
from verification.models import VerificationRun

from .helpers import page_fields, story_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def desks(django_user_model) -> dict[str, Any]:
    ours = StoryMaker(newsroom_slug="north-desk").good()
    theirs = StoryMaker(newsroom_slug="south-desk").good()
    Story.objects.filter(pk=theirs.pk).update(headline="Theirs: the xylophone archive")
    editor = member(django_user_model, "north-editor", Role.CHIEF, newsroom_slug="north-desk")
    return {"ours": ours, "theirs": Story.objects.get(pk=theirs.pk), "editor": editor}


def unchanged(story: Story) -> bool:
    now = Story.objects.get(pk=story.pk)
    return (now.content_hash, now.status, now.edit_version) == (story.content_hash, story.status, story.edit_version)


def test_they_cannot_list_or_find_another_newsroom_s_stories(client, desks):
    client.force_login(desks["editor"])
    changelist = reverse("admin:stories_story_changelist")

    listing = client.get(changelist).content.decode()
    searched = client.get(changelist, {"q": str(desks["theirs"].desk_id)})
    dashboard = client.get(reverse("admin:index")).content.decode()

    assert desks["ours"].headline in listing
    assert "xylophone archive" not in listing
    assert searched.context["cl"].result_count == 0
    assert "xylophone archive" not in dashboard


@pytest.mark.parametrize("view", ["change", "history", "delete", "preview"])
def test_they_cannot_open_another_newsroom_s_story(client, desks, view):
    client.force_login(desks["editor"])

    response = client.get(reverse(f"admin:stories_story_{view}", args=[desks["theirs"].pk]), follow=True)

    assert response.status_code in (200, 403, 404)
    assert "xylophone archive" not in response.content.decode()


def test_they_cannot_preview_another_newsroom_s_draft_at_its_address(client, desks):
    client.force_login(desks["editor"])

    assert client.get(desks["ours"].get_absolute_url()).status_code == 200
    assert client.get(desks["theirs"].get_absolute_url()).status_code == 404


def test_they_cannot_edit_another_newsroom_s_story(client, desks):
    client.force_login(desks["editor"])
    data = page_fields(client, story_url(desks["ours"]))
    data |= {"headline": "Overwritten", "_save": "Save"}

    response = client.post(story_url(desks["theirs"]), data)

    assert response.status_code in (302, 403, 404)
    assert unchanged(desks["theirs"])
    assert Story.objects.get(pk=desks["theirs"].pk).headline == "Theirs: the xylophone archive"


def test_they_cannot_reach_another_story_s_parts_through_their_own_form(client, desks):
    client.force_login(desks["editor"])
    foreign_fact = KeyFact.objects.get(story=desks["theirs"])
    data = page_fields(client, story_url(desks["ours"]))
    # A forged form: their key fact's id in place of ours.
    data |= {"key_facts-0-id": str(foreign_fact.pk), "key_facts-0-text": "Stolen", "_save": "Save"}

    response = client.post(story_url(desks["ours"]), data)

    assert response.status_code == 200
    assert KeyFact.objects.get(pk=foreign_fact.pk).text == foreign_fact.text
    assert KeyFact.objects.get(pk=foreign_fact.pk).story_id == desks["theirs"].pk
    assert unchanged(desks["theirs"])


@pytest.mark.parametrize("step", ["submit", "publish", "retract", "correct"])
def test_they_cannot_act_on_another_newsroom_s_story(client, desks, step):
    client.force_login(desks["editor"])

    response = client.post(
        reverse(f"admin:stories_story_{step}", args=[desks["theirs"].pk]), {"reason": "r", "text": "t"}
    )

    assert response.status_code in (403, 404)
    assert unchanged(desks["theirs"])
    assert not VerificationRun.objects.filter(story=desks["theirs"]).exists()


@pytest.mark.parametrize("action", ["submit_selected", "publish_selected"])
def test_their_bulk_actions_never_touch_another_newsroom_s_story(client, desks, action):
    client.force_login(desks["editor"])

    client.post(
        reverse("admin:stories_story_changelist"),
        {"action": action, "_selected_action": [desks["theirs"].pk, desks["ours"].pk]},
    )

    assert unchanged(desks["theirs"])
    assert not VerificationRun.objects.filter(story=desks["theirs"]).exists()


@pytest.mark.parametrize("field", ["newsroom", "beat"])
def test_their_autocomplete_offers_nothing_of_another_newsroom(client, desks, field):
    client.force_login(desks["editor"])

    results = client.get(
        reverse("admin:autocomplete"), {"app_label": "stories", "model_name": "story", "field_name": field}
    ).json()["results"]

    theirs = desks["theirs"]
    foreign = {str(theirs.newsroom_id)} if field == "newsroom" else {str(theirs.beat_id)}
    assert results
    assert not foreign & {result["id"] for result in results}
    assert Beat.objects.filter(newsroom=theirs.newsroom).exists()


@pytest.mark.parametrize("model", ["revision", "correction", "publishedversion"])
def test_they_see_no_history_of_another_newsroom_s_story(client, desks, model):
    client.force_login(desks["editor"])
    revision = desks["theirs"].revisions.first()

    listing = client.get(reverse(f"admin:stories_{model}_changelist"))

    assert listing.status_code == 200
    assert "xylophone archive" not in listing.content.decode()
    opened = client.get(reverse("admin:stories_revision_change", args=[revision.pk]), follow=True)
    assert "xylophone archive" not in opened.content.decode()
