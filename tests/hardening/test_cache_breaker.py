"""A hung cache costs readers one timeout, then nothing for a cool-down: the circuit breaker."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pybreaker
import pytest
from django.core.cache import cache
from redis.exceptions import RedisError

from newsroom import cache as redis_cache
from newsroom import pagecache


class HungRedis:
    """A server on 127.0.0.1 that accepts connections and reads commands, and never answers."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self.bytes_received = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                self.connections += 1
                self._sockets.append(conn)
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        while True:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.bytes_received += len(data)

    def seen(self) -> tuple[int, int]:
        with self._lock:
            return self.connections, self.bytes_received

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            for conn in self._sockets:
                conn.close()


@pytest.fixture
def hung_redis(settings) -> Iterator[HungRedis]:
    server = HungRedis()
    location = f"redis://127.0.0.1:{server.port}/3"
    settings.CACHE_TIMEOUT_SECONDS = 0.2
    settings.CACHE_BREAKER_SECONDS = 60
    settings.PAGE_CACHE_LOCAL_ENTRIES = 0  # no per-process copies, no pub/sub listener
    settings.CACHES = {
        "default": {
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": {
                "socket_connect_timeout": settings.CACHE_TIMEOUT_SECONDS,
                "socket_timeout": settings.CACHE_TIMEOUT_SECONDS,
            },
        }
    }
    pagecache._stored_paths.clear()
    yield server
    redis_cache._breakers.pop(location, None)
    server.close()


def breaker() -> pybreaker.CircuitBreaker:
    return cache._cache.breaker


def test_a_hung_cache_is_asked_once_then_only_pinged_from_the_background(client, db, hung_redis, settings):
    first = client.get("/")

    assert first.status_code == 200  # rendered from the database after one timeout
    assert breaker().current_state == pybreaker.STATE_OPEN
    connections, received = hung_redis.seen()
    # One command on one connection, unanswered: the request waited one socket timeout
    # (CACHE_TIMEOUT_SECONDS), with no retry and no second call to the cache.
    assert connections == 1
    assert received > 0

    settings.CACHE_BREAKER_SECONDS = 0.2
    for _ in range(3):
        started = time.monotonic()
        assert client.get("/").status_code == 200
        assert time.monotonic() - started < settings.CACHE_TIMEOUT_SECONDS  # no reader waits again
    assert hung_redis.seen() == (connections, received)  # readers do not ask during the outage

    # The probe's PINGs (from a thread, each waiting out its timeout) reach the hung server...
    assert _wait_for(lambda: hung_redis.seen()[1] > received)
    # ...and go unanswered, so readers still skip it.
    assert breaker().current_state == pybreaker.STATE_OPEN
    started = time.monotonic()
    assert client.get("/").status_code == 200
    assert time.monotonic() - started < settings.CACHE_TIMEOUT_SECONDS


def _wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_calls_fail_at_once_with_a_redis_error_while_open(db, hung_redis):
    with pytest.raises(RedisError):
        cache.get("anything")  # the timeout opens the breaker
    seen = hung_redis.seen()

    with pytest.raises(
        redis_cache.CacheSkipped, match=f"the cache at redis://127.0.0.1:{hung_redis.port}/3 is skipped"
    ):
        cache.get("anything")
    with pytest.raises(redis_cache.CacheSkipped):
        cache.set("anything", 1)
    assert hung_redis.seen() == seen


def test_the_probe_closes_the_breaker_once_the_server_answers(settings, require_redis):
    settings.CACHE_BREAKER_SECONDS = 0.1
    location = require_redis.rsplit("/", 1)[0] + "/5"
    client = redis_cache.RedisCacheClient([location])
    try:
        client.breaker.open()  # as after an error
        with pytest.raises(redis_cache.CacheSkipped, match="until it answers a PING"):
            client.get("hardening:probe", None)  # skipped, and the probe starts

        assert _wait_for(lambda: client.breaker.current_state == pybreaker.STATE_CLOSED)
        assert client.get("hardening:probe", "default") == "default"
    finally:
        redis_cache._breakers.pop(location, None)


def test_an_answer_that_is_an_error_of_the_caller_does_not_open_the_breaker(settings, require_redis):
    location = require_redis.rsplit("/", 1)[0] + "/5"
    client = redis_cache.RedisCacheClient([location])
    try:
        with pytest.raises(ValueError, match="not found"):
            client.incr("hardening:missing-key", 1)  # Django's answer for a missing key
        assert client.breaker.current_state == pybreaker.STATE_CLOSED
    finally:
        redis_cache._breakers.pop(location, None)


def test_an_invalidation_goes_past_an_open_breaker(db, hung_redis):
    breaker().open()  # as after a reader's timeout
    seen = hung_redis.seen()

    with pytest.raises(RedisError):  # tried, and timed out: the publish path's robust hook logs it
        pagecache.tags_changed(["story-1"])

    assert hung_redis.seen()[1] > seen[1]


def test_an_invalidation_that_reaches_the_server_closes_the_breaker(settings, require_redis):
    location = require_redis.rsplit("/", 1)[0] + "/5"
    settings.PAGE_CACHE_LOCAL_ENTRIES = 0
    settings.CACHES = {
        "default": {"BACKEND": "newsroom.cache.RedisCache", "LOCATION": location, "KEY_PREFIX": "hardening"}
    }
    try:
        breaker().open()

        pagecache.tags_changed(["story-hardening"])

        assert breaker().current_state == pybreaker.STATE_CLOSED
        assert cache.get(pagecache.tag_key("story-hardening")) is not None
        cache.delete(pagecache.tag_key("story-hardening"))
    finally:
        redis_cache._breakers.pop(location, None)


def test_a_password_in_the_cache_url_never_shows_in_its_errors(settings):
    location = "redis://:secret-pass@127.0.0.1:1/0,redis://user:secret-pass@127.0.0.1:2/0"
    try:
        assert redis_cache.breaker_for(location).name == "redis://127.0.0.1:1/0,redis://127.0.0.1:2/0"
    finally:
        redis_cache._breakers.pop(location, None)


def test_the_api_answers_from_the_database_while_its_throttle_cannot_count(client, db, hung_redis):
    # The throttle counts requests in the cache; unreachable, it lets them through uncounted.
    for _ in range(3):
        response = client.get("/api/v1/stories/")
        assert response.status_code == 200, response.content
        assert response.json()["results"] == []
    assert breaker().current_state == pybreaker.STATE_OPEN


def test_the_probe_leaves_a_breaker_closed_meanwhile_closed(settings):
    """An invalidation that reached the server (past_the_breaker) closes the breaker; the probe,
    waking after its cool-down, must not PING a server it no longer needs to and open it again."""
    settings.CACHE_BREAKER_SECONDS = 0.2
    with socket.socket() as refusing:  # bound, never listening: a PING would fail at once
        refusing.bind(("127.0.0.1", 0))
        location = f"redis://127.0.0.1:{refusing.getsockname()[1]}/0"
        client = redis_cache.RedisCacheClient([location])
        client.breaker.open()
        with pytest.raises(redis_cache.CacheSkipped):
            client.get("hardening:probe", None)  # skipped, and the probe starts
        client.breaker.close()

        assert _wait_for(lambda: not client.probe._thread.is_alive())
        assert client.breaker.current_state == pybreaker.STATE_CLOSED
