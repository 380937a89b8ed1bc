"""CORS: any origin reads /api/ without credentials; only the listed origins may write."""

from __future__ import annotations

import pytest
from corsheaders.signals import check_request_enabled

from .conftest import TRAINING_ID

WRITER = "https://desk.example.com"
ELSEWHERE = "https://blog.example.org"


@pytest.fixture(autouse=True)
def writer_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [WRITER]


@pytest.mark.parametrize("path", ["/api/v1/stories/", f"/api/v1/stories/{TRAINING_ID}/", "/api/v1/nothing/"])
def test_any_origin_reads_without_credentials(client, demo, path):
    response = client.get(path, HTTP_ORIGIN=ELSEWHERE)

    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    exposed = {name.strip() for name in response["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Link", "RateLimit-Remaining", "Retry-After"} <= exposed


def test_a_listed_origin_gets_its_own_origin_and_credentials(client, demo):
    response = client.get("/api/v1/stories/", HTTP_ORIGIN=WRITER)

    assert response["Access-Control-Allow-Origin"] == WRITER
    assert response["Access-Control-Allow-Credentials"] == "true"
    assert "origin" in response["Vary"].lower()


def test_a_read_preflight_from_any_origin_is_answered(client, db):
    response = client.options(
        "/api/v1/stories/",
        HTTP_ORIGIN=ELSEWHERE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert set(response["Access-Control-Allow-Methods"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert "if-none-match" in response["Access-Control-Allow-Headers"].split(", ")
    assert int(response["Access-Control-Max-Age"]) > 0


def test_a_write_preflight_from_an_unlisted_origin_allows_no_post_and_no_token(client, db):
    response = client.options(
        "/api/v1/stories/",
        HTTP_ORIGIN=ELSEWHERE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )

    assert "POST" not in response["Access-Control-Allow-Methods"].split(", ")
    assert "authorization" not in response["Access-Control-Allow-Headers"].split(", ")
    assert "Access-Control-Allow-Credentials" not in response


def test_a_write_preflight_from_a_listed_origin_allows_post_with_a_token(client, db):
    response = client.options(
        f"/api/v1/stories/{TRAINING_ID}/publish/",
        HTTP_ORIGIN=WRITER,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match",
    )

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == WRITER
    assert response["Access-Control-Allow-Credentials"] == "true"
    assert {"POST", "DELETE"} <= set(response["Access-Control-Allow-Methods"].split(", "))
    allowed = set(response["Access-Control-Allow-Headers"].split(", "))
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert "Idempotent-Replayed" in response["Access-Control-Expose-Headers"].split(", ")


def test_the_public_site_sends_no_cors_headers(client, demo):
    response = client.get("/", HTTP_ORIGIN=ELSEWHERE)

    assert "Access-Control-Allow-Origin" not in response


def test_a_route_outside_the_api_that_a_receiver_enables_gets_cors_headers(client, demo):
    """django-cors-headers' check_request_enabled signal still opens a route outside /api/."""

    def enable_home(sender, request, **kwargs):
        return request.path_info == "/"

    check_request_enabled.connect(enable_home)
    try:
        response = client.get("/", HTTP_ORIGIN=ELSEWHERE)
    finally:
        check_request_enabled.disconnect(enable_home)

    assert response["Access-Control-Allow-Origin"] == "*"


def test_the_write_origins_come_from_the_environment():
    from tests.test_settings import manage

    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.CORS_ALLOWED_ORIGINS)",
        API_CORS_WRITE_ORIGINS="https://a.example, https://b.example",
    )

    assert "['https://a.example', 'https://b.example']" in result.stdout
