"""The story workflow, for admin, API and commands: one function for each step.

draft → submitted (checks queued) → verified | failed → published → corrected / retracted.
A run that could not decide (``unknown``) leaves the story submitted; the beat sweep runs its
checks again later (``verification.gate.story_apply_verdict``).

- ``story_submit`` records the submission and a pending run, and queues the checks after commit.
- ``story_publish`` is the gate (``verification.gate``): passed checks for the current content,
  or an override with a written reason by a chief of the story's newsroom.
- ``story_retract`` and ``story_add_correction`` touch only the story (``stories.services``).

Every step records a revision and, when readers' view changes, sends ``story_changed`` after
commit. Refusals raise ``WorkflowError`` (``PublishRefused`` from the gate) with a message.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from newsroom.roles import may_write
from stories.models import PublishedVersion, Story
from stories.services import (
    WorkflowError,
    WorkflowPermissionDenied,
    story_add_correction,
    story_record_change,
    story_retract,
)

from .gate import (
    AUTO_PUBLISH_ACTOR,
    OverrideRefused,
    PublishRefused,
    PublishResult,
    story_apply_verdict,
    story_publish,
    story_publish_unchecked,
    story_review_decide,
)
from .models import VerificationRun
from .services import verification_run_request
from .tasks import enqueue_verification

__all__ = [
    "AUTO_PUBLISH_ACTOR",
    "SUBMITTABLE",
    "OverrideRefused",
    "PublishRefused",
    "PublishResult",
    "WorkflowError",
    "WorkflowPermissionDenied",
    "story_add_correction",
    "story_publish",
    "story_publish_unchecked",
    "story_retract",
    "story_review_decide",
    "story_submit",
]

# A story may be submitted (again) until it is retracted: a published one when its working copy
# holds new content, to be checked before it replaces the live version.
SUBMITTABLE = (
    Story.Status.DRAFT,
    Story.Status.SUBMITTED,
    Story.Status.REVIEW,
    Story.Status.VERIFIED,
    Story.Status.FAILED,
    Story.Status.PUBLISHED,
)


def _differs_from_live(story: Story) -> bool:
    live = PublishedVersion.objects.filter(pk=story.pk).values_list("content_hash", flat=True).first()
    return live is None or live != story.content_hash


def story_submit(*, story: Story, actor: str, user: Any = None, recheck: bool = False) -> VerificationRun:
    """Submit the story's current content for checks; returns the run that will decide it.

    The story becomes ``submitted`` and a pending run is recorded in one transaction; the verify
    task is queued after commit. A passed or failed verdict on exactly this content is reused
    (applied at once) unless ``recheck`` asks for the checks again, e.g. after manifests were
    added. If the broker is down the submission still stands: the run waits, pending, for the
    beat sweep. Resubmitting while a run is pending joins that run.
    """
    if not isinstance(actor, str) or not actor.strip():
        raise ValueError("actor must name who or what submits the story")
    if user is not None and not may_write(user, story.newsroom_id):
        raise WorkflowPermissionDenied("Submitting a story needs a role in the story's newsroom")
    with transaction.atomic():
        # Lock the story row: a concurrent submit, edit or publish of this story waits, so the run
        # is recorded for the content hash this transaction computed.
        current = Story.objects.select_for_update().get(pk=story.pk)
        if current.status not in SUBMITTABLE:
            raise WorkflowError(
                f"A {current.get_status_display().lower()} story cannot be submitted; a retracted story stays withdrawn"
            )
        # Also brings the content hash up to date, so the run is for exactly what is stored.
        story_record_change(story=current, actor=actor, note="submitted for checks")
        if current.status == Story.Status.PUBLISHED and not recheck and not _differs_from_live(current):
            raise WorkflowError(
                f"Story {current.desk_id} is published and its working copy holds nothing new to check; "
                "edit it first, or correct or retract it"
            )
        Story.objects.filter(pk=current.pk).update(status=Story.Status.SUBMITTED, updated_at=timezone.now())
        run = verification_run_request(story=current, started_by=actor, user=user, force=recheck)
        if not run.is_finished:
            # After commit, so the worker finds the run; a duplicate message is harmless.
            transaction.on_commit(partial(enqueue_verification, run.pk))
    if run.is_finished:
        # The verdict on this very content stands: apply it now (verified, failed or published).
        story_apply_verdict(run=run)
    return run
