"""What the write API refuses before looking at a document: bodies that are too big, not JSON,
not strict JSON; and the throttle per token. Every refusal in the one error shape."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from stories.models import Story

from .conftest import bearer, body, post_json, token_of

STORIES = "/api/v1/stories/"
SHAPE = {"error", "message", "problems"}


@pytest.mark.parametrize(
    ("data", "at", "message"),
    [
        (b'{"id": "1", "id": "2"}', "id", "the key 'id' appears twice in one object; a key may appear once"),
        (
            b'{"key_facts": [{"text": "a"}, {"text": "b", "cites": [], "text": "c"}]}',
            "key_facts[1].text",
            "the key 'text' appears twice in one object; a key may appear once",
        ),
        (b'{"headline": "\\ud800 half"}', "headline", "holds \\ud800, half of a UTF-16 surrogate pair"),
        (b'{"sections": [{"heading": "a\\u0000b"}]}', "sections[0].heading", "must not contain U+0000 NULL"),
        (b'{"headline": "caf\xe9"}', "$", "not UTF-8 text"),
        (b'{"headline": "a"} trailing', "$", "not JSON: Extra data"),
        (b'{"n": NaN}', "$", "NaN is not a JSON number"),
        (b"\x00", "$", "not JSON"),
        (b"[" * 100000, "$", "nested too deeply"),
    ],
)
def test_a_body_that_is_not_strict_json_is_a_400_naming_where(client, writer, data, at, message):
    response = post_json(client, STORIES, data, **writer)

    assert response.status_code == 400, response.content
    answer = body(response)
    assert set(answer) == SHAPE
    assert answer["error"] == "malformed"
    assert answer["problems"][0]["at"] == at
    assert message in answer["problems"][0]["message"]
    assert not Story.objects.exists()


def test_an_empty_body_is_malformed_not_an_empty_document(client, writer):
    response = post_json(client, STORIES, b"", **writer)

    assert response.status_code == 400
    assert body(response)["error"] == "malformed"
    assert body(response)["problems"] == [{"at": "$", "message": "the body is empty; send a JSON value"}]


def test_a_body_over_the_limit_is_a_413(client, writer, settings):
    settings.API_MAX_BODY_BYTES = 1000

    response = post_json(client, STORIES, {"headline": "x" * 2000}, **writer)

    assert response.status_code == 413
    assert body(response) == {
        "error": "too_large",
        "message": "The request body is over 1,000 bytes, the limit.",
        "problems": [],
    }


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_body_that_is_not_json_is_a_415(client, writer, content_type):
    response = client.post(STORIES, data="id=81", content_type=content_type, **writer)

    assert response.status_code == 415
    assert body(response)["error"] == "unsupported_media_type"


def test_a_json_media_type_with_a_charset_is_read(client, writer):
    data = b'{"id": "1", "id": "1"}'
    response = client.post(STORIES, data=data, content_type="application/json; charset=utf-8", **writer)

    assert response.status_code == 400
    assert body(response)["problems"][0]["at"] == "id"


def test_tokens_are_throttled_each_on_its_own(client, writer, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"token": "2/minute"}
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates}
    other = bearer(token_of(get_user_model().objects.get(username="writer-agent")))

    answers = [post_json(client, STORIES, [], **writer).status_code for _ in range(3)]
    throttled = post_json(client, STORIES, [], **writer)
    elsewhere = post_json(client, STORIES, [], **other)

    assert answers == [400, 400, 429]
    assert body(throttled)["error"] == "throttled"
    assert 0 < int(throttled["Retry-After"]) <= 60
    assert elsewhere.status_code == 400


def test_a_malformed_token_rate_stops_the_site_from_starting():
    from tests.test_settings import manage

    result = manage("check", API_TOKEN_RATE="fast")

    assert result.returncode != 0
    assert "API_TOKEN_RATE must look like 120/minute" in result.stderr


def test_without_the_cache_requests_are_answered_unthrottled(client, writer, settings):
    # A Redis nobody listens on: the throttle cannot count, and lets the request through.
    settings.CACHES = {"default": {"BACKEND": "newsroom.cache.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}}

    assert post_json(client, STORIES, [], **writer).status_code == 400
    assert client.get("/api/v1/newsrooms/").status_code == 200
