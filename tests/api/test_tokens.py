"""API tokens: made by manage.py create_api_token (printed once) or in admin, stored as digests,
expiring, revocable."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone
from knox.models import AuthToken

from verification.models import VerificationRun

from .conftest import bearer, body


def seed_run_url() -> str:
    return f"/api/v1/runs/{VerificationRun.objects.filter(story__desk_id=81).first().pk}/"


def make_token(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_token", *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue()


def test_the_command_prints_a_token_once_and_keeps_only_its_digest(people, client):
    token, said = make_token("editor")

    stored = AuthToken.objects.get(user__username="editor", token_key=token[:15], expiry__isnull=False)
    assert len(token) == 64
    assert token not in stored.digest
    assert "shown once" in said
    # It works, as its user: a run of the editor's newsroom is readable with it.
    assert client.get(seed_run_url(), **bearer(token)).status_code == 200
    wrong = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert client.get(seed_run_url(), HTTP_AUTHORIZATION="Bearer " + wrong).status_code == 401


def test_a_token_expires_after_the_days_asked(people, settings):
    settings.API_TOKEN_TTL_DAYS = 90
    token, _ = make_token("editor", "--expires-in", "3")

    stored = AuthToken.objects.get(token_key=token[:15])
    assert abs(stored.expiry - (timezone.now() + dt.timedelta(days=3))) < dt.timedelta(minutes=1)


def test_zero_days_never_expires(people):
    token, said = make_token("editor", "--expires-in", "0")

    assert AuthToken.objects.get(token_key=token[:15]).expiry is None
    assert "expires never" in said


def test_a_user_with_no_role_is_warned_that_the_token_can_only_read(db):
    get_user_model().objects.create_user("reader", password="x-unused-password")

    _, said = make_token("reader")

    assert "has no role in any newsroom" in said


@pytest.mark.parametrize(
    ("args", "message"),
    [(["nobody"], "there is no user named 'nobody'"), (["editor", "--expires-in", "-1"], "--expires-in")],
)
def test_the_command_refuses_what_it_cannot_do(people, args, message):
    with pytest.raises(CommandError, match=message):
        make_token(*args)


def test_a_revoked_token_is_refused(people, client):
    token, _ = make_token("chief")
    AuthToken.objects.filter(token_key=token[:15]).delete()  # what admin's delete does

    response = client.post("/api/v1/stories/81/publish/", data={}, content_type="application/json", **bearer(token))

    assert response.status_code == 401
    assert body(response)["error"] == "authentication_failed"


def test_a_superuser_makes_a_token_in_admin_and_sees_it_once(people, client):
    admin = get_user_model().objects.create_superuser("root", password="x-unused-password")
    editor = get_user_model().objects.get(username="editor")
    client.force_login(admin)

    response = client.post(
        "/admin/knox/authtoken/add/",
        {"user": editor.pk, "expiry_0": "2099-01-01", "expiry_1": "00:00:00"},
        follow=True,
    )

    assert response.status_code == 200
    shown = [str(message) for message in response.context["messages"]]
    token = next(message.removeprefix("TOKEN ") for message in shown if message.startswith("TOKEN "))
    assert AuthToken.objects.filter(user=editor, token_key=token[:15]).exists()
    client.logout()
    assert client.get(seed_run_url(), **bearer(token)).status_code == 200


def test_me_says_who_the_token_is_and_its_roles(client, people):
    from .conftest import body

    chief = body(client.get("/api/v1/me/", **people.chief))
    outsider = body(client.get("/api/v1/me/", **people.outsider))

    token = chief.pop("token")
    assert chief == {
        "username": "chief",
        "superuser": False,
        "newsrooms": [
            {
                "newsroom": "artificial-intelligence",
                "title": people.ai.title,
                "role": "chief",
                "scopes": ["read", "submit", "publish"],
                "url": "http://testserver/api/v1/newsrooms/artificial-intelligence/",
            }
        ],
    }
    assert token["scopes"] == ["read", "submit", "publish"]
    assert token["expires_at"] is not None  # API_TOKEN_TTL_DAYS after it was made
    assert set(token) == {"scopes", "created_at", "expires_at"}
    assert [(room["newsroom"], room["role"]) for room in outsider["newsrooms"]] == [("other-desk", "chief")]
    assert client.get("/api/v1/me/").status_code == 401
