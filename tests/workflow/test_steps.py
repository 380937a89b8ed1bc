"""Submitting, auto-publishing, retracting and correcting: each step recorded and signalled."""

from __future__ import annotations

import pytest

from newsroom.models import Role
from stories.models import Correction, Revision, Story
from stories.services import WorkflowError, WorkflowPermissionDenied, story_add_correction, story_retract
from verification.gate import story_publish
from verification.models import VerificationRun
from verification.workflow import story_submit

from .conftest import member

pytestmark = pytest.mark.usefixtures("eager")


def submit(story, capture, **kwargs) -> VerificationRun:
    with capture(execute=True):
        run = story_submit(story=story, actor="writer-agent", **kwargs)
    run.refresh_from_db()
    return run


@pytest.fixture
def published(stories, django_capture_on_commit_callbacks) -> Story:
    story = stories.good()
    submit(story, django_capture_on_commit_callbacks)
    story_publish(story=story, actor="editor")
    return Story.objects.get(pk=story.pk)


# --- Submitting -----------------------------------------------------------------------------


def test_submitting_records_a_pending_run_and_a_revision_before_the_checks_run(
    stories, django_capture_on_commit_callbacks
):
    story = stories.good()

    with django_capture_on_commit_callbacks(execute=False):
        run = story_submit(story=story, actor="writer-agent")

    story.refresh_from_db()
    assert story.status == Story.Status.SUBMITTED
    assert run.status == VerificationRun.Status.PENDING
    assert run.content_hash == story.content_hash
    assert run.started_by == "writer-agent"
    assert Revision.objects.filter(story=story).first().note == "submitted for checks"


def test_a_newsroom_without_auto_publish_leaves_a_passed_story_verified_for_an_editor(
    stories, django_capture_on_commit_callbacks
):
    story = stories.good()

    run = submit(story, django_capture_on_commit_callbacks)

    assert run.status == VerificationRun.Status.PASSED
    story.refresh_from_db()
    assert story.status == Story.Status.VERIFIED
    assert story.published_at is None


def test_a_newsroom_with_auto_publish_publishes_a_passed_story_through_the_gate(
    stories, auto_publish, django_capture_on_commit_callbacks, signals_sent
):
    story = stories.good()

    submit(story, django_capture_on_commit_callbacks)

    story.refresh_from_db()
    assert story.status == Story.Status.PUBLISHED
    assert story.published_at is not None
    revision = Revision.objects.filter(story=story).first()
    assert revision.actor == "auto-publish"
    assert revision.note.startswith("published (run ")
    assert signals_sent == [(story.pk, "published")]


def test_auto_publish_never_publishes_failed_checks(stories, auto_publish, django_capture_on_commit_callbacks):
    story = stories.bad()

    run = submit(story, django_capture_on_commit_callbacks)

    assert run.status == VerificationRun.Status.FAILED
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED


def test_resubmitting_unchanged_content_reuses_its_verdict(stories, django_capture_on_commit_callbacks):
    story = stories.bad()
    first = submit(story, django_capture_on_commit_callbacks)

    again = submit(story, django_capture_on_commit_callbacks)

    assert again.pk == first.pk
    assert VerificationRun.objects.filter(story=story).count() == 1
    assert Story.objects.get(pk=story.pk).status == Story.Status.FAILED


def test_resubmitting_with_recheck_checks_again(stories, django_capture_on_commit_callbacks):
    story = stories.bad()
    first = submit(story, django_capture_on_commit_callbacks)

    again = submit(story, django_capture_on_commit_callbacks, recheck=True)

    assert again.pk != first.pk
    assert again.status == VerificationRun.Status.FAILED


def test_submitting_twice_while_pending_joins_the_pending_run(stories, django_capture_on_commit_callbacks):
    story = stories.good()
    with django_capture_on_commit_callbacks(execute=False):
        first = story_submit(story=story, actor="writer-agent")
        second = story_submit(story=story, actor="editor")

    assert first.pk == second.pk
    assert VerificationRun.objects.filter(story=story).count() == 1


def test_a_published_story_with_nothing_new_cannot_be_submitted(published):
    with pytest.raises(WorkflowError, match="published and its working copy holds nothing new to check"):
        story_submit(story=published, actor="writer-agent")


# --- Retracting -----------------------------------------------------------------------------


