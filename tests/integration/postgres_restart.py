#!/usr/bin/env python
"""Fault drill: PostgreSQL restarted under load.

    .venv/bin/python tests/integration/postgres_restart.py

A PostgreSQL and a Redis of the drill's own (tests/integration/services.py) and the site under
gunicorn (2 sync workers, persistent database connections as in production), loaded by
DRILL_CONNECTIONS (8) clients over a reader's mix: story pages, both twins, listings, search and
the API. A client gives up on a request after DRILL_CLIENT_TIMEOUT (2) seconds.

1. PHASE (5) seconds with everything up (the page cache warm).
2. PostgreSQL stopped (``pg_ctl stop -m fast``: sessions ended, the port closed), DOWN (5)
   seconds under load, then started again (``pg_ctl start -w``, which returns once it accepts
   connections: "back").
3. AFTER (6) seconds under load. The app is not restarted.

Targets: no response of 500 at any time; 503 only for requests under way while PostgreSQL was
down (from the stop to "back"), with Retry-After; no other error, no client timeout; recovery
within 2 s of "back" (no request started later than that gets anything but 200); the same
gunicorn workers before and after. Exit status 0 when all hold, 1 otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.loadgen import Load, by_path, summary, table, timeline
from tests.integration.services import MIX, OwnPostgres, OwnRedis, log, prepare_site, serve, site_environment, verdict

CONNECTIONS = int(os.getenv("DRILL_CONNECTIONS", "8"))
CLIENT_TIMEOUT = float(os.getenv("DRILL_CLIENT_TIMEOUT", "2"))
PHASE = float(os.getenv("DRILL_PHASE_SECONDS", "5"))
DOWN = float(os.getenv("DRILL_DOWN_SECONDS", "5"))
AFTER = float(os.getenv("DRILL_AFTER_SECONDS", "6"))
RECOVERY_TARGET = 2.0
SEARCH = "/search/?q=agents"  # no cache keeps it: it needs the database


def workers_of(pid: int) -> set[int]:
    result = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return {int(line) for line in result.stdout.split()}


def probe(url: str) -> tuple[int, str | None]:
    """Status and Retry-After of one request."""
    try:
        with urllib.request.urlopen(url, timeout=CLIENT_TIMEOUT) as response:
            return response.status, response.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After")
    except OSError:
        return -1, None


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
        log(f"PostgreSQL on port {postgres.port}, Redis on port {redis_server.port}; site ready")
        server = serve(env, "postgres-restart")
        workers_before = workers_of(server.process.pid)

        load = Load(server.port, MIX, connections=CONNECTIONS, timeout=CLIENT_TIMEOUT).start()
        time.sleep(1)  # the page cache fills
        up_from = time.monotonic()
        time.sleep(PHASE)
        stopped_at = time.monotonic()
        postgres.stop()
        log(f"PostgreSQL stopped ({time.monotonic() - stopped_at:.1f} s), {DOWN:g} s under load")
        time.sleep(DOWN / 2)
        while_down = probe(server.url(SEARCH))
        time.sleep(DOWN / 2)
        starting_at = time.monotonic()
        postgres.start()
        back_at = time.monotonic()
        log(f"PostgreSQL back (pg_ctl start took {back_at - starting_at:.1f} s)")
        time.sleep(AFTER)
        end = time.monotonic()
        samples = load.stop()
        workers_after = workers_of(server.process.pid)

        before = summary(samples, up_from, stopped_at)
        down = summary(samples, stopped_at, back_at)
        after = summary(samples, back_at, end)
        whole = summary(samples, 0, float("inf"))
        # A 503 is in order for a request under way at some moment while the database was away.
        misplaced_503 = [
            s for s in samples if s.status == 503 and (s.started + s.latency < stopped_at or s.started > back_at)
        ]
        late_failures = [s for s in samples if s.started >= back_at and s.status != 200]
        recovery = max((s.started + s.latency - back_at for s in late_failures), default=0.0)
        print(
            f"\npostgres-restart: {CONNECTIONS} connections, client timeout {CLIENT_TIMEOUT:g} s, "
            f"mix of {len(MIX)} paths, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )
        rows = [
            ("all up", before),
            (f"PostgreSQL away {back_at - stopped_at:.1f} s", down),
            ("after it is back", after),
        ]
        print(table(rows, prefix="postgres-restart  "))
        print(
            f"postgres-restart  500s: {whole.count(500)}; 503s: {whole.count(503)} "
            f"({len(misplaced_503)} outside the outage); search while away: {while_down[0]}, "
            f"Retry-After {while_down[1]}; last failure {recovery:.2f} s after it was back; "
            f"gunicorn workers {'the same' if workers_after == workers_before else 'CHANGED'}"
        )
        if os.getenv("DRILL_TIMELINE"):
            print(timeline(samples, up_from, end, step=0.5, prefix="postgres-restart  "))
        print(table(by_path(samples, MIX, stopped_at, back_at), prefix="away              "))
        print()

        failures = []
        if whole.count(500):
            failures.append(f"{whole.count(500)} responses of 500 (target 0)")
        if misplaced_503:
            failures.append(f"{len(misplaced_503)} responses of 503 outside the outage")
        others = {status: n for status, n in whole.statuses.items() if status not in (200, 500, 503)}
        if others:
            failures.append(f"other answers: {others}")
        if while_down[0] == 503 and not while_down[1]:
            failures.append("the 503 while the database was away has no Retry-After")
        if recovery > RECOVERY_TARGET:
            failures.append(f"failures until {recovery:.2f} s after PostgreSQL was back (target {RECOVERY_TARGET:g} s)")
        if workers_after != workers_before:
            failures.append(f"gunicorn workers changed: {sorted(workers_before)} -> {sorted(workers_after)}")
        return verdict(failures, started)
    finally:
        if server is not None:
            server.stop()
        redis_server.remove()
        postgres.remove()


if __name__ == "__main__":
    sys.exit(main())
