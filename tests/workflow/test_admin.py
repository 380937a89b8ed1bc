"""The workflow in admin: every button goes through the same services, the gate included."""

from __future__ import annotations

import pytest
from django.urls import reverse

from stories.models import Correction, Story
from verification.gate import story_publish, story_publish_unchecked
from verification.models import VerificationRun
from verification.workflow import story_submit

pytestmark = pytest.mark.usefixtures("eager")


def step_url(step: str, story: Story) -> str:
    return reverse(f"admin:stories_story_{step}", args=[story.pk])


def change_url(story: Story) -> str:
    return reverse("admin:stories_story_change", args=[story.pk])


def checked(story: Story, capture) -> VerificationRun:
    with capture(execute=True):
        return story_submit(story=story, actor="writer-agent")


def test_the_story_page_offers_an_editor_submit_and_a_chief_publish_too(client, stories, editor, chief):
    story = stories.good()
    client.force_login(editor)

    page = client.get(change_url(story)).content.decode()

    assert step_url("submit", story) in page
    # Publishing is a chief's: no button that could only refuse the editor.
    assert step_url("publish", story) not in page
    assert step_url("retract", story) not in page
    client.force_login(chief)
    page = client.get(change_url(story)).content.decode()
    assert step_url("submit", story) in page
    assert step_url("publish", story) in page
    assert step_url("retract", story) not in page  # not published yet


def test_status_and_publication_time_cannot_be_edited_in_the_form(client, stories, editor):
    story = stories.good()
    client.force_login(editor)

    form = client.get(change_url(story)).context["adminform"].form

    assert "status" not in form.fields
    assert "published_at" not in form.fields


def test_the_submit_button_queues_the_checks(client, stories, editor, django_capture_on_commit_callbacks):
    story = stories.good()
    client.force_login(editor)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(step_url("submit", story), follow=True)

    run = VerificationRun.objects.get(story=story)
    assert run.status == VerificationRun.Status.PASSED
    assert run.started_by == "editor"
    assert run.started_by_user == editor
    assert f"Submitted for checks (run {run.pk}" in response.content.decode()
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_the_publish_button_publishes_a_story_that_passed(client, stories, chief, django_capture_on_commit_callbacks):
    story = stories.good()
    run = checked(story, django_capture_on_commit_callbacks)
    client.force_login(chief)

    response = client.post(step_url("publish", story), follow=True)

    assert f"Published: run {run.pk} passed every check." in response.content.decode()
    assert Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED


@pytest.mark.parametrize("make", ["good", "bad"])
def test_an_editor_may_not_publish_and_gets_no_override_form(
    client, stories, editor, django_capture_on_commit_callbacks, make
):
    story = getattr(stories, make)()
    checked(story, django_capture_on_commit_callbacks)
    client.force_login(editor)

    response = client.post(step_url("publish", story), follow=True)

    page = response.content.decode()
    assert "Publishing a story needs the chief role in the story&#x27;s newsroom" in page
    assert 'name="reason"' not in page
    assert Story.objects.get(pk=story.pk).status != Story.Status.PUBLISHED


def test_an_editor_with_the_permission_is_asked_for_a_reason_then_publishes(
    client, stories, chief, django_capture_on_commit_callbacks
):
    story = stories.bad()
    run = checked(story, django_capture_on_commit_callbacks)
    client.force_login(chief)

    asked = client.post(step_url("publish", story))

    assert asked.status_code == 200
    page = asked.content.decode()
    assert 'name="reason"' in page
    assert "not-a-claim" in page  # the problems are shown before the editor decides
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED

    blank = client.post(step_url("publish", story), {"reason": "  "})
    assert blank.status_code == 200
    assert "This field is required." in blank.content.decode()
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED

    done = client.post(step_url("publish", story), {"reason": "The filing shows it; the provider lags."}, follow=True)

    assert "Published, overriding the checks" in done.content.decode()
    run.refresh_from_db()
    assert run.override_reason == "The filing shows it; the provider lags."
    assert run.overridden_by == chief
    assert Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED
    # The override and its reason are on the story page for every editor to see.
    story_page = client.get(change_url(story)).content.decode()
    assert "The filing shows it; the provider lags." in story_page


