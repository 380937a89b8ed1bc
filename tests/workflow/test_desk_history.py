"""A story's history on the desk: every step leaves a revision, a readable diff between any two,
restore as a new revision through the import path, and no save lost to another editor's."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from newsroom.models import Role
from stories.models import Paragraph, Revision, Story
from stories.services import story_import_desk, story_record_change, story_restore_revision
from tests.publishing.forms import form_fields
from verification.gate import story_publish_unchecked

from .conftest import member

pytestmark = pytest.mark.usefixtures("eager")


def change_url(story: Story) -> str:
    return reverse("admin:stories_story_change", args=[story.pk])


def history_url(story: Story) -> str:
    return reverse("admin:stories_story_history", args=[story.pk])


def opened(client: Client, story: Story) -> dict:
    """The story's change form as the browser holds it once opened."""
    page = client.get(change_url(story))
    assert page.status_code == 200
    data = form_fields(page.content.decode())
    data["_save"] = "Save"
    return data


def rewrite(story: Story, *, headline: str, paragraph: str, stories) -> Story:
    """A second version of the story's content, through the import path."""
    document = stories.document(
        number=story.desk_id - 70_000,
        manifest_id=story.cites.first().manifest_id,
        claim_ids=story.cites.first().claim_ids,
        text=paragraph,
    )
    document["headline"] = headline
    return story_import_desk(document=document, as_draft=True, actor="writer-agent").story


def test_the_second_of_two_editors_saving_is_refused_and_nothing_is_overwritten(stories, django_user_model):
    story = stories.good()
    first, second = Client(), Client()
    first.force_login(member(django_user_model, "ada", Role.EDITOR))
    second.force_login(member(django_user_model, "bea", Role.EDITOR))
    ada_form, bea_form = opened(first, story), opened(second, story)
    assert ada_form["edit_version_seen"] == str(story.edit_version)
    revisions = Revision.objects.filter(story=story).count()

    ada_form["headline"] = "Ada's headline"
    assert first.post(change_url(story), ada_form).status_code == 302
    bea_form["headline"] = "Bea's headline"
    refused = second.post(change_url(story), bea_form)

    assert refused.status_code == 200
    page = refused.content.decode()
    assert "was changed by someone else after you opened it" in page
    assert f'href="{change_url(story)}"' in page  # the link to the newer version
    assert "see what changed since your version" in page
    assert "Bea&#x27;s headline" in page  # her text is still on the page
    stored = Story.objects.get(pk=story.pk)
    assert stored.headline == "Ada's headline"
    assert stored.edit_version == story.edit_version + 1
    assert Revision.objects.filter(story=story).count() == revisions + 1

    # Opened again, her form carries the new version, and her save goes through.
    bea_again = opened(second, story)
    bea_again["headline"] = "Bea's headline"
    assert second.post(change_url(story), bea_again).status_code == 302
    assert Story.objects.get(pk=story.pk).headline == "Bea's headline"


def test_a_form_without_its_edit_version_is_refused(stories, editor, client):
    story = stories.good()
    client.force_login(editor)
    data = opened(client, story)
    data.pop("edit_version_seen")
    data["headline"] = "Changed blind"

    refused = client.post(change_url(story), data)

    assert refused.status_code == 200
    assert "does not say which version of the story it was opened at" in refused.content.decode()
    assert Story.objects.get(pk=story.pk).headline != "Changed blind"


def test_the_history_page_lists_who_when_and_why_in_the_editor_s_time_zone(stories, editor, client):
    story = stories.good()
    rewrite(story, headline="Second headline", paragraph=story.paragraphs.first().markdown, stories=stories)
    client.force_login(editor)
    client.cookies["desk_tz"] = "Europe/Paris"

    page = client.get(history_url(story)).content.decode()

    assert "created as a draft by import" in page
    assert "updated as a draft by import" in page
    assert "writer-agent" in page
    assert ">test<" in page
    assert "(Europe/Paris)" in page
    assert "CET" in page


