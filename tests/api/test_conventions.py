"""Defects of issue 23: bodies (chunked, empty), the one error shape everywhere under /api/,
the index, and parameters that cannot be used."""

from __future__ import annotations

import io
import json

import pytest
import yaml
from rest_framework import exceptions

from api.errors import ERROR_CODES
from api.parsers import BodyTooLarge, MalformedBody

from .conftest import TRAINING_ID, body, new_document

SHAPE = {"error", "message", "problems"}


def chunked_post(client, path, data: bytes, **headers):
    """A POST as gunicorn hands a chunked one to Django: the chunks decoded into wsgi.input,
    ``Transfer-Encoding: chunked`` and no ``CONTENT_LENGTH``."""
    return client.generic(
        "POST",
        path,
        content_type="application/json",
        CONTENT_TYPE="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
        **{"wsgi.input": io.BytesIO(data)},
        **headers,
    )


def test_a_chunked_body_is_read_like_any_other(client, people, django_capture_on_commit_callbacks):
    document = json.dumps(new_document(desk_id="9300", slug="sent-in-chunks")).encode()

    with django_capture_on_commit_callbacks(execute=True):
        response = chunked_post(client, "/api/v1/stories/", document, **people.editor)

    assert response.status_code == 202, response.content
    assert body(response)["done"] == "created"


def test_a_chunked_body_over_the_limit_is_a_413(client, people, settings):
    settings.API_MAX_BODY_BYTES = 1000

    response = chunked_post(client, "/api/v1/stories/", b'{"id": "' + b"1" * 2000 + b'"}', **people.editor)

    assert response.status_code == 413
    assert body(response)["error"] == "too_large"


@pytest.mark.parametrize("path", ["/api/v1/stories/", f"/api/v1/stories/{TRAINING_ID}/retract/"])
def test_an_empty_body_is_malformed(client, people, path):
    response = client.post(path, b"", content_type="application/json", **people.chief)

    assert response.status_code == 400
    assert body(response)["error"] == "malformed"
    assert body(response)["problems"] == [{"at": "$", "message": "the body is empty; send a JSON value"}]


@pytest.mark.parametrize("path", ["/api/", "/api", "/api/v2/stories/"])
def test_addresses_under_api_outside_v1_are_404s_in_the_error_shape(client, db, path):
    response = client.get(path)

    assert response.status_code == 404
    assert set(body(response)) == SHAPE
    assert body(response)["error"] == "not_found"


def test_a_bad_host_under_api_is_a_400_in_the_error_shape(client, db):
    response = client.get("/api/v1/stories/", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert body(response) == {"error": "bad_request", "message": "The request cannot be served.", "problems": []}


def test_a_bad_host_elsewhere_is_djangos_own_400(client, db):
    response = client.get("/", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_the_index_links_every_resource_and_the_docs(client, db):
    index = body(client.get("/api/v1/"))

    assert set(index["resources"]) == {"stories", "newsrooms", "beats", "editions", "manifests", "changes", "desk"}
    for name, resource in index["resources"].items():
        # The desk is a token's: anonymously, the one error shape's 401.
        assert client.get(resource["url"]).status_code == (401 if name == "desk" else 200), resource
    assert index["schema"] == "http://testserver/api/v1/schema/"
    assert {index["docs"], index["redoc"]} == {"http://testserver/api/v1/docs/", "http://testserver/api/v1/redoc/"}


@pytest.mark.parametrize(
    ("params", "at"),
    [
        ({"edition": "2026"}, "edition"),
        ({"edition": "2026-10-16"}, "edition"),
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"cursor": "cD0yMDI2"}, "cursor"),  # base64 of p=2026: a position that is no time
        ({"cursor": "bz0tMQ=="}, "cursor"),  # o=-1
    ],
)
def test_an_unusable_edition_or_cursor_is_a_400_naming_it(client, demo, params, at):
    response = client.get("/api/v1/stories/", params)

    assert response.status_code == 400, response.content
    assert [problem["at"] for problem in body(response)["problems"]] == [at]


def test_the_error_schema_lists_every_code_the_api_sends(client, db):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    error = schema["components"]["schemas"]["ApiError"]["properties"]["error"]
    enum = (
        schema["components"]["schemas"][error["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
        if "allOf" in error
        else (
            schema["components"]["schemas"][error["$ref"].rsplit("/", 1)[1]]["enum"]
            if "$ref" in error
            else error["enum"]
        )
    )

    sent = {
        cls.default_code
        for cls in (
            exceptions.NotAuthenticated,
            exceptions.AuthenticationFailed,
            exceptions.PermissionDenied,
            exceptions.NotFound,
            exceptions.MethodNotAllowed,
            exceptions.NotAcceptable,
            exceptions.UnsupportedMediaType,
            exceptions.Throttled,
            MalformedBody,
            BodyTooLarge,
        )
    } | {"invalid", "precondition_failed", "withdrawn", "conflict", "stale_version", "bad_request"}
    assert sent <= set(enum)
    assert set(enum) == set(ERROR_CODES)
