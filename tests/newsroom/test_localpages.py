"""Per-process copies of pages read from Redis: kept while the subscription holds, dropped the
moment a change of their tag is announced, never kept when a change raced their read."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
import redis

from newsroom import localpages
from newsroom.localpages import EVERYTHING, LocalPages


@dataclass(frozen=True)
class Page:
    tag: str


def listening(local: LocalPages) -> LocalPages:
    """Confirm the subscription as Redis would, without a listener thread (unit tests)."""
    local._pid = os.getpid()
    local.receive({"type": "subscribe", "channel": local.channel, "data": 1})
    return local


def announced(local: LocalPages, tags: list[str]) -> None:
    local.receive({"type": "message", "channel": local.channel, "data": json.dumps(tags)})


def test_nothing_is_kept_before_the_subscription_is_confirmed():
    local = LocalPages("redis://unused", "test", size=10)
    local._pid = os.getpid()

    assert not local.put("a", Page("story-1"), local.get("a")[1])
    assert local.get("a")[0] is None


def test_a_kept_page_is_dropped_when_its_tag_changes_and_others_stay():
    local = listening(LocalPages("redis://unused", "test", size=10))
    _, epoch = local.get("a")
    assert local.put("a", Page("story-1"), epoch)
    assert local.put("b", Page("story-2"), epoch)

    announced(local, ["story-1", "site"])

    assert local.get("a")[0] is None
    assert local.get("b")[0] == Page("story-2")


def test_a_page_read_before_a_change_it_raced_is_not_kept():
    local = listening(LocalPages("redis://unused", "test", size=10))
    _, epoch = local.get("a")  # then Redis is read; meanwhile a change is announced
    announced(local, ["story-9"])

    assert not local.put("a", Page("story-1"), epoch)
    assert local.get("a")[0] is None


def test_everything_and_a_lost_subscription_drop_every_page():
    local = listening(LocalPages("redis://unused", "test", size=10))
    local.put("a", Page("story-1"), local.get("a")[1])
    announced(local, [EVERYTHING])
    assert local.get("a")[0] is None

    local.put("a", Page("story-1"), local.get("a")[1])
    with local._lock:
        local._forget(ready=False)  # what the listener does when its connection breaks
    assert local.get("a")[0] is None
    assert not local.put("a", Page("story-1"), local.get("a")[1])


def test_a_copy_is_kept_no_longer_than_the_shared_page_cache_keeps_the_page(settings):
    settings.PAGE_CACHE_SECONDS = 0.2
    local = listening(LocalPages("redis://unused", "test", size=10))
    assert local.put("a", Page("story-1"), local.get("a")[1])
    assert local.get("a")[0] == Page("story-1")

    time.sleep(0.3)

    assert local.get("a")[0] is None


def test_it_keeps_at_most_its_size_dropping_the_least_recently_used():
    local = listening(LocalPages("redis://unused", "test", size=2))
    epoch = local.get("a")[1]
    local.put("a", Page("t"), epoch)
    local.put("b", Page("t"), epoch)
    local.get("a")
    local.put("c", Page("t"), epoch)

    assert [key for key in "abc" if local.get(key)[0] is not None] == ["a", "c"]


def _wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_real_listener_drops_a_page_when_redis_announces_its_tag(require_redis):
    channel = f"test-local-pages-{uuid.uuid4().hex}"
    local = LocalPages(require_redis, channel, size=10)
    local.get("warm-up")  # starts the listener thread in this process
    assert _wait_for(lambda: local.put("a", Page("story-1"), local.get("a")[1]))

    redis.Redis.from_url(require_redis).publish(channel, json.dumps(["story-1"]))

    assert _wait_for(lambda: local.get("a")[0] is None)


def test_announce_publishes_on_the_cache_prefix_channel(require_redis, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": require_redis,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    subscriber = redis.Redis.from_url(require_redis).pubsub()
    subscriber.subscribe(localpages.channel())
    assert _wait_for(lambda: subscriber.get_message(timeout=0.1) is not None)  # the confirmation

    localpages.announce(["story-81", "site"])

    received = []
    assert _wait_for(lambda: received.append(subscriber.get_message(timeout=0.1)) or received[-1] is not None)
    subscriber.close()
    assert json.loads(received[-1]["data"]) == ["story-81", "site"]


@pytest.mark.parametrize("backend", ["django.core.cache.backends.locmem.LocMemCache"])
def test_with_a_per_process_cache_there_are_no_copies_and_nothing_to_announce(settings, backend):
    settings.CACHES = {"default": {"BACKEND": backend}}
    settings.REDIS_URL = ""

    assert localpages.local_pages() is None
    localpages.announce(["site"])  # no Redis to reach, and nothing raised


class FreezableProxy:
    """A TCP proxy on 127.0.0.1 to a real Redis that can stop passing bytes on, as a Redis
    stopped with SIGSTOP does: connections stay open, commands are sent, nothing comes back."""

    def __init__(self, url: str) -> None:
        target = urlsplit(url)
        self.target = (target.hostname, target.port or 6379)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}{target.path}"
        self.frozen = threading.Event()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.frozen.is_set():
                    time.sleep(0.01)
                target.sendall(data)
        except OSError:
            pass


def test_a_hung_redis_counts_as_a_lost_subscription_until_it_answers_again(require_redis, settings):
    settings.CACHE_TIMEOUT_SECONDS = 0.2
    proxy = FreezableProxy(require_redis)
    try:
        local = LocalPages(proxy.url, f"test-local-pages-{uuid.uuid4().hex}", size=10)
        local.get("warm-up")  # starts the listener thread in this process
        assert _wait_for(lambda: local.put("a", Page("story-1"), local.get("a")[1]))

        proxy.frozen.set()
        # A change announced now would never be heard: the copies go within a PING and a timeout.
        hung = time.monotonic()
        assert _wait_for(lambda: local.get("a")[0] is None)
        assert time.monotonic() - hung < localpages.PING_SECONDS + 0.2 + 0.5
        assert not local.put("a", Page("story-1"), local.get("a")[1])

        proxy.frozen.clear()
        assert _wait_for(lambda: local.put("a", Page("story-1"), local.get("a")[1]))
    finally:
        # Left running (daemon threads): closed, the listener would retry and log every second
        # until the test process ends.
        proxy.frozen.clear()