def test_every_admin_page_names_the_time_zone_its_times_are_in(stories, editor, client):
    story = stories.good()
    client.force_login(editor)
    change = reverse("admin:stories_story_change", args=[story.pk])

    assert "Times in UTC" in client.get(change).content.decode()
    client.cookies["desk_tz"] = "Europe/Paris"
    page = client.get(change).content.decode()
    assert "Times in Europe/Paris" in page
    assert reverse("admin:stories_story_time_zone") in page


def test_the_diff_between_two_revisions_is_readable_and_escaped(stories, editor, client):
    story = stories.good()
    old_text = story.paragraphs.first().markdown
    rewrite(story, headline="<b>Bold</b> claim", paragraph=old_text + " Now longer.", stories=stories)
    older, newer = Revision.objects.filter(story=story).order_by("pk")
    client.force_login(editor)

    page = client.get(
        reverse("admin:stories_story_revision_diff", args=[story.pk]), {"a": older.pk, "b": newer.pk}
    ).content.decode()

    assert "&lt;b&gt;Bold&lt;/b&gt; claim" in page
    assert "<b>Bold</b>" not in page
    assert f"Paragraph 1.1: {old_text} Now longer." in page
    assert 'class="desk-diff-removed"' in page
    assert 'class="desk-diff-added"' in page
    # Against the working copy, the newest revision holds nothing new.
    same = client.get(reverse("admin:stories_story_revision_diff", args=[story.pk]), {"a": newer.pk, "b": "working"})
    assert "Nothing written differs" in same.content.decode()


def test_a_diff_of_another_story_s_revision_is_not_found(stories, editor, client):
    story, other = stories.good(), stories.good()
    client.force_login(editor)
    foreign = Revision.objects.filter(story=other).first()

    response = client.get(reverse("admin:stories_story_revision_diff", args=[story.pk]), {"a": foreign.pk})

    assert response.status_code == 404


def test_restoring_a_revision_makes_it_the_working_copy_as_a_new_revision(stories, editor, client):
    story = stories.good()
    first_text = story.paragraphs.first().markdown
    first = Revision.objects.filter(story=story).get()
    story = rewrite(story, headline="Second headline", paragraph=first_text + " Changed.", stories=stories)
    version_before = Story.objects.get(pk=story.pk).edit_version
    client.force_login(editor)
    restore_url = reverse("admin:stories_story_revision_restore", args=[story.pk, first.pk])
    # The history's Restore leads to what it would change, and asks; nothing is restored yet.
    assert f'href="{restore_url}"' in client.get(history_url(story)).content.decode()
    asked = client.get(restore_url)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Restore the revision of" in page
    assert "Second headline" in page  # leaving the working copy
    assert first.document["headline"] in page  # coming back
    assert 'value="Restore this revision"' in page
    assert Story.objects.get(pk=story.pk).headline == "Second headline"
    assert Revision.objects.filter(story=story).count() == 2

    response = client.post(restore_url, follow=True)

    assert "Restored the revision of" in response.content.decode()
    restored = Story.objects.get(pk=story.pk)
    assert restored.headline == first.document["headline"]
    assert Paragraph.objects.get(story=story).markdown == first_text
    assert restored.edit_version == version_before + 1
    latest = Revision.objects.filter(story=story).order_by("-pk").first()
    assert latest.actor == "editor"
    assert latest.note.startswith("restored the revision of")
    assert latest.document["headline"] == first.document["headline"]
    assert Revision.objects.filter(story=story).count() == 3


def test_restoring_the_content_the_working_copy_has_says_so_and_offers_no_button(stories, editor, client):
    story = stories.good()
    only = Revision.objects.filter(story=story).get()
    client.force_login(editor)

    page = client.get(reverse("admin:stories_story_revision_restore", args=[story.pk, only.pk])).content.decode()

    assert "restoring it would change nothing written" in page
    assert "Restore this revision" not in page


