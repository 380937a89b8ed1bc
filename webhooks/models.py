"""Webhooks: URLs a newsroom registers to hear of its stories' publications, corrections and
retractions, and the log of every delivery."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .guard import UnsafeURL, target


class Event(models.TextChoices):
    PUBLISHED = "story.published", "story.published"
    CORRECTED = "story.corrected", "story.corrected"
    RETRACTED = "story.retracted", "story.retracted"
    # A test a chief sends (admin or API): no story, only the webhook's own address.
    PING = "ping", "ping"


# The events a webhook chooses to hear, and the field that says so.
STORY_EVENTS = {
    Event.PUBLISHED: "on_published",
    Event.CORRECTED: "on_corrected",
    Event.RETRACTED: "on_retracted",
}


def new_secret() -> str:
    return secrets.token_hex(32)


class WebhookQuerySet(models.QuerySet):
    def listening(self, *, newsroom_id: int, event: str) -> WebhookQuerySet:
        """The active webhooks of a newsroom that receive this event."""
        return self.filter(newsroom_id=newsroom_id, active=True, **{STORY_EVENTS[Event(event)]: True})


class Webhook(models.Model):
    newsroom = models.ForeignKey("newsroom.Newsroom", on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500, help_text="https only, at a public address.")
    secret = models.CharField(
        max_length=128,
        default=new_secret,
        help_text="Signs every delivery (HMAC-SHA256): the receiver checks X-Newsroom-Signature with it.",
    )
    on_published = models.BooleanField("story.published", default=True)
    on_corrected = models.BooleanField("story.corrected", default=True)
    on_retracted = models.BooleanField("story.retracted", default=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = WebhookQuerySet.as_manager()

    class Meta:
        ordering = ["newsroom", "url"]

    def __str__(self) -> str:
        return self.url

    @property
    def events(self) -> list[str]:
        """The story events it hears, in their order."""
        return [str(event) for event, field in STORY_EVENTS.items() if getattr(self, field)]

    def clean(self) -> None:
        try:
            target(self.url)
        except UnsafeURL as error:
            raise ValidationError({"url": f"The URL {error}."}) from None


class WebhookDeliveryQuerySet(models.QuerySet):
    def stranded(self, *, now: datetime) -> WebhookDeliveryQuerySet:
        """Deliveries still to be sent that no task will send, for WEBHOOK_REQUEUE_AFTER_SECONDS:
        none was queued (the broker was down when they were recorded, or when their next
        attempt was to be queued), or an attempt was left unfinished (its task ended without
        freeing its claim) past the task's hard time limit, when it can no longer be running."""
        grace = timedelta(seconds=settings.WEBHOOK_REQUEUE_AFTER_SECONDS)
        lease = timedelta(seconds=settings.WEBHOOK_TASK_TIME_LIMIT)
        return (
            self.filter(status=WebhookDelivery.Status.PENDING)
            .filter(Q(queued_at__isnull=True, created_at__lt=now - grace) | Q(sending_since__lt=now - lease - grace))
            .order_by("created_at", "pk")
        )


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one webhook: the delivery log."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending (being tried)"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed (given up)"
        # A publication or correction not yet sent when the story was retracted: its headline
        # and link are no longer public, and the retraction's own delivery says what happened.
        WITHHELD = "withheld", "Withheld (the story was retracted first)"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40, choices=Event.choices)
    # None for a ping, which is of no story.
    story_desk_id = models.BigIntegerField(null=True, blank=True)
    # The body sent, byte for byte the same at every attempt (only the signature's time changes).
    payload = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # When the broker took a task for this delivery; empty while none holds it (the broker was
    # down), which is what the beat sweep looks for.
    queued_at = models.DateTimeField(null=True, blank=True)
    # Set while a worker is making an attempt (claimed atomically, so a delivery queued twice is
    # sent by one worker at a time); an attempt left by a dead worker is taken over after the
    # task's hard time limit.
    sending_since = models.DateTimeField(null=True, blank=True)

    objects = WebhookDeliveryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.event} of story {self.story_desk_id} to {self.webhook_id}: {self.status}"
