"""The changes feed's record: every publication, correction, update and retraction of a live
version, in the order a mirror must apply them (``GET /api/v1/changes/``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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


class Scope(models.TextChoices):
    """What a token may do, within what its user's roles allow in each newsroom."""

    READ = "read", "read: the desk's reads (verification runs, webhooks and their deliveries)"
    SUBMIT = "submit", "submit: write stories and submit them for the checks"
    PUBLISH = "publish", "publish: publish, correct and retract stories; manage webhooks"


def all_scopes() -> list[str]:
    return list(Scope.values)


class TokenGrant(models.Model):
    """The scopes of one API token (django-rest-knox's ``AuthToken``), chosen when it is made.

    A token acts with the intersection of its scopes and its user's roles: ``publish`` on an
    editor's token publishes nothing, and a chief's token without it cannot publish."""

    token = models.OneToOneField("knox.AuthToken", on_delete=models.CASCADE, primary_key=True, related_name="grant")
    scopes = models.JSONField(default=all_scopes, help_text="Some of read, submit, publish.")

    def __str__(self) -> str:
        return f"{self.token.token_key}: {' '.join(self.scopes)}"


class IdempotentRequest(models.Model):
    """A POST sent with an ``Idempotency-Key``, and the answer its work got, replayed to the
    same key, user and request for ``API_IDEMPOTENCY_SECONDS`` (a day); then pruned."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    # A digest of the method, path, If-Match and body: the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # Empty while the first request with the key is being answered.
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    # The answer's JSON as text, keys in the order they were sent (not jsonb, which sorts them).
    body = models.TextField(blank=True)
    location = models.CharField(max_length=2000, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")]

    def __str__(self) -> str:
        return f"{self.key} of user {self.user_id}: {self.status_code or 'in flight'}"
