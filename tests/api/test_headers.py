"""Link and rate-limit headers, as GitHub's API sends them."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from .conftest import AGENTIC_ID, TRAINING_ID, body


def links(response) -> dict[str, str]:
    found = {}
    for part in response["Link"].split(","):
        url, rel = part.split(";")
        found[rel.strip().removeprefix('rel="').removesuffix('"')] = url.strip()[1:-1]
    return found


@pytest.mark.parametrize("path", ["/api/v1/stories/", "/api/v1/manifests/"])
def test_a_paginated_list_links_its_pages_in_the_header_as_in_the_body(client, demo, path):
    first = client.get(path, {"page_size": 1})
    page = body(first)

    assert links(first) == {"next": page["next"]}
    second = client.get(links(first)["next"])
    assert links(second) == {"next": body(second)["next"], "prev": body(second)["previous"]} or links(second) == {
        "prev": body(second)["previous"]
    }
    assert body(client.get(links(second)["prev"]))["results"] == page["results"]


def test_a_kept_story_list_page_keeps_its_link_header(client, demo):
    first = client.get("/api/v1/stories/", {"page_size": 1})
    again = client.get("/api/v1/stories/", {"page_size": 1})

    assert again.content == first.content
    assert again["Link"] == first["Link"]
    assert "next" in links(again)


def test_a_lone_page_has_no_link_header(client, demo):
    response = client.get("/api/v1/stories/")

    assert len(body(response)["results"]) == 2
    assert "Link" not in response


@pytest.fixture
def three_a_minute(settings):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "token": "2/minute"}
    }
    cache.clear()


def test_rate_limit_headers_count_down_to_the_429(client, demo, three_a_minute):
    answers = [client.get(path) for path in ("/api/v1/stories/", f"/api/v1/stories/{AGENTIC_ID}/", "/api/v1/nothing/")]
    refused = client.get(f"/api/v1/stories/{TRAINING_ID}/")

    assert [answer["RateLimit-Limit"] for answer in answers] == ["3", "3", "3"]
    assert [answer["RateLimit-Remaining"] for answer in answers] == ["2", "1", "0"]
    assert all(0 < int(answer["RateLimit-Reset"]) <= 60 for answer in answers)
    assert refused.status_code == 429
    assert (refused["RateLimit-Limit"], refused["RateLimit-Remaining"]) == ("3", "0")
    assert 0 < int(refused["RateLimit-Reset"]) <= int(refused["Retry-After"]) + 1


def test_token_holders_see_their_tokens_count(client, people, three_a_minute):
    first = client.get("/api/v1/runs/1/", **people.chief)
    second = client.get("/api/v1/runs/1/", **people.chief)

    assert (first["RateLimit-Limit"], first["RateLimit-Remaining"]) == ("2", "1")
    assert second["RateLimit-Remaining"] == "0"


def test_an_answer_before_the_throttles_still_says_where_the_client_stands(client, demo, three_a_minute):
    client.get("/api/v1/stories/")

    refused = client.post("/api/v1/stories/", {}, content_type="application/json")  # no token: 401

    assert refused.status_code == 401
    assert (refused["RateLimit-Limit"], refused["RateLimit-Remaining"]) == ("3", "2")


def test_the_public_site_has_no_rate_limit_headers(client, demo):
    assert "RateLimit-Limit" not in client.get("/")
