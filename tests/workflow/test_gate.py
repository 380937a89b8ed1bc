"""The publish gate: one function, and it refuses anything but passed checks on current content."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from newsroom.models import Disclosure, Role, Writer
from stories.models import Paragraph, Revision, Story
from stories.services import WorkflowPermissionDenied, story_record_change, story_retract
from verification.gate import OverrideRefused, PublishRefused, story_publish
from verification.models import VerificationRun
from verification.services import verification_run_execute, verification_run_request
from verification.workflow import story_submit

from .conftest import member

pytestmark = pytest.mark.usefixtures("eager")


def submitted(story, capture) -> VerificationRun:
    """Submit and let the after-commit hook run the checks (eagerly, in-process)."""
    with capture(execute=True):
        run = story_submit(story=story, actor="writer-agent")
    run.refresh_from_db()
    return run


def published_revisions(story: Story) -> int:
    return Revision.objects.filter(story=story, note__startswith="published").count()


def test_it_refuses_a_story_whose_content_was_never_checked(stories):
    story = stories.good()

    with pytest.raises(PublishRefused, match="has not been checked; submit it first"):
        story_publish(story=story, actor="editor")

    story.refresh_from_db()
    assert story.status == Story.Status.DRAFT
    assert story.published_at is None


def test_it_refuses_while_the_checks_are_still_pending(stories):
    story = stories.good()
    run = verification_run_request(story=story, started_by="test")

    with pytest.raises(PublishRefused, match=f"still pending \\(run {run.pk}\\)"):
        story_publish(story=story, actor="editor")


def test_it_refuses_failed_checks_and_says_which_problem(stories, django_capture_on_commit_callbacks):
    story = stories.bad()
    run = submitted(story, django_capture_on_commit_callbacks)
    assert run.status == VerificationRun.Status.FAILED

    with pytest.raises(PublishRefused) as refusal:
        story_publish(story=story, actor="editor")

    assert "claims_belong (fail)" in refusal.value.message
    assert "not-a-claim" in refusal.value.message
    assert "override" in refusal.value.message
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED


def test_it_publishes_when_the_current_content_passed(stories, django_capture_on_commit_callbacks, signals_sent):
    # The story has no writer agent: a person wrote it, so the text for people's checked stories.
    Disclosure.objects.create(text="An agent disclosed.", effective_from=timezone.now())
    disclosure = Disclosure.objects.create(text="We disclose.", writer=Writer.PERSON, effective_from=timezone.now())
    story = stories.good()
    run = submitted(story, django_capture_on_commit_callbacks)
    assert run.status == VerificationRun.Status.PASSED, run.checks
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED

    with django_capture_on_commit_callbacks(execute=True):
        result = story_publish(story=story, actor="editor")

    story.refresh_from_db()
    assert result.published
    assert not result.overridden
    assert result.run == run
    assert story.status == Story.Status.PUBLISHED
    assert story.published_at is not None
    assert story.dateline == story.published_at.date()
    assert story.disclosure == disclosure  # the version in force is pinned for good
    assert published_revisions(story) == 1
    assert Revision.objects.filter(story=story).first().actor == "editor"
    assert signals_sent == [(story.pk, "published")]


def test_the_signal_waits_for_the_commit(stories, django_capture_on_commit_callbacks, signals_sent):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        story_publish(story=story, actor="editor")
        assert signals_sent == []

    assert len(callbacks) >= 1
    for callback in callbacks:
        callback()
    assert signals_sent == [(story.pk, "published")]


def test_publishing_twice_publishes_once(stories, django_capture_on_commit_callbacks, signals_sent):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True):
        first = story_publish(story=story, actor="editor")
        published_at = Story.objects.get(pk=story.pk).published_at
        second = story_publish(story=story, actor="another-editor")

    assert first.published
    assert not second.published
    assert Story.objects.get(pk=story.pk).published_at == published_at
    assert published_revisions(story) == 1
    assert signals_sent == [(story.pk, "published")]


def test_an_edit_after_the_checks_makes_them_stale_until_checked_again(stories, django_capture_on_commit_callbacks):
    story = stories.good()
    passed = submitted(story, django_capture_on_commit_callbacks)
    assert passed.status == VerificationRun.Status.PASSED

    # An editor changes a paragraph, as the admin does: the change is recorded, the hash moves.
    paragraph = Paragraph.objects.get(story=story)
    paragraph.markdown += " It cost 90 million."
    paragraph.save()
    story_record_change(story=story, actor="editor", note="edited in admin")

    with pytest.raises(PublishRefused, match=f"edited after its last check \\(run {passed.pk}\\)"):
        story_publish(story=story, actor="editor")

    rechecked = submitted(story, django_capture_on_commit_callbacks)
    assert rechecked.pk != passed.pk
    assert rechecked.status == VerificationRun.Status.FAILED  # "90" is in no cited claim
    with pytest.raises(PublishRefused, match="did not pass"):
        story_publish(story=story, actor="editor")


def test_an_override_needs_a_chief_of_the_story_s_newsroom(
    stories, django_capture_on_commit_callbacks, editor, django_user_model
):
    story = stories.bad()
    submitted(story, django_capture_on_commit_callbacks)
    elsewhere = member(django_user_model, "other-chief", Role.CHIEF, newsroom_slug="another-desk")

    for user in (editor, elsewhere):
        with pytest.raises(WorkflowPermissionDenied, match="needs the chief role in the story's newsroom"):
            story_publish(story=story, actor=user.username, user=user, override_reason="The claim is in the PDF.")
    with pytest.raises(OverrideRefused, match="only a chief of its newsroom, signed in, may override"):
        story_publish(story=story, actor="script", override_reason="The claim is in the PDF.")

    run = VerificationRun.objects.current_for(story)
    assert run.override_reason == ""
    assert run.overridden_at is None
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED


@pytest.mark.parametrize("reason", [None, "", "   \n "])
def test_an_override_needs_a_written_reason(stories, django_capture_on_commit_callbacks, chief, reason):
    story = stories.bad()
    submitted(story, django_capture_on_commit_callbacks)

    with pytest.raises(PublishRefused, match="with a written reason"):
        story_publish(story=story, actor=chief.username, user=chief, override_reason=reason)

    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED


def test_an_override_with_permission_and_reason_publishes_and_keeps_the_reason(
    stories, django_capture_on_commit_callbacks, chief, signals_sent
):
    story = stories.bad()
    run = submitted(story, django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True):
        result = story_publish(
            story=story, actor=chief.username, user=chief, override_reason="  Claim 7 is on page 3 of the filing.  "
        )

    run.refresh_from_db()
    assert result.published
    assert result.overridden
    assert run.status == VerificationRun.Status.FAILED  # the verdict stays what it was
    assert run.override_reason == "Claim 7 is on page 3 of the filing."
    assert run.overridden_by == chief
    assert run.overridden_at is not None
    assert Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED
    assert Revision.objects.filter(story=story).first().note == f"published overriding checks (run {run.pk})"
    assert signals_sent == [(story.pk, "published")]


def test_a_passed_run_needs_no_override_and_records_none(stories, django_capture_on_commit_callbacks, chief):
    story = stories.good()
    run = submitted(story, django_capture_on_commit_callbacks)

    result = story_publish(story=story, actor=chief.username, user=chief, override_reason="just because")

    run.refresh_from_db()
    assert result.published
    assert not result.overridden
    assert run.override_reason == ""
    assert run.overridden_by is None


def test_a_user_who_may_not_change_stories_cannot_publish(
    stories, django_capture_on_commit_callbacks, django_user_model
):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    reader = django_user_model.objects.create_user(username="reader", password="pw")

    with pytest.raises(WorkflowPermissionDenied):
        story_publish(story=story, actor="reader", user=reader)

    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_a_retracted_story_is_not_published_again(stories, django_capture_on_commit_callbacks, chief):
    story = stories.good()
    submitted(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    story_retract(story=story, user=chief, reason="The source withdrew the report.")

    with pytest.raises(PublishRefused, match="retracted story cannot be published again"):
        story_publish(story=story, actor="editor")

    assert Story.objects.get(pk=story.pk).status == Story.Status.RETRACTED


def test_a_dateline_typed_for_a_draft_is_kept_at_publication(stories, django_capture_on_commit_callbacks):
    story = stories.good()
    typed = timezone.now().date() - timedelta(days=3)
    Story.objects.filter(pk=story.pk).update(dateline=typed)
    preview_address = Story.objects.get(pk=story.pk).get_absolute_url()
    submitted(story, django_capture_on_commit_callbacks)

    assert story_publish(story=story, actor="editor").published

    story = Story.objects.get(pk=story.pk)
    assert story.dateline == typed
    assert story.published_at.date() == timezone.now().date()
    # The address the draft was previewed at is the one readers get: no URL moved.
    assert story.get_absolute_url() == preview_address == story.live_version.get_absolute_url()


def test_a_pending_run_executed_but_not_yet_applied_still_gates(stories):
    # A worker recorded the verdict, then died before applying it: the gate reads the run itself.
    story = stories.good()
    run = verification_run_request(story=story, started_by="test")
    verification_run_execute(run_id=run.pk)

    result = story_publish(story=story, actor="editor")

    assert result.published


@pytest.mark.parametrize("actor", ["", "  ", None])
def test_an_actor_is_required(stories, actor):
    with pytest.raises(ValueError, match="actor must name"):
        story_publish(story=stories.good(), actor=actor)
