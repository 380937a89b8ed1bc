"""Webhooks and their delivery log in admin: each user sees their own newsrooms' only; the log
is read only."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from webhooks.models import Webhook, WebhookDelivery


def test_a_user_sees_the_webhooks_and_deliveries_of_their_newsrooms_only(client, people, settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    mine = Webhook.objects.create(newsroom=people.ai, url="http://127.0.0.1:9/mine")
    theirs = Webhook.objects.create(newsroom=people.other, url="http://127.0.0.1:9/theirs")
    for hook in (mine, theirs):
        WebhookDelivery.objects.create(webhook=hook, event="story.published", story_desk_id=81, payload="{}")
    outsider = get_user_model().objects.get(username="outsider")
    outsider.user_permissions.add(*_permissions("view_webhook", "view_webhookdelivery", "change_webhook"))
    client.force_login(outsider)

    hooks = client.get("/admin/webhooks/webhook/").content.decode()
    log = client.get("/admin/webhooks/webhookdelivery/").content.decode()
    delivery = WebhookDelivery.objects.get(webhook=mine)

    assert "/theirs" in hooks
    assert "/mine" not in hooks
    assert "1 webhook delivery" in log
    assert client.get(f"/admin/webhooks/webhook/{mine.pk}/change/").status_code == 302  # not theirs to see
    assert client.get(f"/admin/webhooks/webhookdelivery/{delivery.pk}/change/").status_code == 302
    mine_for_them = WebhookDelivery.objects.get(webhook=theirs)
    page = client.get(f"/admin/webhooks/webhookdelivery/{mine_for_them.pk}/change/")
    assert page.status_code == 200
    assert 'name="status"' not in page.content.decode()  # read only


def test_a_webhook_registered_in_admin_is_checked(client, people):
    admin = get_user_model().objects.create_superuser("root", password="x-unused-password")
    client.force_login(admin)

    response = client.post(
        "/admin/webhooks/webhook/add/",
        {"newsroom": people.ai.pk, "url": "https://169.254.169.254/latest/", "on_published": "on", "active": "on"},
    )

    assert response.status_code == 200
    assert "resolves to 169.254.169.254" in response.content.decode()
    assert not Webhook.objects.exists()


def _permissions(*codenames: str):
    from django.contrib.auth.models import Permission

    return Permission.objects.filter(content_type__app_label="webhooks", codename__in=codenames)


def test_a_chief_manages_their_newsroom_s_webhooks_in_admin_and_an_editor_cannot(client, people, settings):
    from newsroom.models import Role
    from newsroom.roles import grant_role

    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    users = get_user_model().objects
    chief, editor = users.get(username="chief"), users.get(username="editor")
    # Chief of another newsroom too: the role there must not open the first newsroom's webhooks.
    grant_role(user=editor, newsroom=people.other, role=Role.CHIEF)
    client.force_login(chief)

    response = client.post(
        "/admin/webhooks/webhook/add/",
        {"newsroom": people.ai.pk, "url": "http://127.0.0.1:9/desk", "on_published": "on", "active": "on"},
    )

    assert response.status_code == 302, response.content.decode()
    hook = Webhook.objects.get(url="http://127.0.0.1:9/desk")
    assert hook.newsroom == people.ai
    assert "/desk" in client.get("/admin/webhooks/webhook/").content.decode()
    other_room = client.get("/admin/webhooks/webhook/add/").content.decode()
    assert f'value="{people.other.pk}"' not in other_room  # only their newsrooms to choose from
    response = client.post(f"/admin/webhooks/webhook/{hook.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Webhook.objects.exists()

    theirs = Webhook.objects.create(newsroom=people.ai, url="http://127.0.0.1:9/ai")
    client.force_login(editor)
    assert "/ai" not in client.get("/admin/webhooks/webhook/").content.decode()
    assert client.get(f"/admin/webhooks/webhook/{theirs.pk}/change/").status_code == 302  # not theirs to see


def test_a_chief_pings_and_redelivers_in_admin_through_the_apis_functions(
    client, people, settings, django_capture_on_commit_callbacks
):
    from tests.webhooks.test_webhooks import Receiver

    settings.WEBHOOKS_ALLOW_LOOPBACK = True
    receiver = Receiver(failures=0)
    try:
        hook = Webhook.objects.create(newsroom=people.ai, url=receiver.url)
        client.force_login(get_user_model().objects.get(username="chief"))

        with django_capture_on_commit_callbacks(execute=True):
            client.post("/admin/webhooks/webhook/", {"action": "send_ping", "_selected_action": [hook.pk]})
        ping = WebhookDelivery.objects.get(event="ping")
        with django_capture_on_commit_callbacks(execute=True):
            client.post("/admin/webhooks/webhookdelivery/", {"action": "redeliver", "_selected_action": [ping.pk]})

        assert [request["headers"]["X-Newsroom-Event"] for request in receiver.requests] == ["ping", "ping"]
        assert list(WebhookDelivery.objects.values_list("status", flat=True)) == ["delivered", "delivered"]
    finally:
        receiver.stop()
