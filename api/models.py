"""The changes feed's record: every publication, correction, update and retraction of a live
version, in the order a mirror must apply them (``GET /api/v1/changes/``)."""

from __future__ import annotations

from django.db import models


class Event(models.TextChoices):
    PUBLISHED = "story.published", "story.published"
    CORRECTED = "story.corrected", "story.corrected"
    # What readers get changed without a new publication: re-rendered after a source changed.
    UPDATED = "story.updated", "story.updated"
    RETRACTED = "story.retracted", "story.retracted"


class StoryChange(models.Model):
    """One change of what readers get of a story, with the story's summary after it (as the
    story list shows it), or none for a retraction: a tombstone."""

    event = models.CharField(max_length=40, choices=Event.choices)
    desk_id = models.PositiveBigIntegerField(db_index=True)
    # When the change is public: now, or the publication time of a story published for later.
    # The feed's order is (at, id); it never lists a change before its time.
    at = models.DateTimeField()
    content_hash = models.CharField(max_length=64, blank=True)
    summary = models.JSONField(null=True, blank=True)
    retracted_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["at", "id"], name="change_feed_order")]

    def __str__(self) -> str:
        return f"{self.event} of story {self.desk_id} at {self.at}"