def test_retracting_withdraws_the_story_keeps_the_reason_and_tells_readers(
    published, chief, django_capture_on_commit_callbacks, signals_sent
):
    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=published, user=chief, reason="The source withdrew its report.")

    story = Story.objects.get(pk=published.pk)
    assert story.status == Story.Status.RETRACTED
    assert story.published_at == published.published_at  # its URL stays reserved
    assert not Story.objects.published().filter(pk=story.pk).exists()
    revision = Revision.objects.filter(story=story).first()
    assert revision.note == "retracted: The source withdrew its report."
    assert revision.actor == "chief"
    assert signals_sent == [(story.pk, "retracted")]


def test_retracting_twice_changes_the_story_once(published, chief, django_capture_on_commit_callbacks, signals_sent):
    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=published, user=chief, reason="Wrong.")
        story_retract(story=published, user=chief, reason="Wrong again.")

    assert Revision.objects.filter(story=published, note__startswith="retracted").count() == 1
    assert signals_sent == [(published.pk, "retracted")]


@pytest.mark.parametrize(("reason", "message"), [("", "must be written out"), ("x" * 281, "at most 280 characters")])
def test_a_retraction_needs_a_short_written_reason(published, chief, reason, message):
    with pytest.raises(WorkflowError, match=message):
        story_retract(story=published, user=chief, reason=reason)

    assert Story.objects.get(pk=published.pk).status == Story.Status.PUBLISHED


def test_only_a_published_story_is_retracted(stories, chief):
    with pytest.raises(WorkflowError, match="Only a published story can be retracted; this one is Draft"):
        story_retract(story=stories.good(), user=chief, reason="No.")


def test_retracting_and_correcting_need_a_chief_of_the_story_s_newsroom(published, editor, django_user_model):
    reader = django_user_model.objects.create_user(username="reader")
    elsewhere = member(django_user_model, "other-chief", Role.CHIEF, newsroom_slug="another-desk")

    for user in (reader, editor, elsewhere):
        with pytest.raises(WorkflowPermissionDenied, match="needs the chief role in the story's newsroom"):
            story_retract(story=published, user=user, reason="No.")
        with pytest.raises(WorkflowPermissionDenied, match="needs the chief role in the story's newsroom"):
            story_add_correction(story=published, text="A fix.", user=user)
    assert Story.objects.get(pk=published.pk).status == Story.Status.PUBLISHED
    assert not Correction.objects.filter(story=published).exists()


def test_submitting_needs_a_role_in_the_story_s_newsroom(stories, editor, django_user_model):
    elsewhere = member(django_user_model, "other-editor", Role.EDITOR, newsroom_slug="another-desk")
    story = stories.good()

    with pytest.raises(WorkflowPermissionDenied, match="needs a role in the story's newsroom"):
        story_submit(story=story, actor=elsewhere.username, user=elsewhere)
    assert not VerificationRun.objects.filter(story=story).exists()
    run = story_submit(story=story, actor=editor.username, user=editor)
    assert run.story_id == story.pk


# --- Correcting -----------------------------------------------------------------------------


def test_corrections_are_appended_dated_and_signalled(
    published, chief, django_capture_on_commit_callbacks, signals_sent
):
    with django_capture_on_commit_callbacks(execute=True):
        first = story_add_correction(story=published, text="The figure was 30, not 40.", user=chief)
        second = story_add_correction(story=published, text="The name is spelt Zorba.", user=chief)

    assert [(c.position, c.text) for c in Correction.objects.filter(story=published)] == [
        (0, "The figure was 30, not 40."),
        (1, "The name is spelt Zorba."),
    ]
    assert first.published_at <= second.published_at
    assert Revision.objects.filter(story=published, note="correction added").count() == 2
    assert signals_sent == [(published.pk, "corrected"), (published.pk, "corrected")]


def test_a_correction_leaves_the_checked_content_current(published, chief):
    run = VerificationRun.objects.current_for(published)

    story_add_correction(story=published, text="A clarification.", user=chief)

    # Corrections are not part of the checked content: the story's run is still its current run.
    assert VerificationRun.objects.current_for(Story.objects.get(pk=published.pk)) == run


def test_a_draft_is_not_corrected(stories, chief):
    with pytest.raises(WorkflowError, match="Only a published story can be corrected"):
        story_add_correction(story=stories.good(), text="Fix.", user=chief)


@pytest.mark.parametrize("text", ["", "   ", None, "a\x00b"])
def test_a_correction_must_be_written_out(published, chief, text):
    with pytest.raises(WorkflowError):
        story_add_correction(story=published, text=text, user=chief)

    assert not Correction.objects.filter(story=published).exists()
