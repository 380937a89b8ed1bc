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
database path for as long as the outage lasts. After one cache error the breaker opens: every
call fails at once with ``CacheSkipped`` (a ``RedisError``, so the page cache's existing
handling renders pages anew) without touching the server. No reader's call tries the server
again: a thread of the process sends a PING every ``CACHE_BREAKER_SECONDS`` and closes the
breaker when one is answered. (pybreaker's own way, letting a reader's call through after the
cool-down, made a reader wait a full timeout at every cool-down of every process for as long
as Redis hung: in the SIGSTOP drill, tests/integration/redis_hang.py, those waits put the p99
at 550 ms.) Invalidations go past an open breaker (``past_the_breaker``).
"""

from __future__ import annotations

import logging
import os
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

logger = logging.getLogger(__name__)


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
                # When the probe below tries the server next. (pybreaker would let a reader's
                # call through then; _guarded never calls an open breaker.)
                reset_timeout=settings.CACHE_BREAKER_SECONDS,
                exclude=[_not_a_cache_fault],
                # The error that opened it is raised as it was (a RedisError or OSError).
                throw_new_error_on_trip=False,
                name=location_name(location),
                listeners=[_LogOpening(), _OpenedAt()],
            )
        return breaker


def skipped_until(location: str) -> float | None:
    """While this process's breaker for the cache at ``location`` is open: the time (epoch
    seconds) of the probe's next PING, which closes it if answered (a failed PING opens it
    anew, moving this time on). None when the cache is being used."""
    with _breakers_lock:
        breaker = _breakers.get(location)
    if breaker is None or breaker.current_state != pybreaker.STATE_OPEN:
        return None
    opened = _opened_at.get(breaker.name)
    return (opened or time.time()) + breaker.reset_timeout


class _LogOpening(pybreaker.CircuitBreakerListener):
    """One line when a breaker opens, with the error: the calls it then skips log nothing."""

    def failure(self, breaker: pybreaker.CircuitBreaker, error: BaseException) -> None:
        if breaker.current_state == pybreaker.STATE_CLOSED:  # this failure is about to open it
            logger.warning(
                "the cache at %s is skipped after %r, until it answers a PING (tried every %g s)",
                breaker.name,
                error,
                settings.CACHE_BREAKER_SECONDS,
            )


class _Probe:
    """While its breaker is open, a thread of this process PINGs the server every
    ``CACHE_BREAKER_SECONDS`` (each PING bounded by the socket timeouts) and closes the breaker
    at the first answer. Started by the first call the open breaker skips; one per breaker and
    process (a forked gunicorn worker starts its own)."""

    def __init__(self, breaker: pybreaker.CircuitBreaker, ping: Callable[[], Any]):
        self.breaker = breaker
        self.ping = ping
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def ensure_running(self) -> None:
        if self._pid == os.getpid() and self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._pid == os.getpid() and self._thread is not None and self._thread.is_alive():
                return
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name=f"cache-probe {self.breaker.name}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while self.breaker.current_state != pybreaker.STATE_CLOSED:
            time.sleep(settings.CACHE_BREAKER_SECONDS)
            if self.breaker not in _breakers.values():
                return  # replaced (a test's settings changed): nobody reads this one any more
            if self.breaker.current_state == pybreaker.STATE_CLOSED:
                return  # an invalidation reached the server meanwhile (past_the_breaker) and closed it
            try:
                self.ping()
            except (RedisError, OSError) as error:
                if self.breaker not in _breakers.values():
                    return
                logger.info("the cache at %s still does not answer: %r", self.breaker.name, error)
                self.breaker.open()  # a new cool-down: when the next PING goes
                continue
            self.breaker.close()
            logger.warning("the cache at %s answers again: readers use it again", self.breaker.name)
            return


_probes: dict[str, _Probe] = {}


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
            if self.breaker.current_state == pybreaker.STATE_OPEN:
                # Never through an open breaker, even after its reset timeout: the probe tries.
                raise pybreaker.CircuitBreakerError
            return self.breaker.call(unguarded, self, *args, **kwargs)
        except pybreaker.CircuitBreakerError:
            self.probe.ensure_running()
            raise CacheSkipped(
                f"the cache at {self.breaker.name} is skipped after an error, until it answers a PING"
                f" (tried every {settings.CACHE_BREAKER_SECONDS:g} s)"
            ) from None

    method.__name__ = name
    return method


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers: list[str], *args: Any, **kwargs: Any):
        super().__init__(servers, *args, **kwargs)
        self._clients: dict[Any, Any] = {}  # by connection pool, which Django keeps for good
        location = ",".join(servers)
        self.breaker = breaker_for(location)
        with _breakers_lock:
            self.probe = _probes.get(location)
            if self.probe is None or self.probe.breaker is not self.breaker:
                self.probe = _probes[location] = _Probe(self.breaker, self._ping)

    def _ping(self) -> Any:
        return self.get_client(write=True).ping()

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

    def validate_key(self, key: str) -> None:
        """Nothing to check: Redis takes any key. Django's backends hold every key to memcached's
        rules (250 characters, no spaces or control characters) with a loop over its
        characters, about 2 us a key here and four keys a page-cache miss; Django's cache
        documentation suggests this override for a backend that accepts any key."""
