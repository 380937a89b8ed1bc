"""Sign-in lockout: LOGIN_FAILURE_LIMIT wrong passwords lock a username at one client address
out for LOGIN_LOCKOUT_MINUTES (the pair, so no one can lock a user out from elsewhere); the
locked-out user is told when to try again; a command or the admin unlocks at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from axes.models import AccessAttempt
from django.conf import settings
from django.core.checks import run_checks
from django.core.management import call_command
from django.test import RequestFactory

from newsroom.ops.lockout import client_ip

LOGIN_URL = "/admin/login/"
PASSWORD = "a long and correct horse battery"
NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


@pytest.fixture
def editor(django_user_model):
    return django_user_model.objects.create_user("ed", password=PASSWORD, is_staff=True)


def sign_in(client, username: str, password: str, address: str = "192.0.2.10"):
    return client.post(LOGIN_URL, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in_as(client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return None if user_id is None else str(user_id)


def fail(client, times: int, username: str = "ed", address: str = "192.0.2.10") -> None:
    for number in range(1, times + 1):
        response = sign_in(client, username, "wrong password", address)
        # The login form again with its usual error, until the failure that reaches the limit.
        assert response.status_code == (429 if number == settings.LOGIN_FAILURE_LIMIT else 200)


@pytest.mark.django_db
def test_the_limit_of_wrong_passwords_locks_the_username_and_then_refuses_the_right_one(client, editor):
    with time_machine.travel(NOW, tick=False):
        fail(client, settings.LOGIN_FAILURE_LIMIT - 1)
        locking = sign_in(client, "ed", "wrong password")
        refused = sign_in(client, "ed", PASSWORD)

    retry_at = NOW + timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES)
    for response in (locking, refused):
        assert response.status_code == 429
        page = response.content.decode()
        assert "Too many failed sign-ins" in page
        assert f'Sign-in is locked until <strong><time datetime="{retry_at.isoformat()}">' in page
        assert f"{retry_at:%H:%M} UTC on {retry_at.day} {retry_at:%B %Y}" in page
        assert response["Retry-After"] == str(settings.LOGIN_LOCKOUT_MINUTES * 60)
    assert signed_in_as(client) is None


@pytest.mark.django_db
def test_tries_during_the_lockout_do_not_move_the_time_the_user_was_told(client, editor):
    with time_machine.travel(NOW, tick=False):
        fail(client, settings.LOGIN_FAILURE_LIMIT - 1)
        sign_in(client, "ed", "wrong password")
    with time_machine.travel(NOW + timedelta(minutes=5), tick=False):
        refused = sign_in(client, "ed", "another wrong password")
    assert refused.status_code == 429
    assert refused["Retry-After"] == str((settings.LOGIN_LOCKOUT_MINUTES - 5) * 60)
    with time_machine.travel(NOW + timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES, seconds=1), tick=False):
        response = sign_in(client, "ed", PASSWORD)
        assert response.status_code == 302
        assert signed_in_as(client) == str(editor.pk)


@pytest.mark.django_db
def test_failures_from_one_address_lock_that_address_and_the_user_still_signs_in_from_another(client, editor):
    fail(client, settings.LOGIN_FAILURE_LIMIT, username="ed", address="198.51.100.1")
    assert sign_in(client, "ed", PASSWORD, address="198.51.100.1").status_code == 429
    assert signed_in_as(client) is None

    # Whoever failed at A cannot keep the user out: from B the right password signs in.
    response = sign_in(client, "ed", PASSWORD, address="203.0.113.77")
    assert response.status_code == 302
    assert signed_in_as(client) == str(editor.pk)


@pytest.mark.django_db
def test_failures_spread_over_addresses_lock_none_of_them(client, editor):
    for number in range(settings.LOGIN_FAILURE_LIMIT + 1):
        assert sign_in(client, "ed", "wrong password", address=f"198.51.100.{number + 1}").status_code == 200
    assert sign_in(client, "ed", PASSWORD, address="198.51.100.1").status_code == 302


@pytest.mark.django_db
def test_an_address_locked_for_one_username_may_still_sign_in_as_another(client, django_user_model, editor):
    django_user_model.objects.create_user("chief", password=PASSWORD, is_staff=True)
    fail(client, settings.LOGIN_FAILURE_LIMIT, username="ed", address="192.0.2.66")

    assert sign_in(client, "ed", PASSWORD, address="192.0.2.66").status_code == 429
    assert sign_in(client, "chief", PASSWORD, address="192.0.2.66").status_code == 302


@pytest.mark.django_db
def test_fewer_failures_than_the_limit_lock_nobody_out_and_a_success_clears_them(client, editor):
    fail(client, settings.LOGIN_FAILURE_LIMIT - 1)
    assert sign_in(client, "ed", PASSWORD).status_code == 302
    client.logout()
    fail(client, settings.LOGIN_FAILURE_LIMIT - 1)
    assert sign_in(client, "ed", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_axes_reset_username_unlocks_at_once(client, editor):
    fail(client, settings.LOGIN_FAILURE_LIMIT)
    assert sign_in(client, "ed", PASSWORD).status_code == 429
    call_command("axes_reset_username", "ed")
    assert sign_in(client, "ed", PASSWORD).status_code == 302
    assert signed_in_as(client) == str(editor.pk)


@pytest.mark.django_db
def test_an_admin_unlocks_by_deleting_the_access_attempt(client, editor, admin_user):
    fail(client, settings.LOGIN_FAILURE_LIMIT)
    attempt = AccessAttempt.objects.get(username="ed")
    admin_client = type(client)()
    admin_client.force_login(admin_user)
    response = admin_client.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="ed").exists()
    assert sign_in(client, "ed", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_test_clients_login_and_force_login_still_work(client, editor):
    assert client.login(username="ed", password=PASSWORD)
    assert client.get("/admin/").status_code == 200
    client.logout()
    client.force_login(editor)
    assert client.get("/admin/").status_code == 200
    assert not client.login(username="ed", password="wrong password")


def request_from(remote_addr: str, forwarded: str | None = None):
    headers = {"REMOTE_ADDR": remote_addr}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post(LOGIN_URL, **headers)


def test_the_client_address_ignores_x_forwarded_for_without_trusted_proxies(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request_from("192.0.2.5", forwarded="203.0.113.1")) == "192.0.2.5"


def test_behind_trusted_proxies_the_client_address_is_counted_from_the_right(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client wrote "203.0.113.1" itself; our proxy appended the address it saw.
    assert client_ip(request_from("10.0.0.1", forwarded="203.0.113.1, 198.51.100.7")) == "198.51.100.7"
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(request_from("10.0.0.1", forwarded="203.0.113.1, 198.51.100.7, 10.0.0.9")) == "198.51.100.7"
    # Fewer entries than proxies: the request did not come through them all.
    assert client_ip(request_from("10.0.0.1", forwarded="198.51.100.7")) == "10.0.0.1"


def check_ids() -> set[str]:
    return {message.id for message in run_checks(tags=["security"])}


def test_the_lockout_order_passes_its_checks():
    assert not {"ops.E001", "ops.E002", "axes.W002", "axes.W003"} & check_ids()


def test_a_backend_before_the_lockout_backend_is_an_error(settings):
    settings.AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend", *settings.AUTHENTICATION_BACKENDS]
    assert "ops.E001" in check_ids()


def test_a_middleware_after_the_lockout_middleware_is_an_error(settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]
    assert "ops.E002" in check_ids()
