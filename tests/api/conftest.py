"""The API's fixtures: the public site's demo (both seeds, published through the gate) and a
client that reads JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.site.conftest import demo, empty_page_cache, hidden  # noqa: F401

TRAINING_ID = "81"  # the seeds' desk/1 ids
AGENTIC_ID = "278"


def body(response: Any) -> Any:
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    return json.loads(response.content)


def results(client: Client, path: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    return body(response)["results"]


@pytest.fixture(autouse=True)
def generous_throttle(settings):
    """Tests make many requests from one address; the throttle's own tests lower the rate."""
    rest = dict(settings.REST_FRAMEWORK)
    settings.REST_FRAMEWORK = rest | {"DEFAULT_THROTTLE_RATES": {"anon": "100000/minute"}}
