"""Admin: runs are read-only records; the story page shows the latest checks."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from stories.models import Story
from verification.models import VerificationRun
from verification.services import story_verify

from .conftest import make_manifest, story_document

pytestmark = pytest.mark.django_db

M1 = "m-rockets"


@pytest.fixture
def story(import_story):
    make_manifest(M1, {"c1": "Acme launched 12 rockets in October."})
    return import_story(story_document(paragraphs=[("Acme launched 13 rockets in October.", [(M1, ["c1"])])]))


@pytest.fixture
def editor(admin_client):
    return admin_client


def test_the_run_list_shows_story_status_and_time(editor, story):
    run = story_verify(story=story, started_by="test")

    page = editor.get(reverse("admin:verification_verificationrun_changelist"))

    assert page.status_code == 200
    html = page.content.decode()
    assert "FAILED" in html
    assert story.headline in html
    assert reverse("admin:verification_verificationrun_change", args=[run.pk]) in html


def test_a_run_page_shows_each_problem_and_cannot_be_edited(editor, story):
    run = story_verify(story=story, started_by="test")

    page = editor.get(reverse("admin:verification_verificationrun_change", args=[run.pk]))

    assert page.status_code == 200
    html = page.content.decode()
    # In an editor's words, the desk/1 path kept as a tooltip.
    assert (
        '<span title="sections[0].paragraphs[0]">Section 1, paragraph 1</span>: '
        "&#x27;13&#x27; is in none of the cited claims"
    ) in html
    assert 'name="_save"' not in html
    assert editor.post(reverse("admin:verification_verificationrun_delete", args=[run.pk])).status_code == 403


def test_the_story_page_shows_the_latest_checks_and_marks_them_stale_after_an_edit(editor, story, import_story):
    url = reverse("admin:stories_story_change", args=[story.pk])
    assert "Never checked." in editor.get(url).content.decode()

    story_verify(story=story, started_by="test")
    html = editor.get(url).content.decode()
    assert "Latest checks" in html
    assert "FAILED" in html
    assert "&#x27;13&#x27; is in none of the cited claims" in html
    assert "STALE" not in html

    import_story(story_document(paragraphs=[("Acme launched 12 rockets in October.", [(M1, ["c1"])])]))
    assert "STALE" in editor.get(url).content.decode()


def test_an_override_is_shown_with_its_reason(editor, story, admin_user):
    from django.utils import timezone

    run = story_verify(story=story, started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(
        override_reason="The source confirmed 13 by phone.", overridden_by=admin_user, overridden_at=timezone.now()
    )

    html = editor.get(reverse("admin:stories_story_change", args=[story.pk])).content.decode()

    assert "The source confirmed 13 by phone." in html


def test_the_story_admin_keeps_everything_the_stories_room_defines():
    from stories.admin import StoryAdmin as StoriesStoryAdmin

    registered = admin.site.get_model_admin(Story)
    assert isinstance(registered, StoriesStoryAdmin)
    assert registered.inlines == StoriesStoryAdmin.inlines
    assert "verification" in registered.readonly_fields
