"""The promise holds on every path: a change to a published story's working copy, wherever it
comes from, shows readers nothing until a publish passes the gate; then they get it everywhere.

The demo site is loaded as `make run` loads it (both seeds checked and published). Each write
path marks the story with a word no page holds, and every public route is read with the page
cache emptied, so what readers get is what the database serves.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.core.cache import cache
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from stories import desk
from stories.models import (
    Cite,
    Correction,
    Image,
    KeyFact,
    ListItem,
    Paragraph,
    PublishedVersion,
    RelatedLink,
    Revision,
    Section,
    Story,
)
from stories.services import story_add_correction, story_import_desk, story_record_change, story_retract
from tests.api.conftest import first_parts_only
from tests.site.routes import PUBLIC_ROUTES, TRAINING
from verification.gate import PublishRefused, story_publish
from verification.models import VerificationRun
from verification.workflow import story_submit

from .forms import submit_changed

pytestmark = pytest.mark.django_db
MARK = "Quokkamark"


def readers_see(client: Any, word: str = MARK) -> list[str]:
    """The public routes whose answer holds ``word``, read anew (the page cache emptied)."""
    cache.clear()
    return [route for route in PUBLIC_ROUTES if word in client.get(route).content.decode()]


def training(demo: dict[str, Story]) -> Story:
    return Story.objects.get(pk=demo["agent-training-stack"].pk)


def marked(text: str) -> str:
    return f"{text} {MARK}"


def export(story: Story) -> dict[str, Any]:
    return desk.export_story(Story.objects.with_parts().get(pk=story.pk))


def _admin_url(obj: Any) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def _rows_url(story: Story) -> str:
    """The story page with its key facts and sections as rows, not as one text."""
    return f"{_admin_url(story)}?mode=rows"


def first(model: type, story: Story, **filters: Any) -> Any:
    return model.objects.filter(story=story, **filters).order_by("pk").first()


def other_claims(value: list[str]) -> list[str]:
    """A different choice of the same manifest's claims: one fewer, or the order reversed."""
    return value[:-1] if len(value) > 1 else value[::-1]


# Every admin form that edits a story's working copy: the story form and each inline on its page,
# nested ones included (story parts have no pages of their own). (url, field, how to change it)
ADMIN_EDITS: dict[str, Callable[[Story], tuple[str, str, Callable[[Any], Any]]]] = {
    "story form": lambda story: (_admin_url(story), "headline", marked),
    "one text of key facts and sections": lambda story: (
        _admin_url(story),
        "body",
        lambda text: text.replace("## ", f"## {MARK} ", 1),
    ),
    "key fact inline": lambda story: (_rows_url(story), "key_facts-0-text", marked),
    "section inline": lambda story: (_rows_url(story), "sections-0-heading", marked),
    "paragraph inline in its section": lambda story: (_rows_url(story), "sections-0-paragraphs-0-markdown", marked),
    "cite inline of a paragraph": lambda story: (
        _rows_url(story),
        "sections-0-paragraphs-0-cites-0-claim_ids",
        other_claims,
    ),
    "cite inline of a key fact": lambda story: (_rows_url(story), "key_facts-0-cites-0-claim_ids", other_claims),
    "unresolved question inline": lambda story: (_admin_url(story), "list_items-0-text", marked),
    "decision card inline": lambda story: (_admin_url(story), "list_items-2-0-text", marked),
    "related link inline": lambda story: (_admin_url(story), "related_links-0-headline", marked),
}


@pytest.mark.parametrize("path", ADMIN_EDITS)
def test_an_admin_edit_of_a_published_story_reaches_no_reader_and_is_recorded(admin_client, client, demo, path):
    story = training(demo)
    live_before = PublishedVersion.objects.get(pk=story.pk).document
    revisions = story.revisions.count()
    url, field, change = ADMIN_EDITS[path](story)

    response = submit_changed(admin_client, url, field, change)

    assert response.status_code == 302, response.content.decode()[:2000]
    if "claim_ids" not in field:
        assert MARK in json.dumps(export(story))  # the working copy has it
    after = Story.objects.get(pk=story.pk)
    assert after.content_hash != story.content_hash
    assert after.revisions.count() == revisions + 1
    assert after.has_unpublished_changes
    assert readers_see(client) == []
    assert PublishedVersion.objects.get(pk=story.pk).document == live_before


