"""Receivers that keep the repeat index current as stories change.

Every change of a story's content records a Revision (``stories.services.story_record_change``
is the one path for imports, admin edits and the API), and publication, correction and
retraction send ``story_changed``. Either way the story's signature is refreshed after the
change commits, so the index never holds content that was rolled back.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from stories.models import Revision, Story
from stories.signals import story_changed

from .services import story_signature_refresh

logger = logging.getLogger(__name__)


def _refresh_after_commit(story_id: int) -> None:
    def refresh() -> None:
        try:
            story_signature_refresh(story=Story(pk=story_id))
        except Exception:
            # The change itself is committed and must stand; a stale index entry is repaired by
            # the next change or by 'manage.py index_story_signatures'.
            logger.exception("could not refresh the repeat signature of story %s", story_id)

    transaction.on_commit(refresh)


@receiver(post_save, sender=Revision, dispatch_uid="verification_signature_on_revision")
def signature_on_revision(sender: Any, instance: Revision, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        _refresh_after_commit(instance.story_id)


@receiver(story_changed, dispatch_uid="verification_signature_on_story_changed")
def signature_on_story_changed(sender: Any, story: Story, **kwargs: Any) -> None:
    _refresh_after_commit(story.pk)
