"""Middleware run only on the routes that need them: the others go straight on; the ones in scope
go through each in order, an error in one becoming a response for those above it."""

from __future__ import annotations

import io
import sys

import pytest
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.urls import path as url_path
from django.urls import set_script_prefix

from newsroom.ops.csp import admin_route, is_admin_request
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


def test_the_admin_mounted_under_a_script_prefix_keeps_its_own_middleware(admin_client, settings):
    """A site served at /news/ has its admin at /news/admin/: request.path and reverse() both
    say so, where path_info starts at /admin/. Through Django's WSGI handler itself, which sets
    the script prefix (the test client does not)."""
    admin_client.get("/admin/")  # signed in: the session cookie below is the admin's
    session = admin_client.cookies[settings.SESSION_COOKIE_NAME].value
    environ = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "/news",
        "PATH_INFO": "/admin/",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}={session}",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }
    answered = []
    # As the test client does: a connection closed when the request starts would end the
    # test's transaction (on PostgreSQL; SQLite's in-memory database ignores it).
    request_started.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(environ, lambda status, headers, exc_info=None: answered.append((status, headers)))
        body = b"".join(response)
    finally:
        request_started.connect(close_old_connections)
        set_script_prefix("/")  # the handler leaves it set for this thread
    [(status, headers)] = answered

    assert status.startswith("200"), status
    assert b'href="/news/admin/' in body
    # The admin's scoped middleware ran (the same test admits its messages middleware).
    assert "Content-Security-Policy" in dict(headers)


def test_the_admins_scope_follows_the_script_prefix():
    """The admin's route is found under a script prefix and kept without it: a request under the
    prefix is matched by its path_info, whatever prefix the route was first found under."""
    admin_route.cache_clear()
    try:
        set_script_prefix("/news/")
        assert admin_route(None) == "/admin/"
        under_prefix = RequestFactory().get("/admin/", SCRIPT_NAME="/news/")
        assert under_prefix.path == "/news/admin/"
        assert is_admin_request(under_prefix)
        assert not is_admin_request(RequestFactory().get("/about/", SCRIPT_NAME="/news/"))
        set_script_prefix("/")
        assert admin_route(None) == "/admin/"
    finally:
        set_script_prefix("/")


urlpatterns = [url_path("desk/", admin.site.urls)]


def test_a_urlconf_that_puts_the_admin_elsewhere_moves_its_scope_with_it(settings):
    factory = RequestFactory()
    assert is_admin_request(factory.get("/admin/"))
    settings.ROOT_URLCONF = __name__
    assert is_admin_request(factory.get("/desk/login/"))
    assert not is_admin_request(factory.get("/admin/"))
    assert admin_route(None) == "/desk/"