def test_an_image_added_through_the_story_form_reaches_no_reader(admin_client, client, demo):
    story = training(demo)
    url = _admin_url(story)

    def add_image(data: dict[str, Any]) -> None:
        data.update(
            {
                "images-TOTAL_FORMS": "1",
                "images-0-position": "0",
                "images-0-url": f"https://example.org/{MARK}.png",
                "images-0-alt": MARK,
                "images-0-caption": "",
                "images-0-credit": "",
            }
        )

    response = submit_changed(admin_client, url, "headline", lambda value: value, extra=add_image)

    assert response.status_code == 302
    assert Image.objects.filter(story=story).count() == 1
    assert Story.objects.get(pk=story.pk).content_hash != story.content_hash
    assert readers_see(client) == []


def test_a_reimport_through_the_service_changes_the_working_copy_only(client, demo):
    story = training(demo)
    document = export(story)
    document["headline"] = marked(document["headline"])

    story_import_desk(document=document)

    assert Story.objects.get(pk=story.pk).headline.endswith(MARK)
    assert readers_see(client) == []


def test_a_reimport_through_the_command_waits_for_its_checks_before_readers_get_it(
    client, demo, django_capture_on_commit_callbacks, tmp_path
):
    story = training(demo)
    document = export(story)
    document["headline"] = marked(document["headline"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    out = io.StringIO()

    call_command("import_desk", str(path), stdout=out, stderr=io.StringIO())

    assert readers_see(client) == []  # submitted; its checks run once the import commits
    assert out.getvalue().splitlines()[0] == f"{story.desk_id}\tagent-training-stack\tupdated\tsubmitted"
    # The worker runs the checks; they pass, and the newsroom publishes automatically.
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="import_desk")
    seen = readers_see(client)
    assert TRAINING in seen
    assert TRAINING + "index.json" in seen
    assert TRAINING + "index.md" in seen
    assert {"/", "/rss.xml", "/n/artificial-intelligence/", "/search/?q=agent"} <= set(seen)


def test_a_publish_of_failed_content_is_refused_and_an_override_then_publishes_it(
    admin_client, admin_user, client, demo, django_capture_on_commit_callbacks
):
    story = training(demo)
    url, field, _ = ADMIN_EDITS["paragraph inline in its section"](story)
    unsupported = f"{MARK} users rose 97.3% in a year."
    assert submit_changed(admin_client, url, field, lambda value: f"{value} {unsupported}").status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        run = story_submit(story=story, actor="editor")
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.FAILED
    supported = run.check_result("paragraphs_supported")
    assert any("'97.3%' is in none of the cited claims" in problem["message"] for problem in supported["problems"])

    with pytest.raises(PublishRefused, match="did not pass"):
        story_publish(story=story, actor="editor", user=admin_user)
    assert readers_see(client) == []

    with django_capture_on_commit_callbacks(execute=True):
        result = story_publish(story=story, actor="chief", user=admin_user, override_reason="Checked by hand.")
    assert result.published
    assert result.overridden
    assert TRAINING in readers_see(client)
    version = PublishedVersion.objects.get(pk=story.pk)
    assert version.gate.startswith("overridden by chief")
    assert version.gate.endswith("Checked by hand.")


def test_a_publish_of_unchecked_content_is_refused(admin_user, client, demo):
    story = training(demo)
    document = export(story)
    document["dek"] = marked(document["dek"])
    story_import_desk(document=document)  # the working copy changed; nothing checked it

    with pytest.raises(PublishRefused, match="edited after its last check"):
        story_publish(story=story, actor="chief", user=admin_user)
    assert readers_see(client) == []


def test_a_correction_appears_everywhere_at_once(admin_user, client, demo, django_capture_on_commit_callbacks):
    story = training(demo)
    # An unpublished edit is waiting in the working copy: the correction must not carry it out.
    document = export(story)
    document["dek"] = marked(document["dek"])
    story_import_desk(document=document)

    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=story, text="Zanzibarcorrect: a figure was misread.", user=admin_user)

    seen = readers_see(client, "Zanzibarcorrect")
    assert {TRAINING, TRAINING + "index.json", TRAINING + "index.md"} <= set(seen)
    page = client.get(TRAINING).content.decode()
    assert '"CorrectionComment"' in page  # in the JSON-LD too
    assert readers_see(client) == []  # and the waiting edit is still not out
    twin = json.loads(client.get(TRAINING + "index.json").content)
    assert twin["corrections"][-1]["text"] == "Zanzibarcorrect: a figure was misread."
    assert Correction.objects.filter(story=story).count() == 1  # the working copy has it too
    assert Revision.objects.filter(story=story, note="correction added").exists()


