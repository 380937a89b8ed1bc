"""Every API error has one shape: {"error": code, "message": ..., "problems": [...]}."""

from __future__ import annotations

import pytest

from tests.test_settings import manage

from .conftest import TRAINING_ID, body

SHAPE = {"error", "message", "problems"}


def test_an_address_with_no_endpoint_is_a_404_in_the_error_shape(client, db):
    response = client.get("/api/v1/nothing/here/")

    assert response.status_code == 404
    assert body(response) == {
        "error": "not_found",
        "message": "There is no API endpoint at /api/v1/nothing/here/.",
        "problems": [],
    }


def test_a_missing_trailing_slash_is_pointed_out(client, db):
    response = client.get("/api/v1/stories")

    assert response.status_code == 404
    assert body(response)["message"] == "There is no API endpoint at /api/v1/stories. Did you mean /api/v1/stories/ ?"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        *((method, "/api/v1/stories/") for method in ("put", "patch", "delete")),
        *((method, f"/api/v1/stories/{TRAINING_ID}/") for method in ("post", "put", "patch", "delete")),
        *((method, "/api/v1/newsrooms/") for method in ("post", "put", "patch", "delete")),
    ],
)
def test_writing_is_refused_with_405_and_the_allowed_methods(client, demo, method, path):
    response = getattr(client, method)(path, data={}, content_type="application/json")

    assert response.status_code == 405
    assert body(response) == {
        "error": "method_not_allowed",
        "message": f'Method "{method.upper()}" not allowed.',
        "problems": [],
    }
    assert "GET" in response["Allow"]


def test_a_client_that_accepts_no_json_gets_406(client, demo):
    response = client.get("/api/v1/stories/", HTTP_ACCEPT="text/html")

    assert response.status_code == 406
    assert set(body(response)) == SHAPE
    assert body(response)["error"] == "not_acceptable"


@pytest.mark.parametrize("path", ["/api/v1/stories/", f"/api/v1/stories/{TRAINING_ID}/", "/api/v1/editions/"])
def test_a_failed_if_match_is_a_412_in_the_error_shape(client, demo, path):
    response = client.get(path, HTTP_IF_MATCH='"not-this-one"')

    assert response.status_code == 412
    assert body(response) == {
        "error": "precondition_failed",
        "message": "The resource no longer matches If-Match or If-Unmodified-Since.",
        "problems": [],
    }


def test_anonymous_clients_are_throttled_by_address(client, demo, settings):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": {"anon": "3/minute"}}

    answers = [client.get("/api/v1/stories/", REMOTE_ADDR="203.0.113.7").status_code for _ in range(4)]
    throttled = client.get(f"/api/v1/stories/{TRAINING_ID}/", REMOTE_ADDR="203.0.113.7")
    elsewhere = client.get("/api/v1/stories/", REMOTE_ADDR="203.0.113.8")

    assert answers == [200, 200, 200, 429]
    assert throttled.status_code == 429
    assert body(throttled)["error"] == "throttled"
    assert body(throttled)["problems"] == []
    assert 0 < int(throttled["Retry-After"]) <= 60
    assert elsewhere.status_code == 200


def test_a_malformed_throttle_rate_stops_the_site_from_starting():
    result = manage("check", API_ANON_RATE="lots")

    assert result.returncode != 0
    assert "API_ANON_RATE must look like 120/minute" in result.stderr
