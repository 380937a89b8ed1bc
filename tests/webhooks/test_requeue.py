"""Deliveries the broker could not take are queued later, by the beat sweep; a delivery queued
twice is sent once. The receiver is a real HTTP server on 127.0.0.1, the broker a Redis that is
not there (a port nothing listens on), then Redis itself or in-process tasks."""

from __future__ import annotations

import json
import logging
import signal
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings as django_settings
from django.utils import timezone

from newsroom.models import Newsroom
from tests.factories import NewsroomFactory
from tests.webhooks.test_webhooks import Receiver
from tests.workflow.conftest import UNREACHABLE_BROKER, own_redis_broker
from webhooks.models import Webhook, WebhookDelivery
from webhooks.services import webhook_deliver
from webhooks.tasks import deliver_webhook_task, enqueue_delivery, requeue_webhook_deliveries


@pytest.fixture
def taker(settings):
    """A receiver that takes every delivery at once."""
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    receiver = Receiver(failures=0)
    yield receiver
    receiver.stop()


@pytest.fixture
def refuser(settings):
    """A receiver that never takes a delivery."""
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    receiver = Receiver(failures=1000)
    yield receiver
    receiver.stop()


@pytest.fixture
def newsroom(db) -> Newsroom:
    return NewsroomFactory(slug="hooked-desk")


def recorded(newsroom: Newsroom, receiver: Any) -> WebhookDelivery:
    """A delivery as the story_changed receiver records it, not queued yet."""
    hook = Webhook.objects.create(newsroom=newsroom, url=receiver.url)
    return WebhookDelivery.objects.create(webhook=hook, event="story.published", story_desk_id=81, payload="{}")


def row(delivery: WebhookDelivery) -> WebhookDelivery:
    return WebhookDelivery.objects.get(pk=delivery.pk)


def test_the_beat_sweep_is_scheduled_on_the_webhooks_queue():
    [entry] = [e for e in django_settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == requeue_webhook_deliveries.name]
    assert entry["schedule"] == 60.0
    assert django_settings.CELERY_TASK_ROUTES[requeue_webhook_deliveries.name] == {"queue": "webhooks"}
    assert requeue_webhook_deliveries.soft_time_limit < requeue_webhook_deliveries.time_limit


def test_a_delivery_recorded_while_the_broker_is_down_is_sent_by_the_sweep_once_it_is_back(
    newsroom, taker, switch_broker, settings, caplog
):
    delivery = recorded(newsroom, taker)
    switch_broker(UNREACHABLE_BROKER, eager=False)

    with caplog.at_level(logging.WARNING, logger="webhooks.tasks"):
        assert enqueue_delivery(delivery.pk) is False

    assert f"webhook delivery {delivery.pk} recorded but not queued" in caplog.text
    assert (row(delivery).status, row(delivery).queued_at, row(delivery).attempts) == ("pending", None, 0)
    # Within its grace period the sweep leaves it alone (its first queuing may be under way).
    assert requeue_webhook_deliveries() == {"queued": 0, "not_queued": 0}

    # Past it, with the broker still down: tried, kept, and said so.
    settings.WEBHOOK_REQUEUE_AFTER_SECONDS = 0
    assert requeue_webhook_deliveries() == {"queued": 0, "not_queued": 1}
    assert row(delivery).queued_at is None

    # The broker is back (here: tasks run in-process): the sweep queues it and it is sent, once.
    switch_broker("memory://", eager=True)
    assert requeue_webhook_deliveries() == {"queued": 1, "not_queued": 0}
    assert row(delivery).status == "delivered"
    assert len(taker.requests) == 1
    assert requeue_webhook_deliveries() == {"queued": 0, "not_queued": 0}


def test_the_sweep_leaves_alone_what_a_task_holds_what_was_sent_and_what_was_given_up(
    newsroom, taker, switch_broker, settings
):
    settings.WEBHOOK_REQUEUE_AFTER_SECONDS = 0
    switch_broker(UNREACHABLE_BROKER, eager=False)  # any queuing would be seen failing
    held, sent, given_up = (recorded(newsroom, taker) for _ in range(3))
    WebhookDelivery.objects.filter(pk=held.pk).update(queued_at=timezone.now())
    WebhookDelivery.objects.filter(pk=sent.pk).update(status="delivered")
    WebhookDelivery.objects.filter(pk=given_up.pk).update(status="failed")

    assert requeue_webhook_deliveries() == {"queued": 0, "not_queued": 0}


@pytest.fixture
def test_redis(require_redis, switch_broker):
    """A Redis database of this test's own (not the suite's), emptied before and after."""
    yield from own_redis_broker(require_redis, switch_broker, 12)  # 13 is test_serve's, 14 test_tasks'


def test_the_sweep_puts_the_delivery_on_the_webhooks_queue_of_a_real_redis_once(newsroom, taker, test_redis, settings):
    settings.WEBHOOK_REQUEUE_AFTER_SECONDS = 0
    delivery = recorded(newsroom, taker)

    assert requeue_webhook_deliveries()["queued"] == 1
    assert requeue_webhook_deliveries()["queued"] == 0  # a task holds it now

    messages = [json.loads(raw) for raw in test_redis.lrange("webhooks", 0, -1)]
    assert [message["headers"]["task"] for message in messages] == [deliver_webhook_task.name]
    assert messages[0]["headers"]["argsrepr"] == f"[{delivery.pk}]"
    assert row(delivery).queued_at is not None


