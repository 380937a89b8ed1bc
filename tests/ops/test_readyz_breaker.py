"""/readyz while the cache's circuit breaker is open: not ready, saying until when the cache is
skipped, without asking the cache server the breaker is there to spare."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from newsroom.cache import CacheSkipped

from .test_health import LOCAL_CACHE, redis_cache


@pytest.fixture
def embedded(settings):
    """No broker and eager tasks, whatever services this run has: only the cache is in question."""
    settings.CACHES = LOCAL_CACHE
    settings.CELERY_BROKER_URL = "memory://"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings


@pytest.fixture
def closed_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def readyz(client) -> tuple[int, dict]:
    response = client.get("/readyz")
    return response.status_code, json.loads(response.content)


def test_an_open_breaker_is_reported_with_the_time_it_lets_the_cache_be_tried_again(
    client,
    db,
    embedded,
    closed_port,
):
    embedded.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port}/0")
    embedded.CACHE_BREAKER_SECONDS = 30
    opened = time.time()
    with pytest.raises(RedisConnectionError):  # a reader's call meets the dead server: the breaker opens
        cache.get("anything")
    with pytest.raises(CacheSkipped):
        cache.get("anything")

    status, body = readyz(client)

    assert status == 503
    detail = body["checks"]["cache"]["detail"]
    assert body["checks"]["cache"]["status"] == "fail"
    location = f"redis://127.0.0.1:{closed_port}/0"
    assert detail.startswith(f"circuit open after a cache error: the cache at {location} is skipped until ")
    until = re.search(r"until (\d\d:\d\d:\d\d) UTC", detail).group(1)
    expected = datetime.fromtimestamp(opened + 30, UTC)
    told = datetime.combine(expected.date(), datetime.strptime(until, "%H:%M:%S").time(), UTC)
    assert abs((told - expected).total_seconds()) <= 2
    assert body["checks"]["database"]["status"] == "ok"


def test_after_the_cool_down_the_probe_asks_the_server_again(client, db, embedded, closed_port):
    embedded.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port}/0")
    embedded.CACHE_BREAKER_SECONDS = 30
    with pytest.raises(RedisConnectionError):
        cache.get("anything")

    with time_machine.travel(time.time() + 31, tick=False):
        status, body = readyz(client)

    # The breaker let the probe through: the server's own error, not the breaker's.
    assert status == 503
    assert body["checks"]["cache"]["detail"].startswith("ConnectionError: ")
    assert "circuit open" not in body["checks"]["cache"]["detail"]