def test_a_retraction_withdraws_the_page_and_twins_at_once(
    admin_user, client, demo, django_capture_on_commit_callbacks
):
    story = training(demo)
    headline = story.headline

    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=story, user=admin_user, reason="The sources withdrew their reports.")

    cache.clear()
    for path in (TRAINING, TRAINING + "index.json", TRAINING + "index.md"):
        assert client.get(path).status_code == 410
    assert readers_see(client, headline) == []
    assert Revision.objects.filter(story=story, note="retracted: The sources withdrew their reports.").exists()


# --- Import goes through the gate ---------------------------------------------------------------


def seed_copy(demo: dict[str, Story], **changes: Any) -> dict[str, Any]:
    document = export(training(demo))
    for key in ("url", "links", "reuse"):
        document.pop(key)
    document.update(changes)
    return document


def test_an_import_citing_unknown_manifests_is_not_published_and_its_run_says_why(
    client, demo, django_capture_on_commit_callbacks, tmp_path
):
    # A whole copy of the seed would be refused as a repeat of it, whatever its sources.
    document = first_parts_only(seed_copy(demo, id="9100", slug="unknown-sources", headline=f"Unknown sources {MARK}"))
    for section in document["sections"]:
        for paragraph in section["paragraphs"]:
            for cite in paragraph["cites"]:
                cite["manifest_id"] = "999999999999999999"
    for fact in document["key_facts"]:
        for cite in fact["cites"]:
            cite["manifest_id"] = "999999999999999999"
    document["cited_manifest_ids"] = ["999999999999999999"]
    for key in ("source_count", "publishers", "manifests", "run_these_manifests", "labels"):
        document.pop(key)
    document["labels"] = {"trust": "reported"}
    path = tmp_path / "unknown.json"
    path.write_text(json.dumps(document))
    err = io.StringIO()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_desk", str(path), stdout=io.StringIO(), stderr=err)

    story = Story.objects.get(desk_id=9100)
    assert not PublishedVersion.objects.filter(pk=story.pk).exists()
    run = VerificationRun.objects.latest_for(story)
    exist = run.check_result("manifests_exist")
    # No provider is configured, so the checks cannot decide: the story waits, submitted, for them
    # to run again.
    assert run.status == VerificationRun.Status.UNKNOWN
    assert story.status == Story.Status.SUBMITTED
    assert exist["status"] == "unknown"
    assert any("999999999999999999" in problem["message"] for problem in exist["problems"])
    assert readers_see(client) == []


def test_a_reimport_of_a_live_story_under_another_slug_is_refused(client, demo, tmp_path):
    story = training(demo)
    document = seed_copy(demo, slug="agent-training-stack-moved", headline=marked(story.headline))
    path = tmp_path / "moved.json"
    path.write_text(json.dumps(document))
    err = io.StringIO()

    with _command_error():
        call_command("import_desk", str(path), stdout=io.StringIO(), stderr=err)

    assert "slug: story 81 is published at /stories/2026-10-16/agent-training-stack/" in err.getvalue()
    assert Story.objects.get(pk=story.pk).slug == "agent-training-stack"
    assert Story.objects.get(pk=story.pk).headline == story.headline  # nothing written
    assert readers_see(client) == []


def test_a_reimport_of_a_published_story_as_it_is_writes_nothing(demo, tmp_path):
    # As when an interrupted import of an archive is run again: the stories it published stay.
    story = training(demo)
    path = tmp_path / "same.json"
    path.write_text(json.dumps(export(story)))
    version = PublishedVersion.objects.get(pk=story.pk)
    revisions = Revision.objects.filter(story=story).count()
    out = io.StringIO()

    call_command("import_desk", str(path), stdout=out, stderr=io.StringIO())

    assert out.getvalue().splitlines() == [
        f"{story.desk_id}\tagent-training-stack\tunchanged\tpublished",
        "1 imported (0 created, 0 updated, 1 unchanged), 0 failed",
    ]
    assert Revision.objects.filter(story=story).count() == revisions
    again = PublishedVersion.objects.get(pk=story.pk)
    assert (again.rendered_at, again.modified_at, again.gate) == (
        version.rendered_at,
        version.modified_at,
        version.gate,
    )
    # One edit and it is an update again, waiting for its checks.
    document = export(story)
    document["headline"] = marked(document["headline"])
    path.write_text(json.dumps(document))
    call_command("import_desk", str(path), stdout=out, stderr=io.StringIO())
    assert out.getvalue().splitlines()[2] == f"{story.desk_id}\tagent-training-stack\tupdated\tsubmitted"


