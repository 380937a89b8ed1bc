"""What a newsroom's chief does with its webhooks, from admin or the API: one path for each.

Registering checks the URL with the guard (``Webhook.clean``: https, public addresses only), as
admin's form does; a ping and a redelivery are deliveries like any other, logged and sent by the
same task (the guard again at delivery, the signature, the retries).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from newsroom.models import Newsroom
from stories.desk import format_utc

from .models import STORY_EVENTS, Event, Webhook, WebhookDelivery
from .tasks import enqueue_delivery


class DeliveryStillPending(Exception):
    """A delivery still being tried is not sent again: it may yet arrive."""

    def __init__(self, delivery: WebhookDelivery):
        super().__init__(f"Delivery {delivery.pk} is still being tried: wait until it is delivered or given up")


def webhook_create(
    *, newsroom: Newsroom, url: str, events: Iterable[str] | None = None, active: bool = True
) -> Webhook:
    """A webhook of the newsroom hearing these story events (all when None). Raises Django's
    ValidationError by field (``url``: refused by the guard)."""
    chosen = set(STORY_EVENTS) if events is None else {Event(event) for event in events}
    hook = Webhook(
        newsroom=newsroom, url=url, active=active, **{field: event in chosen for event, field in STORY_EVENTS.items()}
    )
    hook.full_clean()
    hook.save()
    return hook


def _queue(delivery: WebhookDelivery) -> WebhookDelivery:
    # Once the row is committed, so the task finds it (with eager tasks, sent right then).
    transaction.on_commit(lambda: enqueue_delivery(delivery.pk))
    return delivery


def webhook_ping(*, webhook: Webhook) -> WebhookDelivery:
    """Send the webhook a signed ``ping``: whether its receiver takes deliveries, and checks them."""
    payload = {
        "event": str(Event.PING),
        "occurred_at": format_utc(timezone.now()),
        "webhook": {"id": webhook.pk, "newsroom": webhook.newsroom.slug, "url": webhook.url, "events": webhook.events},
    }
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return _queue(WebhookDelivery.objects.create(webhook=webhook, event=Event.PING, story_desk_id=None, payload=body))


def delivery_redeliver(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """The same body sent again, as a new delivery of its own (the log keeps both). A
    publication or correction of a story retracted since is withheld, as at first."""
    if delivery.status == WebhookDelivery.Status.PENDING:
        raise DeliveryStillPending(delivery)
    again = WebhookDelivery.objects.create(
        webhook_id=delivery.webhook_id,
        event=delivery.event,
        story_desk_id=delivery.story_desk_id,
        payload=delivery.payload,
    )
    return _queue(again)
