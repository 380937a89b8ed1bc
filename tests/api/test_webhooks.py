"""Webhooks through the API, for chiefs: the same functions as admin, the same URL guard, a real
receiver on 127.0.0.1 for pings and redeliveries; another newsroom's webhook is not there."""

from __future__ import annotations

import json

import pytest

from tests.webhooks.test_webhooks import Receiver, verifies
from webhooks.models import Webhook, WebhookDelivery

from .conftest import body, post_json

HOOKS = "/api/v1/webhooks/"


@pytest.fixture
def loopback(settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True


@pytest.fixture
def receiver(loopback):
    receiver = Receiver(failures=0)
    yield receiver
    receiver.stop()


def register(client, who, url, key=None, **fields):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return post_json(client, HOOKS, {"newsroom": "artificial-intelligence", "url": url, **fields}, **who, **headers)


def test_a_chief_registers_a_webhook_and_sees_its_secret_once(client, people, receiver):
    response = register(client, people.chief, receiver.url, events=["story.retracted", "story.published"])

    assert response.status_code == 201, response.content
    made = body(response)
    hook = Webhook.objects.get(pk=made["id"])
    assert made["secret"] == hook.secret
    assert made["events"] == ["story.published", "story.retracted"]
    assert (hook.on_published, hook.on_corrected, hook.on_retracted) == (True, False, True)
    assert response["Location"] == made["self_url"] == f"http://testserver/api/v1/webhooks/{hook.pk}/"
    listed = body(client.get(HOOKS, **people.chief))["results"]
    assert [entry["id"] for entry in listed] == [hook.pk]
    assert "secret" not in listed[0]
    assert "secret" not in body(client.get(made["self_url"], **people.chief))


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://10.0.0.1/hook", "resolves to 10.0.0.1"),
        ("ftp://127.0.0.1/hook", "must be an https:// URL"),
        ("https://169.254.169.254/latest/meta-data", "resolves to 169.254.169.254"),
    ],
)
def test_a_url_the_guard_refuses_is_a_400_at_url(client, people, loopback, url, why):
    response = register(client, people.chief, url)

    assert response.status_code == 400
    [problem] = body(response)["problems"]
    assert problem["at"] == "url"
    assert why in problem["message"]
    assert not Webhook.objects.exists()


def test_bad_fields_are_a_400_naming_each(client, people, loopback):
    fields = {"newsroom": 5, "url": "http://127.0.0.1/h", "events": ["story.liked"]}

    response = post_json(client, HOOKS, fields, **people.chief)

    assert response.status_code == 400
    assert {problem["at"] for problem in body(response)["problems"]} == {"newsroom", "events[0]"}


def test_an_editor_or_another_newsrooms_chief_cannot_register_here(client, people, receiver):
    for who in (people.editor, people.outsider):
        response = register(client, who, receiver.url)

        assert response.status_code == 403
        assert body(response)["problems"][0]["at"] == "newsroom"
    assert not Webhook.objects.exists()


def test_another_newsrooms_webhook_is_a_404_everywhere(client, people, receiver):
    theirs = Webhook.objects.create(newsroom=people.other, url=receiver.url)
    delivery = WebhookDelivery.objects.create(webhook=theirs, event="ping", payload="{}", status="delivered")
    base = f"{HOOKS}{theirs.pk}/"

    assert body(client.get(HOOKS, **people.chief))["results"] == []
    assert client.get(base, **people.chief).status_code == 404
    assert client.delete(base, **people.chief).status_code == 404
    assert post_json(client, f"{base}ping/", {}, **people.chief).status_code == 404
    assert client.get(f"{base}deliveries/", **people.chief).status_code == 404
    assert post_json(client, f"{base}deliveries/{delivery.pk}/redeliver/", {}, **people.chief).status_code == 404
    assert Webhook.objects.filter(pk=theirs.pk).exists()
    assert receiver.requests == []
    # An editor of the webhook's own newsroom does not manage it either.
    mine = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    assert client.get(f"{HOOKS}{mine.pk}/", **people.editor).status_code == 404


def test_a_chief_deletes_a_webhook(client, people, receiver):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)

    response = client.delete(f"{HOOKS}{hook.pk}/", **people.chief)

    assert response.status_code == 204
    assert not Webhook.objects.filter(pk=hook.pk).exists()


def test_a_ping_arrives_signed_and_is_logged(client, people, receiver, django_capture_on_commit_callbacks):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)

    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(client, f"{HOOKS}{hook.pk}/ping/", {}, **people.chief)

    assert response.status_code == 202, response.content
    [request] = receiver.requests
    assert verifies(hook.secret, request)
    assert request["headers"]["X-Newsroom-Event"] == "ping"
    sent = json.loads(request["body"])
    assert sent["webhook"] == {
        "id": hook.pk,
        "newsroom": "artificial-intelligence",
        "url": receiver.url,
        "events": ["story.published", "story.corrected", "story.retracted"],
    }
    log = body(client.get(f"{HOOKS}{hook.pk}/deliveries/", **people.chief))["results"]
    assert [(entry["event"], entry["story"], entry["status"], entry["last_status_code"]) for entry in log] == [
        ("ping", None, "delivered", 204)
    ]


def test_a_delivery_is_sent_again_as_a_new_one(client, people, receiver, django_capture_on_commit_callbacks):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    failed = WebhookDelivery.objects.create(
        webhook=hook, event="story.corrected", story_desk_id=81, payload='{"event":"story.corrected"}', status="failed"
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(client, f"{HOOKS}{hook.pk}/deliveries/{failed.pk}/redeliver/", {}, **people.chief)

    assert response.status_code == 202, response.content
    again = body(response)
    assert again["id"] != failed.pk
    assert (again["event"], again["story"]) == ("story.corrected", "81")
    assert WebhookDelivery.objects.get(pk=again["id"]).status == "delivered"
    assert [request["body"] for request in receiver.requests] == [b'{"event":"story.corrected"}']
    failed.refresh_from_db()
    assert failed.status == "failed"  # the log keeps the first


def test_a_delivery_still_being_tried_is_not_sent_again(client, people, receiver):
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
    pending = WebhookDelivery.objects.create(webhook=hook, event="story.published", story_desk_id=81, payload="{}")

    response = post_json(client, f"{HOOKS}{hook.pk}/deliveries/{pending.pk}/redeliver/", {}, **people.chief)

    assert response.status_code == 409
    assert body(response)["error"] == "conflict"
    assert WebhookDelivery.objects.count() == 1


def test_reading_needs_read_and_changing_needs_publish(client, people, receiver):
    from django.contrib.auth import get_user_model

    from api.tokens import token_create

    from .conftest import bearer

    chief = get_user_model().objects.get(username="chief")
    reader = bearer(token_create(user=chief, expiry=None, scopes=["read"])[1])
    publisher = bearer(token_create(user=chief, expiry=None, scopes=["publish"])[1])
    hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)

    assert client.get(HOOKS, **reader).status_code == 200
    refused = register(client, reader, receiver.url)
    assert refused.status_code == 403
    assert body(refused)["error"] == "insufficient_scope"
    assert client.delete(f"{HOOKS}{hook.pk}/", **reader).status_code == 403
    assert body(client.get(HOOKS, **publisher))["error"] == "insufficient_scope"
    assert register(client, publisher, receiver.url).status_code == 201


def test_a_registration_sent_twice_with_one_key_registers_one_webhook(client, people, receiver):
    first = register(client, people.chief, receiver.url, key="hook-1")
    again = register(client, people.chief, receiver.url, key="hook-1")

    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Location"] == first["Location"]
    assert Webhook.objects.count() == 1
