"""Delivering webhooks on Celery: each delivery its own task, retried with exponential backoff."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from newsroom.celery import app
from verification.tasks import BROKER_ERRORS, TRANSIENT_DATABASE_ERRORS

from .services import webhook_deliver

logger = logging.getLogger(__name__)


class DeliveryFailed(Exception):
    """The receiver did not take the delivery this time; Celery tries again later."""


@app.task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DeliveryFailed, *TRANSIENT_DATABASE_ERRORS),
    max_retries=settings.WEBHOOK_MAX_RETRIES,
    retry_backoff=settings.WEBHOOK_RETRY_BACKOFF_SECONDS,
    retry_backoff_max=settings.WEBHOOK_RETRY_BACKOFF_MAX_SECONDS,
    retry_jitter=True,
    soft_time_limit=settings.WEBHOOK_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.WEBHOOK_TASK_TIME_LIMIT,
)
def deliver_webhook_task(self: Any, delivery_id: int) -> str:
    """One attempt at a delivery. The last attempt records the failure and ends quietly rather
    than raise: with eager tasks the error would reach the request that published the story."""
    outcome = webhook_deliver(delivery_id=delivery_id, final=self.request.retries >= self.max_retries)
    if outcome == "retry":
        raise DeliveryFailed(f"delivery {delivery_id} not taken (attempt {self.request.retries + 1})")
    return outcome


def enqueue_delivery(delivery_id: int) -> None:
    """Queue a delivery's task; with eager tasks (no workers), make its attempts here.

    Celery's eager mode raises a retry to the caller instead of running it (we propagate eager
    errors), so the attempts are made in this loop, as many as the task allows, without waiting
    out the backoff a worker would wait."""
    if app.conf.task_always_eager:
        for retries in range(deliver_webhook_task.max_retries + 1):
            final = retries == deliver_webhook_task.max_retries
            if webhook_deliver(delivery_id=delivery_id, final=final) != "retry":
                return
        return
    try:
        deliver_webhook_task.apply_async(args=[delivery_id])
    except BROKER_ERRORS as error:
        logger.warning("webhook delivery %s recorded but not queued (broker unreachable: %s)", delivery_id, error)
