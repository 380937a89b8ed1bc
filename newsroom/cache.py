"""Django's Redis cache backend, keeping one Redis client per connection pool, behind a
circuit breaker.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call, and
redis-py 8 builds its table of some 170 response callbacks in each one. When a cached story
page still cost two calls (the generation, then the page), that was 0.53 ms of CPU per page
in-process against 0.10 ms with the local-memory cache, most of it in ``Redis.__init__``; with
one client per pool it was 0.37 ms (and is 0.26 ms now that the page takes one call).

A ``Redis`` client may be shared by threads (it takes a connection from its pool for each
command), so one per pool serves every call.

The breaker: a hung or absent Redis costs each call up to ``CACHE_TIMEOUT_SECONDS`` (the
socket timeouts), and a page makes a few calls, so every reader would pay that on top of the
database path for as long as the outage lasts. After one cache error the breaker opens: for
``CACHE_BREAKER_SECONDS`` every call fails at once with ``CacheSkipped`` (a ``RedisError``,
so the page cache's existing handling renders pages anew) without touching the server. Then
one call is let through; its success closes the breaker, its failure opens it again.
Invalidations go past an open breaker (``past_the_breaker``).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pybreaker
from django.conf import settings
from django.core.cache.backends import redis as django_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError


class CacheSkipped(RedisConnectionError):
    """The breaker is open: the cache was not asked."""


def _not_a_cache_fault(error: BaseException) -> bool:
    # Only the server's faults count: a missing key for incr (ValueError) is an answer.
    return not isinstance(error, RedisError | OSError)


def location_name(location: str) -> str:
    # The name shows in errors, logs and /readyz; a password in a Redis URL must not.
    return ",".join(re.sub(r"//[^@/]*@", "//", server) for server in location.split(","))


class _OpenedAt(pybreaker.CircuitBreakerListener):
    """Notes when each breaker opened, for /readyz to say until when the cache is skipped."""

    def state_change(self, cb: pybreaker.CircuitBreaker, old_state: Any, new_state: Any) -> None:
        _opened_at[cb.name] = time.time() if new_state.name == pybreaker.STATE_OPEN else None


_opened_at: dict[str, float | None] = {}


# One breaker per cache location for the whole process: Django keeps a cache backend (and so a
# client) per thread, and a server that hangs for one thread hangs for all of them.
_breakers: dict[str, pybreaker.CircuitBreaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(location: str) -> pybreaker.CircuitBreaker:
    with _breakers_lock:
        breaker = _breakers.get(location)
        if breaker is None:
            breaker = _breakers[location] = pybreaker.CircuitBreaker(
                fail_max=1,
                reset_timeout=settings.CACHE_BREAKER_SECONDS,
                exclude=[_not_a_cache_fault],
                # The error that opened it is raised as it was (a RedisError or OSError).
                throw_new_error_on_trip=False,
                name=location_name(location),
                listeners=[_OpenedAt()],
            )
        return breaker


def skipped_until(location: str) -> float | None:
    """While this process's breaker for the cache at ``location`` is open: the time (epoch
    seconds) when it lets a call try the server again. None when the cache is being used."""
    with _breakers_lock:
        breaker = _breakers.get(location)
    if breaker is None or breaker.current_state != pybreaker.STATE_OPEN:
        return None
    opened = _opened_at.get(breaker.name)
    if opened is None or opened + breaker.reset_timeout <= time.time():
        return None  # the cool-down is over: the next call tries the server
    return opened + breaker.reset_timeout


_bypass = threading.local()


@contextmanager
def past_the_breaker() -> Iterator[None]:
    """Calls in this block go to the server even while the breaker is open, and close it when
    they succeed. For invalidations (``pagecache.tags_changed``): they are rare, on the publish
    path rather than a reader's, and one skipped would leave pages stale until they expire."""
    before = getattr(_bypass, "active", False)
    _bypass.active = True
    try:
        yield
    finally:
        _bypass.active = before


def _guarded(name: str) -> Callable[..., Any]:
    unguarded = getattr(django_redis.RedisCacheClient, name)

    def method(self: RedisCacheClient, *args: Any, **kwargs: Any) -> Any:
        if getattr(_bypass, "active", False):
            result = unguarded(self, *args, **kwargs)
            if self.breaker.current_state != pybreaker.STATE_CLOSED:
                self.breaker.close()  # the server answered: readers may use it again
            return result
        try:
            return self.breaker.call(unguarded, self, *args, **kwargs)
        except pybreaker.CircuitBreakerError:
            breaker = self.breaker
            raise CacheSkipped(
                f"the cache at {breaker.name} is skipped for {breaker.reset_timeout:g} s after an error"
            ) from None

    method.__name__ = name
    return method


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers: list[str], *args: Any, **kwargs: Any):
        super().__init__(servers, *args, **kwargs)
        self._clients: dict[Any, Any] = {}  # by connection pool, which Django keeps for good
        self.breaker = breaker_for(",".join(servers))

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client

    add = _guarded("add")
    get = _guarded("get")
    set = _guarded("set")
    touch = _guarded("touch")
    delete = _guarded("delete")
    get_many = _guarded("get_many")
    has_key = _guarded("has_key")
    incr = _guarded("incr")
    set_many = _guarded("set_many")
    delete_many = _guarded("delete_many")
    clear = _guarded("clear")


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above; the same
    settings (``LOCATION``, ``KEY_PREFIX``, ``OPTIONS``)."""

    def __init__(self, server: Any, params: dict[str, Any]):
        super().__init__(server, params)
        self._class = RedisCacheClient
