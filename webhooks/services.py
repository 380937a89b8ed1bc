"""Making and sending webhook deliveries.

Each delivery is a JSON body, the same at every attempt, signed with the webhook's secret:
``X-Newsroom-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>." + body>``. A receiver
recomputes it and refuses a ``t`` older than a few minutes, so a captured delivery cannot be
replayed later.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import json
import logging
import socket
import ssl
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from stories.desk import format_utc
from stories.models import PublishedVersion, Story

from .guard import Address, UnsafeURL, target
from .models import Event, Webhook, WebhookDelivery

logger = logging.getLogger(__name__)

EVENTS = {"published": Event.PUBLISHED, "corrected": Event.CORRECTED, "retracted": Event.RETRACTED}
SIGNATURE_HEADER = "X-Newsroom-Signature"
# What is kept of a receiver's answer: enough to see why it refused.
KEPT_ANSWER_BYTES = 2000


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def event_payload(*, story: Story, event: str) -> dict[str, Any]:
    version = PublishedVersion.objects.select_related("newsroom").get(pk=story.pk)
    body: dict[str, Any] = {
        "event": str(event),
        "occurred_at": format_utc(timezone.now()),
        "story": {
            "id": str(version.desk_id),
            "newsroom": version.newsroom.slug,
            "headline": version.headline,
            "url": version.absolute_url(),
            "api_url": settings.SITE_URL + reverse("api-story-detail", kwargs={"id": str(version.desk_id)}),
            "published_at": format_utc(version.published_at),
            "correction_count": version.correction_count,
        },
    }
    if event == Event.RETRACTED:
        body["story"]["retracted_at"] = format_utc(version.withdrawn_at)
        body["story"]["reason"] = version.withdrawn_reason
    return body


def deliveries_create(*, story: Story, action: str) -> list[WebhookDelivery]:
    """A pending delivery for each webhook of the story's newsroom that listens to what happened."""
    event = EVENTS.get(action)
    if event is None:
        return []
    hooks = list(Webhook.objects.listening(newsroom_id=story.newsroom_id, event=event))
    if not hooks:
        return []
    payload = json.dumps(event_payload(story=story, event=event), ensure_ascii=False, separators=(",", ":"))
    return WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=hook, event=event, story_desk_id=story.desk_id, payload=payload) for hook in hooks
    )


class _Pinned:
    """Connect to the vetted address, whatever the name resolves to by now."""

    address: Address

    def connect(self) -> None:
        sock = socket.create_connection((str(self.address), self.port), self.timeout)  # type: ignore[attr-defined]
        if isinstance(self, http.client.HTTPSConnection):
            sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]
        self.sock = sock


class PinnedHTTPConnection(_Pinned, http.client.HTTPConnection):
    pass


class PinnedHTTPSConnection(_Pinned, http.client.HTTPSConnection):
    pass


@dataclass(frozen=True)
class Answer:
    status: int
    text: str


def post(url: str, *, body: bytes, headers: dict[str, str]) -> Answer:
    """POST to a vetted address of the URL; no redirect is followed. Raises UnsafeURL, OSError
    or HTTPException."""
    host, port, addresses = target(url)
    parts = url.split("://", 1)
    secure = parts[0] == "https"
    path = "/" + parts[1].split("/", 1)[1] if "/" in parts[1] else "/"
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    if secure:
        connection: http.client.HTTPConnection = PinnedHTTPSConnection(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = PinnedHTTPConnection(host, port, timeout=timeout)
    connection.address = addresses[0]  # type: ignore[attr-defined]
    try:
        connection.request("POST", path.split("#", 1)[0], body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(KEPT_ANSWER_BYTES).decode("utf-8", "replace")
        return Answer(response.status, text)
    finally:
        connection.close()


IN_FLIGHT = "in_flight"


def _retracted(desk_id: int) -> bool:
    return PublishedVersion.objects.filter(desk_id=desk_id, withdrawn_at__isnull=False).exists()


def _claim_attempt(delivery_id: int, now: datetime) -> bool:
    """Take the next attempt at a pending delivery for this worker: one UPDATE with the state in
    its WHERE clause, so of two tasks for one delivery (queued twice) one sends and the other
    finds it taken. An attempt whose worker died is taken over after the task's hard time limit,
    past which no attempt can still be running."""
    lease = timedelta(seconds=settings.WEBHOOK_TASK_TIME_LIMIT)
    return bool(
        WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING)
        .filter(Q(sending_since__isnull=True) | Q(sending_since__lt=now - lease))
        .update(sending_since=now, attempts=F("attempts") + 1, last_attempt_at=now)
    )


def webhook_deliver(*, delivery_id: int, final: bool) -> str:
    """One attempt at a delivery: ``delivered``, ``failed`` (given up, or the URL is refused),
    ``retry`` (try again later), ``withheld`` (a publication or correction of a story retracted
    since: only the retraction goes out), ``in_flight`` (another worker is making an attempt
    right now) or the status it already had. A delivery queued twice is never sent twice: a delivered one
    is not sent again, and two attempts never run at once."""
    now = timezone.now()
    if not _claim_attempt(delivery_id, now):
        status = WebhookDelivery.objects.filter(pk=delivery_id).values_list("status", flat=True).first()
        if status is None:
            return "missing"
        return IN_FLIGHT if status == WebhookDelivery.Status.PENDING else status
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    # What this attempt records, only while it still holds the claim.
    mine = WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING, sending_since=now)
    if delivery.story_desk_id is not None and delivery.event != Event.RETRACTED and _retracted(delivery.story_desk_id):
        mine.update(
            status=WebhookDelivery.Status.WITHHELD,
            last_error="not sent: the story was retracted before this delivery was made",
            sending_since=None,
        )
        return WebhookDelivery.Status.WITHHELD
    body = delivery.payload.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "newsroom-webhooks/1",
        "X-Newsroom-Event": delivery.event,
        "X-Newsroom-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: signature(delivery.webhook.secret, int(time.time()), body),
    }
    status_code = None
    try:
        answer = post(delivery.webhook.url, body=body, headers=headers)
    except UnsafeURL as refusal:
        # Checked again at delivery: the name may resolve elsewhere since it was registered.
        error, final = f"refused: the URL {refusal}", True
    except (OSError, http.client.HTTPException) as failure:
        error = f"{type(failure).__name__}: {failure}"
    except BaseException:
        # An attempt cut short (a soft time limit): free the claim for the next one. Should
        # that fail too, the beat sweep finds the claim left over once it has run out.
        with contextlib.suppress(DatabaseError):
            mine.update(sending_since=None)
        raise
    else:
        status_code = answer.status
        if 200 <= answer.status < 300:
            mine.update(
                status=WebhookDelivery.Status.DELIVERED,
                last_status_code=answer.status,
                last_error="",
                delivered_at=timezone.now(),
                sending_since=None,
            )
            return WebhookDelivery.Status.DELIVERED
        error = f"answered {answer.status}: {answer.text[:500]}"
    mine.update(
        last_status_code=status_code,
        last_error=error,
        sending_since=None,
        **({"status": WebhookDelivery.Status.FAILED} if final else {}),
    )
    if final:
        logger.warning("webhook delivery %s given up: %s", delivery.pk, error)
        return WebhookDelivery.Status.FAILED
    return "retry"
