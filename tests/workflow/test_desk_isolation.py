"""The desk's history, audit log, editions and manifests pages show a user only their newsrooms'
stories, and act only on those: an editor of one newsroom reaches nothing of another's."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from manifests.models import Manifest
from newsroom.models import Role
from stories.models import Cite, Revision, Story
from tests.provider_server import manifest_payload
from verification.workflow import story_submit

from .conftest import StoryMaker, member

pytestmark = pytest.mark.usefixtures("eager")

SOUTH = "south-desk"


@pytest.fixture
def south() -> StoryMaker:
    return StoryMaker(newsroom_slug=SOUTH)


def login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def verified(story: Story, capture) -> Story:
    with capture(execute=True):
        story_submit(story=story, actor="writer-agent")
    story = Story.objects.get(pk=story.pk)
    assert story.status == Story.Status.VERIFIED
    return story


def test_an_editor_of_another_newsroom_reaches_no_history_diff_restore_or_schedule(stories, south, django_user_model):
    story = stories.good()
    south.good()
    outsider = login(member(django_user_model, "sam", Role.CHIEF, SOUTH))
    revision = Revision.objects.filter(story=story).first()
    revisions = Revision.objects.filter(story=story).count()

    for url, method in [
        (reverse("admin:stories_story_history", args=[story.pk]), "get"),
        (reverse("admin:stories_story_revision_diff", args=[story.pk]) + f"?a={revision.pk}&b=working", "get"),
        (reverse("admin:stories_story_revision_restore", args=[story.pk, revision.pk]), "post"),
        (reverse("admin:stories_story_schedule", args=[story.pk]), "get"),
        (reverse("admin:stories_story_schedule", args=[story.pk]), "post"),
    ]:
        response = getattr(outsider, method)(url, {"publish_at": "2030-01-01T10:00"} if method == "post" else {})
        assert response.status_code == 404, url
        assert story.headline not in response.content.decode()

    assert Revision.objects.filter(story=story).count() == revisions
    assert Story.objects.get(pk=story.pk).publish_at is None


def test_the_audit_log_is_for_chiefs_and_shows_only_their_newsrooms(stories, south, editor, chief, django_user_model):
    north_story, south_story = stories.good(), south.good()
    url = reverse("admin:stories_auditentry_changelist")

    assert login(editor).get(url).status_code == 403
    assert "audit log" not in login(editor).get(reverse("admin:index")).content.decode().lower()

    page = login(chief).get(url).content.decode()
    assert north_story.headline in page
    assert "created as a draft by import" in page
    assert south_story.headline not in page
    assert SOUTH not in page  # not even as a filter choice

    sue = member(django_user_model, "sue", Role.CHIEF, SOUTH)
    page = login(sue).get(url).content.decode()
    assert south_story.headline in page
    assert north_story.headline not in page

    entry = Revision.objects.filter(story=north_story).first()
    assert login(sue).get(reverse("admin:stories_auditentry_change", args=[entry.pk])).status_code == 302


def test_an_edition_lists_only_the_user_s_stories_with_their_checks(
    stories, south, editor, django_user_model, django_capture_on_commit_callbacks
):
    north_story = verified(stories.good(), django_capture_on_commit_callbacks)
    south_story = south.good()
    assert north_story.edition_id == south_story.edition_id
    url = reverse("admin:editions_edition_change", args=[north_story.edition_id])

    page = login(editor).get(url).content.decode()
    assert north_story.headline in page
    assert "passed" in page
    assert south_story.headline not in page
    assert "Publish every verified story" not in page  # an editor does not publish

    sam = login(member(django_user_model, "sam", Role.EDITOR, SOUTH))
    page = sam.get(url).content.decode()
    assert south_story.headline in page
    assert "never checked" in page
    assert north_story.headline not in page


def test_an_edition_holding_only_another_newsroom_s_stories_is_not_shown(stories, django_user_model):
    story = stories.good()
    sam = login(member(django_user_model, "sam", Role.EDITOR, SOUTH))

    listing = sam.get(reverse("admin:editions_edition_changelist")).content.decode()
    page = sam.get(reverse("admin:editions_edition_change", args=[story.edition_id]))

    assert story.edition_id not in listing
    assert page.status_code == 302  # admin's "does not exist"
    assert story.headline not in page.content.decode()


def test_publish_every_verified_story_publishes_the_chief_s_newsrooms_only(
    stories, south, chief, django_user_model, django_capture_on_commit_callbacks
):
    mine = verified(stories.good(), django_capture_on_commit_callbacks)
    failing = stories.bad()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=failing, actor="writer-agent")
    theirs = verified(south.good(), django_capture_on_commit_callbacks)
    url = reverse("admin:editions_edition_publish_verified", args=[mine.edition_id])

    response = login(chief).post(url, follow=True)

    assert f"{mine.desk_id} “{mine.headline}”: published" in response.content.decode()
    assert Story.objects.get(pk=mine.pk).status == Story.Status.PUBLISHED
    assert Story.objects.get(pk=failing.pk).status == Story.Status.FAILED
    assert Story.objects.get(pk=theirs.pk).status == Story.Status.VERIFIED

    again = login(chief).post(url, follow=True).content.decode()
    assert "No verified story to publish in your newsrooms; nothing to do." in again


def test_an_editor_cannot_publish_an_edition(stories, editor, django_capture_on_commit_callbacks):
    story = verified(stories.good(), django_capture_on_commit_callbacks)

    response = login(editor).post(reverse("admin:editions_edition_publish_verified", args=[story.edition_id]))

    assert response.status_code == 403
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_a_manifest_page_shows_only_the_user_s_citing_stories(stories, south, editor):
    north_story, south_story = stories.good(), south.good()
    manifest_id = north_story.cites.first().manifest_id
    # The south story cites the same manifest too.
    Cite.objects.filter(story=south_story).update(manifest_id=manifest_id)
    manifest = Manifest.objects.get(manifest_id=manifest_id)

    page = login(editor).get(reverse("admin:manifests_manifest_change", args=[manifest.pk])).content.decode()

    assert "Cited by stories of your newsrooms" in page
    assert north_story.headline in page
    assert south_story.headline not in page


def test_a_manifest_is_fetched_again_from_the_provider_from_its_page(provider, stories, editor):
    story = stories.good()
    manifest = Manifest.objects.get(manifest_id=story.cites.first().manifest_id)
    provider.add_manifest(manifest_payload(manifest.manifest_id, claims=["fresh-1", "fresh-2"], title="Refetched"))

    response = login(editor).post(reverse("admin:manifests_manifest_refetch", args=[manifest.pk]), follow=True)

    assert f"{manifest.manifest_id}: fetched" in response.content.decode()
    manifest.refresh_from_db()
    assert manifest.title == "Refetched"
    assert list(manifest.claims.values_list("claim_id", flat=True)) == ["fresh-1", "fresh-2"]
    assert provider.requests[0].path.endswith(manifest.manifest_id)


def test_manifests_are_fetched_again_as_a_list_action(provider, stories, editor):
    story = stories.good()
    manifest = Manifest.objects.get(manifest_id=story.cites.first().manifest_id)
    provider.add_manifest(manifest_payload(manifest.manifest_id, title="From the action"))

    response = login(editor).post(
        reverse("admin:manifests_manifest_changelist"),
        {"action": "refetch_selected", "_selected_action": [manifest.pk]},
        follow=True,
    )

    assert f"{manifest.manifest_id}: fetched" in response.content.decode()
    assert Manifest.objects.get(pk=manifest.pk).title == "From the action"
