"""The request's id, its log line and its metrics come from one middleware at the top: a page
answered early (the page cache, a live story's stored artifact) gets all three like any other,
and so does a request that fails."""

from __future__ import annotations

import json
import re

import pytest
import structlog
from django.http import HttpRequest, HttpResponse
from django.urls import path

from newsroom.ops.observe import charset_of
from stories.models import Story
from tests.factories import StoryFactory, publish_story
from tests.ops.helpers import grown, records, scrape

LATENCY = "django_http_requests_latency_seconds_by_view_method_count"
BY_STATUS_VIEW = "django_http_responses_total_by_status_view_method_total"
REACHED_VIEW = "django_http_requests_total_by_view_transport_method_total"
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\Z")


def failing_view(request: HttpRequest):
    raise RuntimeError("the view broke")


urlpatterns = [path("broken/", failing_view, name="broken")]


@pytest.fixture
def story(db) -> Story:
    return publish_story(StoryFactory(status=Story.Status.DRAFT))


def the_line(stream, request_id: str) -> dict:
    # The request's own lines: others may carry its id too (redis-py's debug line on connecting).
    lines = [
        line
        for line in records(stream)
        if line.get("request_id") == request_id and line.get("logger") == "django_structlog.middlewares.request"
    ]
    assert [line["event"] for line in lines] == ["request_started", "request_finished"], lines
    return lines[-1]


def assert_request_line(line: dict, *, request: str, request_id: str, code: int = 200, level: str = "info") -> None:
    assert line == {
        "code": code,
        "request": request,
        "event": "request_finished",
        "ip": "127.0.0.1",
        "request_id": request_id,
        "logger": "django_structlog.middlewares.request",
        "level": level,
        "timestamp": line["timestamp"],
    }
    assert TIMESTAMP.match(line["timestamp"])


def test_a_page_from_the_page_cache_is_answered_early_and_still_logged_counted_and_given_its_id(
    client, story, json_lines, django_assert_num_queries
):
    url = story.get_absolute_url()
    client.get(url)  # stored
    before = scrape(client)

    with django_assert_num_queries(0):
        response = client.get(url, HTTP_X_REQUEST_ID="req-cached-1")

    after = scrape(client)
    assert response.status_code == 200
    assert not hasattr(response.wsgi_request, "session")  # answered before the sessions middleware
    assert response["X-Request-ID"] == "req-cached-1"
    assert response["Content-Security-Policy"].startswith("default-src 'self'")
    assert response["X-Content-Type-Options"] == "nosniff"  # SecurityMiddleware's, above the page cache
    assert_request_line(the_line(json_lines, "req-cached-1"), request=f"GET {url}", request_id="req-cached-1")
    assert grown(before, after, LATENCY, view="story", method="GET") == 1
    assert grown(before, after, BY_STATUS_VIEW, status="200", view="story", method="GET") == 1
    # Named by its route, though no view was reached: django-prometheus counts those apart.
    assert grown(before, after, REACHED_VIEW, view="story", transport="http", method="GET") == 0


def test_a_live_story_from_its_stored_artifact_is_logged_counted_and_given_its_id(
    client, story, json_lines, django_assert_num_queries
):
    url = story.get_absolute_url() + "index.md"
    before = scrape(client)

    with django_assert_num_queries(1):  # the stored version, by one indexed query
        response = client.get(url, HTTP_X_REQUEST_ID="req-artifact-1")

    after = scrape(client)
    assert response.status_code == 200
    assert not hasattr(response.wsgi_request, "session")  # LiveStoryMiddleware, before sessions
    assert response["X-Request-ID"] == "req-artifact-1"
    assert_request_line(the_line(json_lines, "req-artifact-1"), request=f"GET {url}", request_id="req-artifact-1")
    assert grown(before, after, LATENCY, view="story-markdown", method="GET") == 1


