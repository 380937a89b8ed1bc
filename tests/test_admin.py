"""Every model is in admin with a working list, search and change page; a story shows every part."""

import pytest
from django.contrib import admin
from django.urls import reverse

from stories.models import Story
from tests.publishing.forms import form_fields, submit_changed
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
    # A story's parts are edited on the story's own page, nested, never on pages of their own.
    parts = tuple(f"stories.{name}" for name in ("KeyFact", "Section", "Paragraph", "Cite", "Image", "ListItem"))
    parts += ("stories.RelatedLink",)
    assert sorted(label for label in missing if not label.startswith(plumbing)) == sorted(parts)


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
    page = admin_client.get(reverse("admin:stories_story_change", args=[story.pk]), {"mode": "rows"}).content.decode()
    document = seed()
    for fact in document["key_facts"]:
        assert fact["text"][:60] in page
    for section in document["sections"]:
        assert section["heading"] in page
    for item in document["unresolved"] + document["decision_card"]["useful_for"]:
        assert item.replace("'", "&#x27;") in page
    for link in document["related"]:
        assert link["headline"] in page
    fields = form_fields(page)
    assert fields["key_facts-0-cites-0-manifest_id"] == "1792067182956183080"
    assert fields["key_facts-0-cites-0-claim_ids"] == [
        "1792067413462310158",
        "1792067413482032593",
        "1792067413478197406",
    ]
    # Paragraphs and their cites are on the same page, nested in their sections.
    assert "Programmatic tool calling instead has the model invoke tools" in page
    cite = document["sections"][2]["paragraphs"][1]["cites"][0]
    assert fields["sections-2-paragraphs-1-cites-0-manifest_id"] == cite["manifest_id"]
    assert fields["sections-2-paragraphs-1-cites-0-claim_ids"] == cite["claim_ids"]


def test_editing_a_published_paragraph_in_admin_records_it_and_refreshes_the_page(
    admin_client, demo, django_capture_on_commit_callbacks
):
    story = Story.objects.get(desk_id=81)
    page_url = story.get_absolute_url()
    assert "most common failure mode" in admin_client.get(page_url).content.decode()
    revisions = story.revisions.count()
    url = reverse("admin:stories_story_change", args=[story.pk]) + "?mode=rows"

    with django_capture_on_commit_callbacks(execute=True):
        response = submit_changed(
            admin_client,
            url,
            "sections-0-paragraphs-0-markdown",
            lambda value: "An edited paragraph about enterprise deployment.",
        )

    assert response.status_code == 302, response.content.decode()[:2000]
    story.refresh_from_db()
    assert story.revisions.count() == revisions + 1
    assert story.revisions.first().note == "edited in admin"
    assert story.paragraphs.filter(markdown="An edited paragraph about enterprise deployment.").exists()
    # Readers keep the live version until a publish passes the gate.
    assert "most common failure mode" in admin_client.get(page_url).content.decode()
