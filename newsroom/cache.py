"""Django's Redis cache backend, keeping one Redis client per connection pool.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call, and
redis-py 8 builds its table of some 170 response callbacks in each one. When a cached story
page still cost two calls (the generation, then the page), that was 0.53 ms of CPU per page
in-process against 0.10 ms with the local-memory cache, most of it in ``Redis.__init__``; with
one client per pool it was 0.37 ms (and is 0.26 ms now that the page takes one call).

A ``Redis`` client may be shared by threads (it takes a connection from its pool for each
command), so one per pool serves every call.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._clients: dict[Any, Any] = {}  # by connection pool, which Django keeps for good

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above; the same
    settings (``LOCATION``, ``KEY_PREFIX``, ``OPTIONS``)."""

    def __init__(self, server: Any, params: dict[str, Any]):
        super().__init__(server, params)
        self._class = RedisCacheClient