def test_a_next_attempt_the_broker_cannot_take_is_left_for_the_sweep(newsroom, refuser, switch_broker, settings):
    delivery = recorded(newsroom, refuser)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(queued_at=timezone.now())
    switch_broker(UNREACHABLE_BROKER, eager=False)

    # The task as a worker runs it: its retry must be published to the broker, which is down.
    deliver_webhook_task.push_request(
        id="webhook-test", args=[delivery.pk], kwargs={}, retries=0, called_directly=False
    )
    try:
        outcome = deliver_webhook_task.run(delivery.pk)
    finally:
        deliver_webhook_task.pop_request()

    assert outcome == "not_queued"
    assert (row(delivery).status, row(delivery).attempts, row(delivery).queued_at) == ("pending", 1, None)
    settings.WEBHOOK_REQUEUE_AFTER_SECONDS = 0
    assert WebhookDelivery.objects.stranded(now=timezone.now()).get() == row(delivery)


def test_an_attempt_its_task_left_unfinished_is_queued_again_once_it_cannot_be_running(
    newsroom, taker, settings, switch_broker
):
    switch_broker("memory://", eager=True)
    settings.WEBHOOK_REQUEUE_AFTER_SECONDS = 60
    delivery = recorded(newsroom, taker)
    claimed = timezone.now() - timedelta(seconds=settings.WEBHOOK_TASK_TIME_LIMIT + 30)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(queued_at=claimed, sending_since=claimed, attempts=1)

    # Within the task's hard time limit and the grace period after it, it may still be running.
    assert requeue_webhook_deliveries()["queued"] == 0

    gone = timezone.now() - timedelta(seconds=settings.WEBHOOK_TASK_TIME_LIMIT + 61)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(sending_since=gone)
    assert requeue_webhook_deliveries()["queued"] == 1

    assert (row(delivery).status, row(delivery).attempts) == ("delivered", 2)
    assert len(taker.requests) == 1


class StalledReceiver:
    """A receiver that, once a request has arrived, interrupts the test's main thread with the
    signal Celery's soft time limit uses, and answers nothing until stopped."""

    def __init__(self) -> None:
        main = threading.main_thread().ident
        self.release = threading.Event()
        release = self.release

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                signal.pthread_kill(main, signal.SIGUSR1)
                release.wait(timeout=10)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/newsroom"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def soft_time_limit_on_sigusr1():
    """What a Celery worker's pool does: SIGUSR1 raises SoftTimeLimitExceeded in the task."""

    def raise_soft_limit(signum: int, frame: Any) -> None:
        raise SoftTimeLimitExceeded()

    previous = signal.signal(signal.SIGUSR1, raise_soft_limit)
    yield
    signal.signal(signal.SIGUSR1, previous)


def test_an_attempt_cut_short_by_the_soft_time_limit_frees_its_claim(newsroom, settings, soft_time_limit_on_sigusr1):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    stalled = StalledReceiver()
    try:
        delivery = recorded(newsroom, stalled)
        with pytest.raises(SoftTimeLimitExceeded):
            webhook_deliver(delivery_id=delivery.pk, final=False)
    finally:
        stalled.stop()

    # The next attempt (the task's retry) may go at once: no claim is left behind.
    assert (row(delivery).status, row(delivery).attempts, row(delivery).sending_since) == ("pending", 1, None)


# --- Queued twice, sent once -------------------------------------------------------------------


def test_a_delivery_queued_twice_is_sent_once(newsroom, taker):
    delivery = recorded(newsroom, taker)

    assert webhook_deliver(delivery_id=delivery.pk, final=False) == "delivered"
    assert webhook_deliver(delivery_id=delivery.pk, final=False) == "delivered"

    assert len(taker.requests) == 1
    assert row(delivery).attempts == 1


def test_an_attempt_under_way_is_not_made_again_until_its_worker_is_known_dead(newsroom, taker, settings):
    delivery = recorded(newsroom, taker)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(sending_since=timezone.now(), attempts=1)

    assert webhook_deliver(delivery_id=delivery.pk, final=False) == "in_flight"
    assert taker.requests == []
    assert row(delivery).attempts == 1

    # Past the task's hard time limit no attempt can still be running: it is taken over.
    dead = timezone.now() - timedelta(seconds=settings.WEBHOOK_TASK_TIME_LIMIT + 1)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(sending_since=dead)
    assert webhook_deliver(delivery_id=delivery.pk, final=False) == "delivered"
    assert len(taker.requests) == 1
    assert (row(delivery).attempts, row(delivery).sending_since) == (2, None)


@pytest.mark.postgres
def test_two_workers_at_once_on_one_delivery_send_it_once(transactional_db, require_postgres, newsroom, taker):
    from tests.workflow.test_concurrency import at_once

    delivery = recorded(newsroom, taker)

    outcomes = at_once([lambda: webhook_deliver(delivery_id=delivery.pk, final=False) for _ in range(4)])

    # Whoever came second found the attempt under way, or already delivered.
    assert "delivered" in outcomes
    assert set(outcomes) <= {"delivered", "in_flight"}
    assert len(taker.requests) == 1
    assert row(delivery).attempts == 1


def test_the_eager_path_still_makes_every_attempt_at_once(newsroom, refuser):
    delivery = recorded(newsroom, refuser)

    assert enqueue_delivery(delivery.pk) is True

    assert row(delivery).status == "failed"
    assert row(delivery).attempts == deliver_webhook_task.max_retries + 1 == len(refuser.requests)
    assert row(delivery).sending_since is None
