"""Webhooks: a real HTTP receiver on 127.0.0.1 gets every event, signed, after failing twice;
URLs pointing inward are refused at registration and at delivery."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import threading
import time
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from stories.models import Story
from stories.services import story_add_correction, story_retract
from tests.api.conftest import fresh_document, new_document, post_json
from webhooks.guard import address_allowed, carried_ipv4
from webhooks.models import Webhook, WebhookDelivery
from webhooks.services import deliveries_create, webhook_deliver


class Receiver:
    """An HTTP server on 127.0.0.1 that answers 500 to the first ``failures`` tries of each
    delivery, then 204, and keeps every request it got."""

    def __init__(self, failures: int):
        self.failures = failures
        self.requests: list[dict[str, Any]] = []
        self.tries: dict[str, int] = defaultdict(int)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                data = self.rfile.read(length)
                delivery = self.headers["X-Newsroom-Delivery"]
                receiver.tries[delivery] += 1
                ok = receiver.tries[delivery] > receiver.failures
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": data, "ok": ok})
                self.send_response(204 if ok else 500)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/newsroom"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def taken(self) -> list[dict[str, Any]]:
        return [request for request in self.requests if request["ok"]]


@pytest.fixture
def loopback(settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True


@pytest.fixture
def receiver(loopback):
    receiver = Receiver(failures=2)
    yield receiver
    receiver.stop()


def verifies(secret: str, request: dict[str, Any]) -> bool:
    """What a receiver does: recompute the signature, and refuse an old timestamp."""
    fields = dict(part.split("=", 1) for part in request["headers"]["X-Newsroom-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + request["body"], hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) < 300


def test_every_event_arrives_signed_after_the_receiver_fails_twice(
    client, people, receiver, django_capture_on_commit_callbacks
):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    hook.full_clean()
    chief = get_user_model().objects.get(username="chief")

    with django_capture_on_commit_callbacks(execute=True):  # the submission's checks
        post_json(client, "/api/v1/stories/", fresh_document(desk_id="9200", slug="hooked"), **people.editor)
    # The publication's own commit hooks (the signal) ran inside the eager task; corrections and
    # retractions send theirs when their transaction commits.
    story = Story.objects.get(desk_id=9200)
    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=story, text="A name was misspelled.", user=chief)
    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=story, user=chief, reason="The source withdrew it.")

    taken = receiver.taken()
    events = [json.loads(request["body"])["event"] for request in taken]
    assert events == ["story.published", "story.corrected", "story.retracted"]
    assert len(receiver.requests) == 9  # each event: two 500s, then taken
    assert all(verifies(hook.secret, request) for request in receiver.requests)
    assert not verifies("another secret", taken[0])
    assert {request["path"] for request in receiver.requests} == {"/hooks/newsroom"}
    assert [request["headers"]["X-Newsroom-Event"] for request in taken] == events
    published = json.loads(taken[0]["body"])
    assert published["story"]["id"] == "9200"
    assert published["story"]["newsroom"] == "artificial-intelligence"
    assert published["story"]["api_url"].endswith("/api/v1/stories/9200/")
    assert json.loads(taken[2]["body"])["story"]["reason"] == "The source withdrew it."
    log = WebhookDelivery.objects.order_by("pk")
    assert [(row.event, row.status, row.attempts, row.last_status_code) for row in log] == [
        ("story.published", "delivered", 3, 204),
        ("story.corrected", "delivered", 3, 204),
        ("story.retracted", "delivered", 3, 204),
    ]


def test_a_webhook_hears_only_its_newsrooms_stories_and_chosen_events(
    client, people, receiver, django_capture_on_commit_callbacks
):
    Webhook.objects.create(newsroom=people.other, url=receiver.url)
    Webhook.objects.create(newsroom=people.ai, url=receiver.url, on_published=False, on_retracted=False)
    chief = get_user_model().objects.get(username="chief")
    story = Story.objects.get(desk_id=81)

    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=story, user=chief, reason="Withdrawn.")
    with django_capture_on_commit_callbacks(execute=True):
        post_json(client, "/api/v1/stories/", new_document(desk_id="9201", slug="not-heard"), **people.editor)

    assert receiver.requests == []
    assert not WebhookDelivery.objects.exists()


def test_a_receiver_that_never_takes_it_is_given_up_after_the_retries(people, loopback, settings):
    from webhooks.tasks import deliver_webhook_task, enqueue_delivery

    never = Receiver(failures=1000)
    try:
        hook = Webhook.objects.create(newsroom=people.ai, url=never.url)
        delivery = WebhookDelivery.objects.create(webhook=hook, event="story.published", story_desk_id=81, payload="{}")

        enqueue_delivery(delivery.pk)  # eager: every attempt at once, no backoff waited

    finally:
        never.stop()

    delivery.refresh_from_db()
    assert delivery.status == "failed"
    assert delivery.attempts == deliver_webhook_task.max_retries + 1 == len(never.requests)
    assert delivery.last_status_code == 500
    assert delivery.last_error.startswith("answered 500")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://example.com/hook", "must be an https:// URL"),
        ("ftp://example.com/hook", "must be an https:// URL"),
        ("https://127.0.0.1/hook", "resolves to 127.0.0.1"),
        ("https://localhost/hook", "loopback"),
        ("https://10.1.2.3/hook", "resolves to 10.1.2.3"),
        ("https://192.168.0.10/hook", "private"),
        ("https://169.254.169.254/latest/meta-data/", "resolves to 169.254.169.254"),
        ("https://[::1]/hook", "resolves to ::1"),
        ("https://[::ffff:10.0.0.1]/hook", "resolves to ::ffff:a00:1 (carrying 10.0.0.1)"),
        ("https://[::ffff:127.0.0.1]/hook", "resolves to ::ffff:7f00:1 (carrying 127.0.0.1)"),
        ("https://[::127.0.0.1]/hook", "resolves to ::7f00:1 (carrying 127.0.0.1)"),
        ("https://[::169.254.169.254]/hook", "carrying 169.254.169.254"),
        ("https://[64:ff9b::7f00:1]/hook", "resolves to 64:ff9b::7f00:1 (carrying 127.0.0.1)"),
        ("https://[64:ff9b:1::a00:1]/hook", "carrying 10.0.0.1"),
        ("https://[2002:7f00:1::]/hook", "resolves to 2002:7f00:1:: (carrying 127.0.0.1)"),
        ("https://[2002:c0a8:1::1]/hook", "carrying 192.168.0.1"),
        # Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (80ff:fffe).
        ("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "carrying 65.54.227.120, 127.0.0.1"),
        ("https://100.64.0.1/hook", "resolves to 100.64.0.1"),
        ("https://0.0.0.0/hook", "resolves to 0.0.0.0"),
        ("https://user:pass@93.184.215.14/hook", "must not carry a user name or password"),
        ("https://no-such-host.invalid/hook", "does not resolve"),
    ],
)
def test_a_url_pointing_inward_or_not_https_is_refused_at_registration(people, url, why):
    hook = Webhook(newsroom=people.ai, url=url)

    with pytest.raises(ValidationError) as refused:
        hook.full_clean()

    assert why in str(refused.value.message_dict["url"])


@pytest.mark.parametrize(
    "host",
    [
        "93.184.215.14",
        "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]",
        "[::ffff:93.184.215.14]",
        "[::93.184.215.14]",
        "[64:ff9b::5db8:d70e]",
        "[2002:5db8:d70e::1]",
        # Teredo: server 65.54.227.120, client 93.184.215.14 stored inverted.
        "[2001:0:4136:e378:8000:63bf:a247:28f1]",
    ],
)
def test_a_public_https_address_is_accepted(people, host):
    Webhook(newsroom=people.ai, url=f"https://{host}/hook").full_clean()


def test_the_guard_judges_the_ipv4_address_an_ipv6_address_carries():
    judged = {
        text: address_allowed(ipaddress.ip_address(text))
        for text in ("::ffff:127.0.0.1", "::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::", "64:ff9b::5db8:d70e")
    }

    assert judged == {
        "::ffff:127.0.0.1": False,
        "::7f00:1": False,
        "64:ff9b::7f00:1": False,
        "2002:7f00:1::": False,
        "64:ff9b::5db8:d70e": True,
    }
    assert carried_ipv4(ipaddress.ip_address("::1")) == []  # IPv6's own loopback, not 0.0.0.1


def test_loopback_allowed_for_tests_still_refuses_private_addresses(people, loopback):
    Webhook(newsroom=people.ai, url="http://127.0.0.1:9/hook").full_clean()
    with pytest.raises(ValidationError):
        Webhook(newsroom=people.ai, url="http://10.0.0.1/hook").full_clean()


def test_the_guard_holds_again_at_delivery(people, settings, receiver):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    delivery = WebhookDelivery.objects.create(webhook=hook, event="story.published", story_desk_id=81, payload="{}")
    settings.WEBHOOKS_ALLOW_LOOPBACK = False  # registered while allowed; no longer

    outcome = webhook_deliver(delivery_id=delivery.pk, final=False)

    delivery.refresh_from_db()
    assert outcome == delivery.status == "failed"
    assert delivery.last_error.startswith("refused: the URL must be an https:// URL")
    assert receiver.requests == []


def test_a_publication_still_unsent_when_the_story_is_retracted_is_withheld(
    client, people, receiver, django_capture_on_commit_callbacks
):
    """A delivery the broker could not take (the sweep sends it later) may outlive its story:
    once retracted, the story's headline and link are no longer public, so only the retraction
    goes out."""
    chief = get_user_model().objects.get(username="chief")
    with django_capture_on_commit_callbacks(execute=True):
        post_json(client, "/api/v1/stories/", fresh_document(desk_id="9202", slug="withheld"), **people.editor)
    story = Story.objects.get(desk_id=9202)
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    (stranded,) = deliveries_create(story=story, action="published")  # recorded, never queued
    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=story, user=chief, reason="The source withdrew it.")

    assert webhook_deliver(delivery_id=stranded.pk, final=False) == WebhookDelivery.Status.WITHHELD

    stranded.refresh_from_db()
    assert (stranded.status, stranded.attempts, stranded.last_status_code) == ("withheld", 1, None)
    assert "retracted" in stranded.last_error
    assert [json.loads(request["body"])["event"] for request in receiver.taken()] == ["story.retracted"]
    assert all(request["headers"]["X-Newsroom-Event"] == "story.retracted" for request in receiver.requests)
    assert hook.deliveries.get(event="story.retracted").status == "delivered"
