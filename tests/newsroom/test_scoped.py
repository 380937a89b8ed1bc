"""Middleware run only on the routes that need them: the others go straight on; the ones in scope
go through each in order, an error in one becoming a response for those above it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from newsroom.scoped import scoped


class Outer:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response["X-Outer"] = "seen"
        return response


class Failing:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raise RuntimeError("the inner middleware broke")


class WithViewHook(Outer):
    def process_view(self, request, view, args, kwargs):
        return None


def view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("view")


def under_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def test_a_request_out_of_scope_goes_straight_on():
    middleware = scoped(under_api, "tests.newsroom.test_scoped.Outer")(view)

    response = middleware(RequestFactory().get("/stories/"))

    assert response.content == b"view"
    assert "X-Outer" not in response


def test_a_request_in_scope_goes_through_each_and_an_error_becomes_a_response_for_those_above(db):
    middleware = scoped(under_api, "tests.newsroom.test_scoped.Outer", "tests.newsroom.test_scoped.Failing")(view)

    response = middleware(RequestFactory().get("/api/v1/stories/"))

    assert response.status_code == 500
    assert response["X-Outer"] == "seen"


def test_a_middleware_with_hooks_django_would_collect_is_refused():
    with pytest.raises(ImproperlyConfigured, match="process_view"):
        scoped(under_api, "tests.newsroom.test_scoped.WithViewHook")(view)


# --- The admin's own: its messages, time zone and Content-Security-Policy ----------------------


def test_the_admin_still_says_what_it_did(admin_client):
    response = admin_client.post("/admin/auth/group/add/", {"name": "Copy desk"}, follow=True)

    assert response.status_code == 200
    [message] = response.context["messages"]
    assert "Copy desk</a>” was added successfully." in str(message)
    assert b"was added successfully" in response.content
    assert "Content-Security-Policy" in response


def test_a_public_page_and_the_api_go_past_the_messages_middleware(client, db):
    for path in ("/robots.txt", "/api/v1/"):
        response = client.get(path)
        assert not hasattr(response.wsgi_request, "_messages"), path
        assert "Content-Security-Policy" not in response or path == "/robots.txt"


def test_the_admin_without_its_messages_is_a_system_check_error(settings):
    from django.core.checks import run_checks

    assert "ops.E003" not in {message.id for message in run_checks(tags=["admin"])}
    settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name != "newsroom.scoped.admin_middleware"]
    assert "ops.E003" in {message.id for message in run_checks(tags=["admin"])}
