"""Delivering webhooks on Celery: each delivery its own task, retried with exponential backoff,
and a beat sweep that queues the deliveries the broker could not take when they were due.

A delivery's row says whether a queued task holds it (``queued_at``): set when the broker takes
the task, cleared when it could not (the broker down when the delivery was recorded, or when
its next attempt was to be queued). ``requeue_webhook_deliveries`` queues those left without
one, and those whose attempt was left unfinished by a task that is gone. A delivery queued
twice is still sent once: ``webhook_deliver`` claims each attempt.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.exceptions import Reject
from celery.utils.time import get_exponential_backoff_interval
from django.conf import settings
from django.utils import timezone

from newsroom.celery import app
from verification.tasks import (
    BEAT_SWEEP,
    BROKER_ERRORS,
    PUBLISH_RETRY_POLICY,
    TRANSIENT_DATABASE_ERRORS,
    capped_countdown,
)

from .models import WebhookDelivery
from .services import webhook_deliver

logger = logging.getLogger(__name__)

# A sweep queues at most this many deliveries; the next sweep takes the rest.
SWEEP_BATCH = 500


class DeliveryFailed(Exception):
    """The receiver did not take the delivery this time; Celery tries again later."""


def _unqueue(delivery_id: int) -> None:
    """No task holds the delivery any more: the sweep queues it again."""
    WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(queued_at=None)


@app.task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT_DATABASE_ERRORS,
    max_retries=settings.WEBHOOK_MAX_RETRIES,
    retry_backoff=settings.WEBHOOK_RETRY_BACKOFF_SECONDS,
    retry_backoff_max=settings.WEBHOOK_RETRY_BACKOFF_MAX_SECONDS,
    retry_jitter=True,
    soft_time_limit=settings.WEBHOOK_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.WEBHOOK_TASK_TIME_LIMIT,
)
def deliver_webhook_task(self: Any, delivery_id: int) -> str:
    """One attempt at a delivery. The last attempt records the failure and ends quietly rather
    than raise: with eager tasks the error would reach the request that published the story.
    When the next attempt cannot be queued (the broker went down), the delivery is left for the
    sweep rather than lost."""
    outcome = webhook_deliver(delivery_id=delivery_id, final=self.request.retries >= self.max_retries)
    if outcome != "retry":
        return outcome
    # Celery's own backoff (as autoretry_for computes it), never longer than half the visibility
    # timeout: a task waiting longer would be handed to a second worker too.
    countdown = get_exponential_backoff_interval(
        factor=self.retry_backoff,
        retries=self.request.retries,
        maximum=self.retry_backoff_max,
        full_jitter=self.retry_jitter,
    )
    failed = DeliveryFailed(f"delivery {delivery_id} not taken (attempt {self.request.retries + 1})")
    try:
        raise self.retry(exc=failed, countdown=capped_countdown(countdown))
    except Reject as rejected:
        # Celery could not queue the retry and drops this message: nothing would send it again.
        _unqueue(delivery_id)
        logger.warning(
            "webhook delivery %s: the next attempt could not be queued (%s); the sweep will queue it",
            delivery_id,
            rejected.reason,
        )
        return "not_queued"


def enqueue_delivery(delivery_id: int) -> bool:
    """Queue a delivery's task; with eager tasks (no workers), make its attempts here.

    Returns False, logged, when the broker cannot take it: the delivery stays recorded, without
    a task, and ``requeue_webhook_deliveries`` queues it once the broker is back. A delivery a
    task already holds is left to it (True).

    Celery's eager mode raises a retry to the caller instead of running it (we propagate eager
    errors), so the attempts are made in this loop, as many as the task allows, without waiting
    out the backoff a worker would wait."""
    if app.conf.task_always_eager:
        for retries in range(deliver_webhook_task.max_retries + 1):
            final = retries == deliver_webhook_task.max_retries
            if webhook_deliver(delivery_id=delivery_id, final=final) != "retry":
                return True
        return True
    # The claim: of the first queuing and a sweep (or two sweeps), one queues the task.
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id, status=WebhookDelivery.Status.PENDING, queued_at__isnull=True
    ).update(queued_at=timezone.now())
    if not claimed:
        return True
    try:
        deliver_webhook_task.apply_async(args=[delivery_id], retry_policy=PUBLISH_RETRY_POLICY)
    except BROKER_ERRORS as error:
        _unqueue(delivery_id)
        logger.warning(
            "webhook delivery %s recorded but not queued (broker unreachable: %s); "
            "the requeue_webhook_deliveries sweep will queue it when the broker is back",
            delivery_id,
            error,
        )
        return False
    return True


@app.task(
    **BEAT_SWEEP,
    soft_time_limit=settings.SWEEP_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.SWEEP_TASK_TIME_LIMIT,
)
def requeue_webhook_deliveries() -> dict[str, int]:
    """The beat sweep of webhooks: queue the deliveries, neither delivered nor given up, that no
    task will send (``WebhookDelivery.objects.stranded``), once they are
    WEBHOOK_REQUEUE_AFTER_SECONDS old. Safe to run twice: each is claimed before it is queued."""
    counts = {"queued": 0, "not_queued": 0}
    for delivery in list(WebhookDelivery.objects.stranded(now=timezone.now())[:SWEEP_BATCH]):
        if delivery.queued_at is not None:
            # An attempt left unfinished: its task is gone. Free the delivery for a new one
            # (unless a worker took it up again meanwhile).
            freed = WebhookDelivery.objects.filter(pk=delivery.pk, sending_since=delivery.sending_since).update(
                queued_at=None, sending_since=None
            )
            if not freed:
                continue
        if not enqueue_delivery(delivery.pk):
            # The broker is still down: the rest would fail the same way; the next sweep tries.
            counts["not_queued"] += 1
            break
        counts["queued"] += 1
    if any(counts.values()):
        logger.info("requeue_webhook_deliveries: %s", counts)
    return counts
