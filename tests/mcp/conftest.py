"""The MCP door's fixtures: a real server (pytest-django's live_server), the SDK's own client,
and tokens of the seeds' newsroom's chief and editor and of another newsroom's chief."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import anyio
import httpx2
import pytest
from django.contrib.auth import get_user_model
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from api.tokens import token_create
from tests.api.conftest import people  # noqa: F401
from tests.site.conftest import demo, empty_page_cache, hidden  # noqa: F401

PEOPLE = ("chief", "editor", "outsider")

# The live server runs in a thread of its own: what the test writes must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def door(live_server, site_url, settings) -> str:
    # Links in answers point at the server the client talks to.
    settings.SITE_URL = live_server.url
    return live_server.url + "/mcp/"


@pytest.fixture
def tokens(people):  # noqa: F811 (the fixture, imported above)
    """Raw bearer tokens of the API's people (chief and editor of the seeds' newsroom, another
    newsroom's chief), and one of the chief's scoped to reading."""
    raw = {name: getattr(people, name)["HTTP_AUTHORIZATION"].removeprefix("Bearer ") for name in PEOPLE}
    chief = get_user_model().objects.get(username="chief")
    return SimpleNamespace(**raw, chief_reading=token_create(user=chief, expiry=None, scopes=["read"])[1])


def connect(url: str, token: str | None, work: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    """Initialize a session with the SDK's streamable HTTP client, run ``work`` in it, return its result."""

    async def run() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await work(session)

    return anyio.run(run)


def call(url: str, token: str | None, tool: str, **arguments: Any) -> Any:
    """One tool call in a session of its own; the result as the SDK gives it."""

    async def work(session: ClientSession) -> Any:
        return await session.call_tool(tool, arguments)

    return connect(url, token, work)
