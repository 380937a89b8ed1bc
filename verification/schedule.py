"""Scheduled publication: stories whose publish time has come go through the publish gate.

``stories.services.story_schedule`` sets a story's ``publish_at`` (a chief of its newsroom
only); ``edition_schedule`` does it for every story of an edition the user is chief for. The beat
task ``verification.tasks.publish_scheduled_task`` calls ``publish_due_stories`` every minute.

Each due story is claimed (its ``publish_at`` cleared by an atomic update that only one worker
wins), then published by ``story_publish`` with the role of whoever scheduled it, exactly as the
Publish button does. A refusal is never skipped: it is kept on the story (``schedule_problem``,
shown in admin) and in a revision, and the story waits for an editor.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from newsroom.models import Newsroom, Role
from stories.desk import format_utc
from stories.models import Story
from stories.services import WorkflowError, story_record_change, story_schedule

from .gate import story_publish

logger = logging.getLogger(__name__)

SCHEDULE_ACTOR_PREFIX = "schedule:"
# Stories one beat run takes at most; the next run takes the rest.
SCHEDULE_BATCH = 50


@dataclass(frozen=True)
class ScheduledOutcome:
    story_id: int
    published: bool
    message: str


def _claim(story: Story, due_at: datetime) -> bool:
    # Only the run that clears this very time publishes: a second beat, or a worker that took
    # the task again, finds nothing to claim.
    return bool(Story.objects.filter(pk=story.pk, publish_at=due_at).update(publish_at=None))


def _record_refusal(story: Story, *, actor: str, due_at: datetime, message: str) -> None:
    text = f"Scheduled publication at {format_utc(due_at)} was refused: {message}"
    with transaction.atomic():
        Story.objects.filter(pk=story.pk).update(schedule_problem=text, updated_at=timezone.now())
        story_record_change(story=story, actor=actor, note=text)


def publish_due_stories(*, now: datetime | None = None, limit: int = SCHEDULE_BATCH) -> list[ScheduledOutcome]:
    """Publish, through the gate, every story whose publication time has come."""
    now = now or timezone.now()
    due = list(
        Story.objects.filter(publish_at__isnull=False, publish_at__lte=now)
        .select_related("scheduled_by", "newsroom")
        .order_by("publish_at", "pk")[:limit]
    )
    outcomes = []
    for story in due:
        due_at = story.publish_at
        if not _claim(story, due_at):
            continue
        user = story.scheduled_by
        actor = SCHEDULE_ACTOR_PREFIX + (user.get_username() if user is not None else "nobody")
        try:
            if user is None or not user.is_active:
                raise WorkflowError("whoever scheduled it no longer has an active account; schedule it again")
            result = story_publish(story=story, actor=actor, user=user)
        except WorkflowError as refusal:
            _record_refusal(story, actor=actor, due_at=due_at, message=refusal.message)
            logger.warning("scheduled story %s was not published: %s", story.desk_id, refusal.message)
            outcomes.append(ScheduledOutcome(story.pk, False, refusal.message))
            continue
        Story.objects.filter(pk=story.pk).update(schedule_problem="")
        message = "published" if result.published else "already published, nothing to do"
        outcomes.append(ScheduledOutcome(story.pk, result.published, message))
    return outcomes


def edition_stories_for(user: Any, edition_key: str, *, role: str | None = None) -> Any:
    """The edition's stories in the user's newsrooms (those where they are chief, for ``role``)."""
    return Story.objects.filter(edition_id=edition_key, newsroom__in=Newsroom.objects.for_user(user, role=role))


def edition_schedule(*, edition_key: str, user: Any, publish_at: datetime | None) -> list[tuple[Story, str]]:
    """Schedule (or unschedule) every story of the edition that the user is a chief for and
    that is not retracted; returns each story with what became of it."""
    results = []
    stories = edition_stories_for(user, edition_key, role=Role.CHIEF).exclude(status=Story.Status.RETRACTED)
    for story in stories.order_by("desk_id"):
        try:
            story_schedule(story=story, user=user, publish_at=publish_at)
        except WorkflowError as refusal:
            results.append((story, refusal.message))
        else:
            results.append((story, "scheduled" if publish_at is not None else "unscheduled"))
    return results


def edition_publish_verified(*, edition_key: str, user: Any) -> list[tuple[Story, str]]:
    """Publish, through the gate, every verified story of the edition in the newsrooms where
    the user is chief; returns each story with what became of it."""
    results = []
    stories = edition_stories_for(user, edition_key, role=Role.CHIEF).filter(status=Story.Status.VERIFIED)
    for story in stories.order_by("desk_id"):
        try:
            outcome = story_publish(story=story, actor=user.get_username(), user=user)
        except WorkflowError as refusal:
            results.append((story, f"not published: {refusal.message}"))
        else:
            results.append((story, "published" if outcome.published else "already published, nothing to do"))
    return results