def test_an_unchecked_import_is_published_and_its_reason_recorded(client, demo, tmp_path):
    document = seed_copy(demo, id="9200", slug="archived-story", headline=f"Archived {MARK}")
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(document))

    call_command("import_desk", str(path), "--unchecked", "--reason", "Archive migration of 2025", stdout=io.StringIO())

    version = PublishedVersion.objects.get(desk_id=9200)
    assert version.gate == "published without checks by import_desk: Archive migration of 2025"
    assert Revision.objects.filter(story_id=version.pk, note="published without checks: Archive migration of 2025")
    assert {"/", "/n/artificial-intelligence/"} <= set(readers_see(client))
    assert MARK in client.get("/stories/2026-10-16/archived-story/").content.decode()


def test_unchecked_needs_a_reason(tmp_path):
    with _command_error() as error:
        call_command("import_desk", str(tmp_path), "--unchecked", stdout=io.StringIO(), stderr=io.StringIO())
    assert "--unchecked needs --reason" in str(error.value)


def _command_error() -> Any:
    from django.core.management import CommandError

    return pytest.raises(CommandError)


# --- Every model in admin: a change is refused, or it is recorded -------------------------------

STORY_CONTENT_MODELS = (Story, KeyFact, Section, Paragraph, Cite, Image, ListItem, RelatedLink, Correction)
# Story parts are edited on the story's page only (``ADMIN_EDITS`` covers each of their inlines).
STORY_PARTS = (KeyFact, Section, Paragraph, Cite, Image, ListItem, RelatedLink)


def test_every_model_in_admin_either_refuses_a_change_or_records_it(admin_client, admin_user, demo):
    """Walks every registered model. A model holding a story's content is changed through its
    own admin page: the change is refused, or it records a revision and a new content hash.
    Every other model holds nothing a story's checked content is made of."""
    story = training(demo)
    Image.objects.create(story=story, position=0, url="https://example.org/a.png", alt="An image")
    story_record_change(story=story, actor="test")
    story_add_correction(story=story, text="A figure was misread.", user=admin_user)
    request = RequestFactory().get("/")
    request.user = admin_user
    walked = []
    for model, model_admin in admin.site._registry.items():
        if model not in STORY_CONTENT_MODELS:
            relations = [field for field in model._meta.get_fields() if getattr(field, "related_model", None) is Story]
            editable = [field for field in relations if getattr(field, "editable", False) and field.concrete]
            if editable:
                # It points at a story: its admin must refuse changes (runs, revisions, versions).
                assert not model_admin.has_change_permission(request), model
            continue
        obj = story if model is Story else model.objects.filter(story=story).order_by("pk").first()
        if obj is None:
            continue
        before = Story.objects.get(pk=story.pk)
        revisions = before.revisions.count()
        field = {
            Story: "headline",
            KeyFact: "text",
            Section: "heading",
            Paragraph: "markdown",
            Cite: "manifest_id",
            Image: "alt",
            ListItem: "text",
            RelatedLink: "headline",
            Correction: "text",
        }[model]
        url = _admin_url(obj)
        page = admin_client.get(url)
        assert page.status_code == 200, model
        if f'name="{field}"' not in page.content.decode():
            assert not model_admin.has_change_permission(request, obj), model
            walked.append((model, "refused: read-only"))
            continue
        response = submit_changed(admin_client, url, field, lambda value, model=model: f"{value} walk {model.__name__}")
        assert response.status_code == 302, (model, response.content.decode()[:1500])
        after = Story.objects.get(pk=story.pk)
        assert after.revisions.count() == revisions + 1, model
        assert after.content_hash != before.content_hash, model
        walked.append((model, "recorded"))
    assert not set(STORY_PARTS) & set(admin.site._registry)
    assert {model for model, _ in walked} == set(STORY_CONTENT_MODELS) - set(STORY_PARTS)
    assert dict(walked)[Correction] == "refused: read-only"


def test_rows_changed_without_a_recorded_change_are_never_frozen(admin_user, client, demo):
    """The gate decides on the content hash; a row written behind the services' back (a shell, a
    migration) must not ride along under a hash that passed."""
    story = training(demo)
    document = export(story)
    document["dek"] = marked(document["dek"])
    story_import_desk(document=document)  # a recorded edit, then its checks would pass...
    run = VerificationRun.objects.create(
        story=story,
        content_hash=Story.objects.get(pk=story.pk).content_hash,
        status=VerificationRun.Status.PASSED,
        started_by="test",
    )
    Paragraph.objects.filter(story=story).update(markdown=f"Written behind the services' back. {MARK}")

    with pytest.raises(PublishRefused, match="changed since its content was last recorded"):
        story_publish(story=story, actor="chief", user=admin_user)

    assert run.content_hash != PublishedVersion.objects.get(pk=story.pk).content_hash
    assert readers_see(client) == []
