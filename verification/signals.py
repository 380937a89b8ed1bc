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

from manifests.models import Claim, Manifest
from newsroom.models import Beat, Newsroom
from stories.models import PublishedVersion, Revision, Story
from stories.signals import story_changed

from .services import story_signature_refresh
from .tasks import enqueue_live_refresh

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


# --- Live stories follow their sources ---------------------------------------------------------
# A manifest's title or claims, a newsroom's or a beat's title: live pages show them, so the
# live versions that do are rendered again after the change commits, and when claims may have
# changed, their checks run again (a failure flags the story; it stays up).


def _refresh_live_after_commit(versions: Any, *, recheck: bool) -> None:
    def refresh() -> None:
        enqueue_live_refresh(version_ids=list(versions.values_list("pk", flat=True)), recheck=recheck)

    transaction.on_commit(refresh, robust=True)


@receiver(post_save, sender=Manifest, dispatch_uid="verification_live_on_manifest")
def live_on_manifest_saved(sender: Any, instance: Manifest, created: bool, **kwargs: Any) -> None:
    # A new manifest may be one a live story cited before the store had it; a stored one may
    # have new claims (a refetch replaces them whole).
    if not kwargs.get("raw"):
        _refresh_live_after_commit(PublishedVersion.objects.citing([instance.manifest_id]), recheck=True)


@receiver(post_save, sender=Claim, dispatch_uid="verification_live_on_claim")
def live_on_claim_saved(sender: Any, instance: Claim, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        cited = PublishedVersion.objects.filter(citations__manifest_id=instance.manifest.manifest_id)
        _refresh_live_after_commit(cited, recheck=True)


@receiver(post_save, sender=Newsroom, dispatch_uid="verification_live_on_newsroom")
def live_on_newsroom_saved(sender: Any, instance: Newsroom, created: bool, **kwargs: Any) -> None:
    if not created and not kwargs.get("raw"):
        _refresh_live_after_commit(PublishedVersion.objects.filter(newsroom=instance), recheck=False)


@receiver(post_save, sender=Beat, dispatch_uid="verification_live_on_beat")
def live_on_beat_saved(sender: Any, instance: Beat, created: bool, **kwargs: Any) -> None:
    if not created and not kwargs.get("raw"):
        _refresh_live_after_commit(PublishedVersion.objects.filter(beat=instance), recheck=False)