def test_retract_asks_for_a_reason_then_retracts(client, stories, chief, django_capture_on_commit_callbacks):
    story = stories.good()
    checked(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    client.force_login(chief)

    form_page = client.get(step_url("retract", story))
    assert 'name="reason"' in form_page.content.decode()

    client.post(step_url("retract", story), {"reason": "The source retracted its report."})

    assert Story.objects.get(pk=story.pk).status == Story.Status.RETRACTED


def test_a_correction_is_added_from_its_form_and_cannot_be_edited_inline(
    client, stories, chief, django_capture_on_commit_callbacks
):
    story = stories.good()
    checked(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    client.force_login(chief)

    client.post(step_url("correct", story), {"text": "The survey covered 12 towns, not 14."})

    assert list(Correction.objects.filter(story=story).values_list("text", flat=True)) == [
        "The survey covered 12 towns, not 14."
    ]
    page = client.get(change_url(story))
    corrections = next(formset for formset in page.context["inline_admin_formsets"] if formset.opts.model is Correction)
    assert not corrections.has_add_permission
    assert not corrections.has_change_permission
    assert not corrections.has_delete_permission


def test_the_steps_need_the_permission_to_change_stories(client, stories, django_user_model):
    story = stories.good()
    viewer = django_user_model.objects.create_user(username="viewer", password="pw", is_staff=True)
    client.force_login(viewer)

    response = client.post(step_url("submit", story))

    assert response.status_code == 403
    assert not VerificationRun.objects.filter(story=story).exists()


def test_the_list_shows_each_story_s_checks_and_staleness(client, stories, editor, django_capture_on_commit_callbacks):
    from stories.models import Paragraph
    from stories.services import story_record_change

    fresh, edited = stories.good(), stories.good()
    checked(fresh, django_capture_on_commit_callbacks)
    checked(edited, django_capture_on_commit_callbacks)
    paragraph = Paragraph.objects.get(story=edited)
    paragraph.markdown += " More."
    paragraph.save()
    story_record_change(story=edited, actor="editor")
    client.force_login(editor)

    page = client.get(reverse("admin:stories_story_changelist")).content.decode()

    assert "passed (stale: edited since)" in page
    assert page.count("passed") >= 2


def test_bulk_publish_publishes_what_passed_and_names_what_did_not(
    client, stories, chief, django_capture_on_commit_callbacks
):
    good, bad = stories.good(), stories.bad()
    checked(good, django_capture_on_commit_callbacks)
    checked(bad, django_capture_on_commit_callbacks)
    client.force_login(chief)

    response = client.post(
        reverse("admin:stories_story_changelist"),
        {"action": "publish_selected", "_selected_action": [good.pk, bad.pk]},
        follow=True,
    )

    page = response.content.decode()
    assert "1 story published." in page
    assert f"{bad.desk_id}: Story {bad.desk_id} cannot be published" in page
    assert Story.objects.get(pk=good.pk).status == Story.Status.PUBLISHED
    assert Story.objects.get(pk=bad.pk).status == Story.Status.FAILED


def published(story: Story) -> Story:
    story_publish_unchecked(story=story, actor="test", reason="test fixture")
    return Story.objects.get(pk=story.pk)


def test_bulk_retract_asks_one_reason_then_retracts_each(client, stories, chief):
    first, second = published(stories.good()), published(stories.good())
    client.force_login(chief)
    chosen = {"action": "retract_selected", "_selected_action": [first.pk, second.pk]}

    asked = client.post(reverse("admin:stories_story_changelist"), chosen)

    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Retract the selected stories" in page
    assert first.headline in page
    assert second.headline in page
    assert Story.objects.filter(status=Story.Status.RETRACTED).count() == 0
    # Without a reason it asks again, and still retracts nothing.
    again = client.post(reverse("admin:stories_story_changelist"), {**chosen, "apply": "yes", "reason": " "})
    assert "This field is required." in again.content.decode()
    assert Story.objects.filter(status=Story.Status.RETRACTED).count() == 0

    done = client.post(
        reverse("admin:stories_story_changelist"),
        {**chosen, "apply": "yes", "reason": "The survey was withdrawn by its authors."},
        follow=True,
    )

    assert "2 stories retracted." in done.content.decode()
    for story in (first, second):
        story = Story.objects.select_related("live_version").get(pk=story.pk)
        assert story.status == Story.Status.RETRACTED
        assert story.live_version.withdrawn_reason == "The survey was withdrawn by its authors."


def test_bulk_schedule_gives_each_story_the_time_and_says_which_wait_on_their_checks(
    client, stories, chief, django_capture_on_commit_callbacks
):
    verified, draft = stories.good(), stories.good()
    checked(verified, django_capture_on_commit_callbacks)
    client.force_login(chief)

    response = client.post(
        reverse("admin:stories_story_changelist"),
        {
            "action": "schedule_selected",
            "_selected_action": [verified.pk, draft.pk],
            "apply": "yes",
            "publish_at": "2031-05-04T09:30",
        },
        follow=True,
    )

    page = response.content.decode()
    assert "2 stories scheduled." in page
    assert "1 of them is not verified yet: each publishes then only if its checks pass." in page
    times = set(Story.objects.filter(pk__in=[verified.pk, draft.pk]).values_list("publish_at", flat=True))
    assert len(times) == 1
    assert times.pop().year == 2031


def test_retract_and_schedule_are_not_offered_to_an_editor(client, stories, editor):
    stories.good()
    client.force_login(editor)

    page = client.get(reverse("admin:stories_story_changelist")).content.decode()

    assert 'value="submit_selected"' in page
    assert 'value="publish_selected"' not in page
    assert 'value="retract_selected"' not in page
    assert 'value="schedule_selected"' not in page
