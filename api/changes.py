"""Recording the changes feed: a receiver of every save of a live version.

It runs inside the transaction that saves the version (``post_save``), so a change is recorded
exactly when it commits: a worker killed after the commit cannot leave a mirror behind.
What happened is read off the version against the story's last recorded change: withdrawn is a
retraction; new content (or back after a retraction) a publication; one more correction a
correction; a newer ``modified_at`` otherwise an update (re-rendered); nothing else is a change
(a re-render in a new format that readers cannot tell apart).
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.utils import timezone

from stories.models import PublishedVersion

from .models import Event, StoryChange
from .serializers import StorySummarySerializer


def version_summary(version: PublishedVersion) -> dict[str, Any]:
    """The version's summary, exactly as the story list gives it."""
    row = {
        "desk_id": version.desk_id,
        "dateline": version.dateline,
        "slug": version.slug,
        "headline": version.headline,
        "dek": version.dek,
        "newsroom__slug": version.newsroom.slug,
        "beat__slug": version.beat.slug,
        "edition_id": version.edition_id,
        "trust": version.trust,
        "source_count": version.source_count,
        "correction_count": version.correction_count,
        "published_at": version.published_at,
        "modified_at": version.modified_at,
        "label": version.label,
        "flagged_at": version.flagged_at,
    }
    return StorySummarySerializer().to_representation(row)


def change_record(*, version: PublishedVersion) -> StoryChange | None:
    """Record what this save of the version changed for readers, if anything."""
    last = StoryChange.objects.filter(desk_id=version.desk_id).order_by("-at", "-id").first()
    now = timezone.now()
    if version.withdrawn_at is not None:
        if last is None or last.event == Event.RETRACTED:
            return None
        # Changes not public yet (a story published for later) were never seen: they go, so
        # the feed never shows a headline readers never got.
        StoryChange.objects.filter(desk_id=version.desk_id, at__gt=now).delete()
        event, summary = Event.RETRACTED, None
    else:
        summary = version_summary(version)
        if last is None or last.event == Event.RETRACTED or last.content_hash != version.content_hash:
            event = Event.PUBLISHED
        elif last.summary == summary:
            return None
        elif summary["correction_count"] > last.summary["correction_count"]:
            event = Event.CORRECTED
        else:
            event = Event.UPDATED
    # Never before the story is public, and never before its previous change: a mirror applies
    # one story's changes in the order they happened.
    at = max(now, version.published_at, *([last.at] if last is not None else []))
    return StoryChange.objects.create(
        event=event,
        desk_id=version.desk_id,
        at=at,
        content_hash=version.content_hash,
        summary=summary,
        retracted_reason=version.withdrawn_reason if event == Event.RETRACTED else "",
    )


def on_version_saved(sender: Any, *, instance: PublishedVersion, raw: bool = False, **kwargs: Any) -> None:
    if not raw:  # not when loading fixtures
        change_record(version=instance)


post_save.connect(on_version_saved, sender=PublishedVersion, dispatch_uid="api-changes-on-version-saved")
