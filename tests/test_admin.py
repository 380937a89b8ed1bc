"""Every model is in admin with a working list, search and change page; a story shows every part."""

import json

import pytest
from django.contrib import admin
from django.urls import reverse

from stories.models import Story
from tests.stories.helpers import run_command, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    assert run_command("load_demo").ok


def test_every_project_model_is_registered_in_admin():
    from django.apps import apps

    project_models = [
        model
        for app in ("newsroom", "manifests", "stories", "editions", "verification", "webhooks")
        for model in apps.get_app_config(app).get_models()
    ]
    missing = [model._meta.label for model in project_models if model not in admin.site._registry]
    # The repeat check's signatures and index rows, and the live versions' citation index, are
    # derived plumbing, not editors' data.
    plumbing = ("verification.StorySignature", "stories.LiveCitation")
    assert [label for label in missing if not label.startswith(plumbing)] == []


def test_every_list_page_search_and_change_page_answers(admin_client, demo):
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("newsroom", "manifests", "stories", "editions", "verification", "webhooks"):
            continue
        info = (model._meta.app_label, model._meta.model_name)
        listing = admin_client.get(reverse("admin:{}_{}_changelist".format(*info)))
        assert listing.status_code == 200, model
        if model_admin.search_fields:
            assert admin_client.get(reverse("admin:{}_{}_changelist".format(*info)), {"q": "agent"}).status_code == 200
        obj = model.objects.first()
        if obj is not None:
            page = admin_client.get(reverse("admin:{}_{}_change".format(*info), args=[obj.pk]))
            assert page.status_code == 200, model


def test_the_story_page_in_admin_shows_every_part(admin_client, demo):
    story = Story.objects.get(desk_id=81)
    page = admin_client.get(reverse("admin:stories_story_change", args=[story.pk])).content.decode()
    document = seed()
    for fact in document["key_facts"]:
        assert fact["text"][:60] in page
    for section in document["sections"]:
        assert section["heading"] in page
    for item in document["unresolved"] + document["decision_card"]["useful_for"]:
        assert item.replace("'", "&#x27;") in page
    for link in document["related"]:
        assert link["headline"] in page
    assert "1792067182956183080 [1792067413462310158, 1792067413482032593, 1792067413478197406]" in page


def test_a_section_page_in_admin_shows_its_paragraphs_and_their_cites(admin_client, demo):
    story = Story.objects.get(desk_id=81)
    section = story.sections.get(position=2)
    page = admin_client.get(reverse("admin:stories_section_change", args=[section.pk])).content.decode()
    assert "Programmatic tool calling instead has the model invoke tools" in page
    paragraph = section.paragraphs.get(position=1)
    page = admin_client.get(reverse("admin:stories_paragraph_change", args=[paragraph.pk])).content.decode()
    assert "1792066472590940172" in page


def test_editing_a_published_paragraph_in_admin_records_it_and_refreshes_the_page(
    admin_client, demo, django_capture_on_commit_callbacks
):
    story = Story.objects.get(desk_id=81)
    paragraph = story.sections.get(position=0).paragraphs.get(position=0)
    page_url = story.get_absolute_url()
    assert "most common failure mode" in admin_client.get(page_url).content.decode()
    revisions = story.revisions.count()
    cites = list(paragraph.cites.all())
    data = {
        "story": story.pk,
        "section": paragraph.section_id,
        "position": paragraph.position,
        "markdown": "An edited paragraph about enterprise deployment.",
        "cites-TOTAL_FORMS": len(cites),
        "cites-INITIAL_FORMS": len(cites),
        "cites-MIN_NUM_FORMS": 0,
        "cites-MAX_NUM_FORMS": 1000,
    }
    for index, cite in enumerate(cites):
        data |= {
            f"cites-{index}-id": cite.pk,
            f"cites-{index}-paragraph": paragraph.pk,
            f"cites-{index}-position": cite.position,
            f"cites-{index}-manifest_id": cite.manifest_id,
            f"cites-{index}-claim_ids": json.dumps(cite.claim_ids),
        }
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:stories_paragraph_change", args=[paragraph.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    story.refresh_from_db()
    assert story.revisions.count() == revisions + 1
    assert story.revisions.first().note == "edited in admin"
    assert "An edited paragraph about enterprise deployment." in admin_client.get(page_url).content.decode()
