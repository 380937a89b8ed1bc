"""What the write API does, through the same service functions as admin and ``import_desk``.

A submission is ``story_import_desk`` (the working copy) then ``story_submit`` (the checks), in
one transaction, as the import command does them: all of it or nothing. The API adds what a
token's holder may do: write only in newsrooms where they have a role, and only on the edit
version they read, when they name one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from newsroom.models import Newsroom
from newsroom.roles import may_write
from stories import desk
from stories.models import Story
from stories.services import WorkflowPermissionDenied, require_edit_version, story_import_desk
from verification.models import VerificationRun
from verification.workflow import story_submit


class NoRole(WorkflowPermissionDenied):
    """The user has no role in the newsroom a document names, or a stored story is in."""

    def __init__(self, message: str, *, at: str):
        super().__init__(message)
        self.at = at


class HiddenStory(Exception):
    """The id is a story of a newsroom where the user has no role: to them, no such story."""

    def __init__(self, desk_id: int):
        super().__init__(f"No story with the id '{desk_id}' in a newsroom where you have a role")
        self.desk_id = desk_id


class UnknownStory(Exception):
    """An edit version was named for a story that does not exist."""

    def __init__(self, desk_id: int):
        super().__init__(f"Story {desk_id} does not exist, so it has no edit version to match")


@dataclass(frozen=True)
class Submission:
    story: Story
    run: VerificationRun | None
    created: bool
    # False when the story is published and the document holds nothing new: no run was needed.
    submitted: bool


def actor_for(user: Any) -> str:
    """How revisions and runs name a change made through the API."""
    return f"api:{user.get_username()}"


def story_submit_document(*, document: Any, user: Any, expected_version: int | None = None) -> Submission:
    """Write a desk/1 document into its story's working copy and submit it for the checks.

    Raises ``DeskError`` (problems at desk/1 paths), ``NoRole``, ``HiddenStory``, ``StaleVersion`` (the story
    moved past ``expected_version``), ``UnknownStory`` or ``WorkflowError``.
    """
    document = desk.validate_document(document)
    desk_id = int(document["id"])
    newsroom = Newsroom.objects.filter(slug=document["newsroom"]).first()
    if not (newsroom is not None and may_write(user, newsroom.pk)) and not (newsroom is None and user.is_superuser):
        message = f"You have no role in the newsroom {document['newsroom']!r}, so you cannot write there"
        raise NoRole(message, at="newsroom")
    actor = actor_for(user)
    with transaction.atomic():
        # The row lock holds until commit: no other write of this story slips in between the
        # checks below and the import.
        existing = Story.objects.select_for_update().filter(desk_id=desk_id).first()
        if existing is not None:
            if not may_write(user, existing.newsroom_id):
                # Not a 403: that would tell whoever has a token that the id is taken, and
                # where. As everywhere else, a story outside the user's newsrooms is not there.
                raise HiddenStory(desk_id)
            require_edit_version(story=existing, expected=expected_version)
        elif expected_version is not None:
            raise UnknownStory(desk_id)
        result = story_import_desk(document=document, actor=actor)
        story = Story.objects.select_related("live_version").get(pk=result.story.pk)
        if story.is_public and not story.has_unpublished_changes:
            # What readers get already is this content: nothing to check again.
            return Submission(
                story=story, run=VerificationRun.objects.current_for(story), created=result.created, submitted=False
            )
        run = story_submit(story=story, actor=actor, user=user)
    # After commit: with eager tasks the checks have run by now; with workers they may have.
    run.refresh_from_db()
    return Submission(story=Story.objects.get(pk=story.pk), run=run, created=result.created, submitted=True)
