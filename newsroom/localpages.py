"""Pages a process read from the shared page cache, kept in its own memory and dropped the moment
Redis says they changed.

With Redis as the page cache every hit costs a round trip to it, which is most of a warm page's
cost. redis-py's client-side cache would remove it, but needs Redis 7.4 or later; this is the same
idea on Redis's plain pub/sub: ``tags_changed`` and ``pages_changed`` publish what changed on a
channel, and a thread in each serving process listens and drops its copies of those pages.

It is safe by construction:
- pages are kept only while the subscription is confirmed; when it breaks, every copy is dropped
  and lookups go to Redis until it is confirmed again (so no message can have been missed);
- every message bumps an epoch, and a page read from Redis is kept only if no message arrived
  between that read and keeping it (a change racing the read leaves it out, not stale);
- a hung Redis breaks the subscription too: it keeps the connection open and answers nothing,
  so no change could be heard. The listener sends a PING every ``PING_SECONDS`` and counts
  the subscription broken when nothing has come back ``CACHE_TIMEOUT_SECONDS`` after one;
- a copy is kept no longer than the page in Redis (``PAGE_CACHE_SECONDS``), so a change whose
  announcement never got out (Redis unreachable from the publisher) is stale for no longer
  than the shared page cache keeps it.

A publish reaches every process's readers within one pub/sub delivery (about a millisecond on one
machine). Off with the local-memory cache, which is per process already, and when
``PAGE_CACHE_LOCAL_ENTRIES`` is 0.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import OrderedDict
from typing import Any

import redis
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

logger = logging.getLogger(__name__)

EVERYTHING = "*"
RECONNECT_SECONDS = 1.0
PING_SECONDS = 1.0


class Unanswered(redis.TimeoutError):
    """Redis took no notice of the listener's PING: hung, or unreachable with the connection open."""


def channel() -> str:
    """The invalidation channel: per cache key prefix, as pub/sub channels span Redis databases."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:pages:changed"


def announce(tags: list[str]) -> None:
    """Tell every serving process which pages changed (``EVERYTHING`` for all of them)."""
    if not _shared_redis():
        return
    local = local_pages()
    if local is not None:
        local.drop(tags)  # this process at once; the others when the message reaches them
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=settings.CACHE_TIMEOUT_SECONDS).publish(
        channel(), json.dumps(tags)
    )


def _shared_redis() -> bool:
    return bool(getattr(settings, "REDIS_URL", "")) and "Redis" in settings.CACHES["default"]["BACKEND"]


class LocalPages:
    def __init__(self, url: str, channel_name: str, size: int):
        self.url = url
        self.channel = channel_name
        self.size = size
        self._lock = threading.Lock()
        self._pages: OrderedDict[str, tuple[Any, float]] = OrderedDict()  # page, when it expires
        self._epoch = 0
        self._ready = False
        self._pid: int | None = None

    # --- Serving threads ---------------------------------------------------------------------

    def get(self, key: str) -> tuple[Any | None, int]:
        """The page kept under ``key`` (None if there is none or the listener is not ready),
        and the epoch to hand back to ``put`` after reading Redis."""
        self._ensure_listening()
        with self._lock:
            if not self._ready:
                return None, self._epoch
            kept = self._pages.get(key)
            if kept is None:
                return None, self._epoch
            page, expires = kept
            if time.monotonic() >= expires:
                del self._pages[key]
                return None, self._epoch
            self._pages.move_to_end(key)
            return page, self._epoch

    def put(self, key: str, page: Any, epoch: int) -> bool:
        """Keep a page read from Redis, unless something changed since ``epoch``."""
        with self._lock:
            if not self._ready or epoch != self._epoch:
                return False
            self._pages[key] = (page, time.monotonic() + settings.PAGE_CACHE_SECONDS)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
            return True

    # --- The listener ------------------------------------------------------------------------

    def _ensure_listening(self) -> None:
        # After a fork (gunicorn's workers) the parent's thread is gone: start one here.
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._forget(ready=False)
            threading.Thread(target=self._listen, name="local-pages", daemon=True).start()

    def _forget(self, *, ready: bool) -> None:
        """Drop every page (the lock is held)."""
        self._pages.clear()
        self._epoch += 1
        self._ready = ready

    def _listen(self) -> None:
        while True:
            pubsub = None
            try:
                timeout = settings.CACHE_TIMEOUT_SECONDS
                client = redis.Redis.from_url(self.url, socket_connect_timeout=timeout, socket_timeout=timeout)
                pubsub = client.pubsub()
                pubsub.subscribe(self.channel)
                self._receive_until_unanswered(pubsub, timeout)
            except Exception as error:  # the listener must outlive any Redis failure
                logger.warning("local page copies off until Redis answers again: %r", error)
                with self._lock:
                    self._forget(ready=False)
                time.sleep(RECONNECT_SECONDS)
            finally:
                if pubsub is not None:
                    pubsub.close()

    def _receive_until_unanswered(self, pubsub: Any, timeout: float) -> None:
        """Hand every message to ``receive``, sending a PING whenever ``PING_SECONDS`` passed;
        raise ``Unanswered`` once nothing at all came back for ``timeout`` after a PING
        (the subscription's confirmation counts: until it comes, nothing is kept anyway)."""
        heard = pinged = time.monotonic()
        while True:
            now = time.monotonic()
            if now - pinged >= PING_SECONDS:
                pubsub.ping()
                pinged = now
            message = pubsub.get_message(timeout=min(PING_SECONDS, timeout) / 2)
            if message is not None:
                heard = time.monotonic()
                self.receive(message)
            elif pinged > heard and time.monotonic() - pinged > timeout:
                raise Unanswered(f"no answer from Redis {timeout:g} s after a PING")

    def receive(self, message: dict[str, Any]) -> None:
        with self._lock:
            if message["type"] == "subscribe":
                # Confirmed: from now on no change goes unheard.
                self._forget(ready=True)
                return
        if message["type"] == "message":
            self.drop(json.loads(message["data"]))

    def drop(self, tags: list[str]) -> None:
        """Drop the pages of these tags (of every tag for ``EVERYTHING``)."""
        with self._lock:
            self._epoch += 1
            if EVERYTHING in tags:
                self._pages.clear()
                return
            for key in [key for key, (page, _) in self._pages.items() if page.tag in tags]:
                del self._pages[key]


_local: dict[tuple[str, str, int], LocalPages] = {}
_local_lock = threading.Lock()


def local_pages() -> LocalPages | None:
    """This process's copies, when the page cache is Redis and they are enabled: one set per
    Redis, channel and size, so a change of settings (a test's own key prefix) gets its own.

    Looked up once for the settings in force, not on every request (seven settings read);
    ``setting_changed`` makes the next call look again."""
    global _configured
    if _configured is _NOT_LOOKED_UP:
        _configured = _configured_local_pages()
    return _configured


def _configured_local_pages() -> LocalPages | None:
    if not (settings.PAGE_CACHE_LOCAL_ENTRIES and _shared_redis()):
        return None
    config = (settings.REDIS_URL, channel(), settings.PAGE_CACHE_LOCAL_ENTRIES)
    local = _local.get(config)
    if local is None:
        with _local_lock:
            local = _local.setdefault(config, LocalPages(*config))
    return local


_NOT_LOOKED_UP: Any = object()
_configured: Any = _NOT_LOOKED_UP


@receiver(setting_changed)
def _look_up_again(*, setting: str, **kwargs: object) -> None:
    global _configured
    if setting in {"PAGE_CACHE_LOCAL_ENTRIES", "REDIS_URL", "CACHES"}:
        _configured = _NOT_LOOKED_UP