def test_a_view_that_reached_its_route_is_counted_by_view(client, db, json_lines):
    before = scrape(client)

    response = client.get("/healthz?probe=1", HTTP_X_REQUEST_ID="req-view-1")

    after = scrape(client)
    assert response["X-Request-ID"] == "req-view-1"
    line = the_line(json_lines, "req-view-1")
    assert_request_line(line, request="GET /healthz?probe=1", request_id="req-view-1")
    assert grown(before, after, REACHED_VIEW, view="healthz", transport="http", method="GET") == 1
    assert grown(before, after, BY_STATUS_VIEW, status="200", view="healthz", method="GET") == 1


def test_a_404_is_a_warning_line_and_an_unnamed_view(client, db, json_lines):
    before = scrape(client)

    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="req-404-1")

    after = scrape(client)
    assert response.status_code == 404
    line = the_line(json_lines, "req-404-1")
    assert_request_line(line, request="GET /no-such-page/", request_id="req-404-1", code=404, level="warning")
    assert grown(before, after, BY_STATUS_VIEW, status="404", view="<unnamed view>", method="GET") == 1


def test_a_failed_request_logs_its_exception_keeps_its_id_and_is_counted(client, db, json_lines, settings):
    before = scrape(client)
    settings.ROOT_URLCONF = __name__
    client.raise_request_exception = False

    response = client.get("/broken/", HTTP_X_REQUEST_ID="req-broken-1")

    settings.ROOT_URLCONF = "newsroom.urls"  # for /metrics
    after = scrape(client)
    assert response.status_code == 500
    assert response["X-Request-ID"] == "req-broken-1"
    lines = [line for line in records(json_lines) if line.get("request_id") == "req-broken-1"]
    assert [line["event"] for line in lines if line["event"].startswith("request_")] == [
        "request_started",
        "request_failed",  # and no request_finished: django-structlog's rule
    ]
    failed = next(line for line in lines if line["event"] == "request_failed")
    assert (failed["code"], failed["request"], failed["level"]) == (500, "GET /broken/", "error")
    assert "RuntimeError: the view broke" in failed["exception"]
    assert grown(before, after, "django_http_exceptions_total_by_type_total", type="RuntimeError") == 1
    assert grown(before, after, BY_STATUS_VIEW, status="500", view="broken", method="GET") == 1


def test_the_request_line_reads_the_same_in_the_console_format(client, db, log_lines):
    console = log_lines("console")

    client.get("/healthz", HTTP_X_REQUEST_ID="req-console-1")

    finished = [line for line in console.getvalue().splitlines() if "request_finished" in line]
    assert len(finished) == 1
    assert "request_id=req-console-1" in finished[0]
    assert "code=200" in finished[0]
    assert "request='GET /healthz'" in finished[0]


@pytest.mark.parametrize("bound", [{}, {"user_id": 7}, {"level": "bound"}, {"ratio": 0.5}])
def test_the_request_line_is_the_text_structlogs_renderer_writes(client, db, json_lines, bound):
    """Written from its parts when it can be, else by the renderer: either way the same text."""
    structlog.contextvars.bind_contextvars(**bound)  # as a request's own code binds more
    client.get("/healthz", HTTP_X_REQUEST_ID="req-text-1")

    [line] = [
        line
        for line in json_lines.getvalue().splitlines()
        if '"req-text-1"' in line and '"request_finished"' in line and '"django_structlog.middlewares.request"' in line
    ]
    assert line == structlog.processors.JSONRenderer()(None, "info", json.loads(line))


@pytest.mark.parametrize(
    "response",
    [
        HttpResponse("page"),
        HttpResponse("page", content_type="text/plain; charset=latin-1"),
        HttpResponse("page", content_type='text/plain; charset="utf-16"'),
        HttpResponse("page", content_type="application/json"),
        HttpResponse("page", content_type="text/plain", charset="iso-8859-15"),
        HttpResponse(b"", headers={"Content-Type": "text/csv; CHARSET=ascii; header=present"}),
    ],
    ids=["default", "declared", "quoted", "none-declared", "given", "upper-case"],
)
def test_the_charset_counted_is_the_one_django_reads_from_the_response(response, settings):
    assert charset_of(response) == response.charset
    settings.DEFAULT_CHARSET = "windows-1252"  # read on each call, not remembered
    assert charset_of(response) == response.charset
