#!/usr/bin/env python
"""Fault drill: Redis stopped under load, then started again.

    .venv/bin/python tests/integration/redis_restart.py

A Redis and a PostgreSQL of the drill's own (tests/integration/services.py) and the site under
gunicorn (2 sync workers), loaded by DRILL_CONNECTIONS (8) clients over a reader's mix: story
pages, both twins, listings, search and the API. A client gives up on a request after
DRILL_CLIENT_TIMEOUT (2) seconds.

1. PHASE (5) seconds warm, with the Redis cache.
2. Redis is stopped (SIGTERM: it closes its connections and the port refuses new ones), DOWN (8)
   seconds under load.
3. Redis is started again on the same port, empty (no persistence, as after a crash), and the
   load goes on for AFTER (8) seconds: the breaker's PING (every CACHE_BREAKER_SECONDS, 5) finds
   it and readers use the cache again.

Targets: no 5xx and no client timeout at any time; every path of the mix answers 200 while Redis
is down; the cache is used again after the restart (its keyspace hits grow; the drill prints how
long after the start the first one came). Exit status 0 when all hold, 1 otherwise.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.loadgen import Load, by_path, summary, table, timeline
from tests.integration.services import MIX, OwnPostgres, OwnRedis, log, prepare_site, serve, site_environment, verdict

CONNECTIONS = int(os.getenv("DRILL_CONNECTIONS", "8"))
CLIENT_TIMEOUT = float(os.getenv("DRILL_CLIENT_TIMEOUT", "2"))
PHASE = float(os.getenv("DRILL_PHASE_SECONDS", "5"))
DOWN = float(os.getenv("DRILL_DOWN_SECONDS", "8"))
AFTER = float(os.getenv("DRILL_AFTER_SECONDS", "8"))


def cache_stats(redis_url: str) -> tuple[int, int]:
    """Keyspace hits since the server started, and keys in the drill's database."""
    import redis

    server = redis.Redis.from_url(redis_url, socket_timeout=2)
    return int(server.info("stats")["keyspace_hits"]), int(server.dbsize())


def main() -> int:
    started = time.monotonic()
    redis_server = OwnRedis()
    postgres = OwnPostgres()
    server = None
    try:
        redis_server.start()
        postgres.initialise().start()
        env = site_environment(postgres.create_database("drill"), redis_server.url)
        prepare_site(env)
        log(f"Redis on port {redis_server.port}, PostgreSQL on port {postgres.port}; site ready")
        server = serve(env, "redis-restart")

        load = Load(server.port, MIX, connections=CONNECTIONS, timeout=CLIENT_TIMEOUT).start()
        time.sleep(1)  # the page cache fills
        warm_from = time.monotonic()
        time.sleep(PHASE)
        redis_server.stop()
        down_from = time.monotonic()
        log(f"Redis stopped, {DOWN:g} s under load")
        time.sleep(DOWN)
        redis_server.start()
        up_at = time.monotonic()
        log("Redis started again, empty")
        first_hit = None
        while time.monotonic() - up_at < AFTER:
            if first_hit is None and cache_stats(redis_server.url)[0] > 0:
                first_hit = time.monotonic() - up_at
            time.sleep(0.1)
        end = time.monotonic()
        hits, keys = cache_stats(redis_server.url)
        samples = load.stop()

        warm = summary(samples, warm_from, down_from)
        down = summary(samples, down_from, up_at)
        after = summary(samples, up_at, end)
        whole = summary(samples, 0, float("inf"))
        paths_down = by_path(samples, MIX, down_from, up_at)
        print(
            f"\nredis-restart: {CONNECTIONS} connections, client timeout {CLIENT_TIMEOUT:g} s, "
            f"mix of {len(MIX)} paths, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )
        rows = [("Redis cache, warm", warm), (f"Redis stopped {DOWN:g} s", down), ("after the restart", after)]
        print(table(rows, prefix="redis-restart  "))
        used_again = f"{first_hit:.1f} s after the start" if first_hit is not None else "never"
        print(f"redis-restart  cache used again: first keyspace hit {used_again}; {hits} hits, {keys} keys at the end")
        if os.getenv("DRILL_TIMELINE"):
            print(timeline(samples, warm_from, end, prefix="redis-restart  "))
            print(table(paths_down, prefix="down           "))
        print()

        failures = []
        if whole.errors:
            failures.append(f"{whole.errors} requests answered 5xx or not at all: {whole.statuses_text()}")
        if whole.timeouts:
            failures.append(f"{whole.timeouts} client timeouts")
        for path, path_summary in paths_down:
            if path_summary.requests == 0 or path_summary.count(200) != path_summary.requests:
                failures.append(f"{path} while Redis was down: {path_summary.statuses_text() or 'no requests'}")
        if first_hit is None or keys == 0:
            failures.append(f"the cache was not used again after the restart ({hits} hits, {keys} keys)")
        return verdict(failures, started)
    finally:
        if server is not None:
            server.stop()
        redis_server.remove()
        postgres.remove()


if __name__ == "__main__":
    sys.exit(main())