def test_restoring_keeps_a_draft_s_typed_dateline(stories, editor):
    story = stories.good()
    first = Revision.objects.filter(story=story).get()
    rewrite(story, headline="Second headline", paragraph="Another text.", stories=stories)
    typed = story.dateline.replace(day=1)
    Story.objects.filter(pk=story.pk).update(dateline=typed)

    story_restore_revision(revision=first, user=editor)

    assert Story.objects.get(pk=story.pk).dateline == typed


def test_restoring_a_live_story_s_old_slug_is_refused_with_a_message(stories, chief, client):
    story = stories.good()
    old_slug = Revision.objects.filter(story=story).get()
    document = stories.document(
        number=story.desk_id - 70_000,
        manifest_id=story.cites.first().manifest_id,
        claim_ids=story.cites.first().claim_ids,
        text=story.paragraphs.first().markdown,
    )
    document["slug"] = "a-new-slug"
    story_import_desk(document=document, as_draft=True, actor="writer-agent")
    story_record_change(story=story, actor="test")
    story_publish_unchecked(story=story, actor="test", reason="test fixture")
    revisions = Revision.objects.filter(story=story).count()
    client.force_login(chief)

    response = client.post(reverse("admin:stories_story_revision_restore", args=[story.pk, old_slug.pk]), follow=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was restored: slug:" in page
    assert "slug is fixed" in page
    assert Story.objects.get(pk=story.pk).slug == "a-new-slug"
    assert Revision.objects.filter(story=story).count() == revisions


def test_every_workflow_step_leaves_a_revision_with_who_and_why(stories, chief, django_capture_on_commit_callbacks):
    from stories.services import story_add_correction, story_retract
    from verification.workflow import story_publish, story_submit

    story = stories.good()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="chief", user=chief)
    story_publish(story=Story.objects.get(pk=story.pk), actor="chief", user=chief)
    story_add_correction(story=story, text="A figure was wrong.", user=chief)
    story_retract(story=story, user=chief, reason="The source withdrew it.")

    notes = list(Revision.objects.filter(story=story).order_by("pk").values_list("actor", "note"))
    assert [note.split(" ")[0].rstrip(":") for _, note in notes] == [
        "created",
        "submitted",
        "published",
        "correction",
        "retracted",
    ]
    assert {actor for actor, _ in notes[1:]} == {"chief"}
    assert notes[-1][1] == "retracted: The source withdrew it."
    assert all(revision.document["headline"] == story.headline for revision in Revision.objects.filter(story=story))


@pytest.mark.postgres
def test_two_saves_at_once_on_one_version_let_exactly_one_through(
    transactional_db, require_postgres, stories, django_user_model
):
    from .test_concurrency import at_once

    story = stories.good()
    clients = []
    for name in ("ada", "bea", "cy"):
        client = Client()
        client.force_login(member(django_user_model, name, Role.EDITOR))
        form = opened(client, story)
        form["headline"] = f"{name}'s headline"
        clients.append((client, form))

    results = at_once([lambda c=c, f=f: c.post(change_url(story), f).status_code for c, f in clients])

    assert sorted(results) == [200, 200, 302]
    stored = Story.objects.get(pk=story.pk)
    assert stored.edit_version == story.edit_version + 1
    assert stored.headline == f"{['ada', 'bea', 'cy'][results.index(302)]}'s headline"


def test_an_editor_s_reason_for_a_save_is_kept_in_the_revision(stories, editor, client):
    story = stories.good()
    client.force_login(editor)
    data = opened(client, story)
    data["headline"] = "A corrected headline"
    data["change_note"] = "The figure in the headline was wrong"

    assert client.post(change_url(story), data).status_code == 302

    latest = Revision.objects.filter(story=story).order_by("-pk").first()
    assert latest.actor == "editor"
    assert latest.note == "edited in admin: The figure in the headline was wrong"
    assert latest.document["headline"] == "A corrected headline"
