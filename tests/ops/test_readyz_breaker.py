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


def test_a_failed_ping_keeps_it_open_and_moves_the_time_on(client, db, embedded, closed_port):
    embedded.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port}/0")
    embedded.CACHE_BREAKER_SECONDS = 1
    with pytest.raises(RedisConnectionError):
        cache.get("anything")
    with pytest.raises(CacheSkipped):  # the first skipped call starts this process's probe
        cache.get("anything")
    first = readyz(client)[1]["checks"]["cache"]["detail"]

    time.sleep(2.5)  # the probe's PING meets the closed port and opens the breaker anew

    status, body = readyz(client)
    later = body["checks"]["cache"]["detail"]
    assert status == 503
    assert later.startswith("circuit open after a cache error")
    assert later != first  # a later "until": the next PING's time
