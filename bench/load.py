"""The load run: LOAD_SECONDS (60) at LOAD_CONNECTIONS (64) concurrent clients over a reader's
mix (story pages, both twins, listings, search and the API's list and detail), against the site
as deployed: production settings, PostgreSQL, the Redis cache, gunicorn with the Procfile's
sync workers (LOAD_WORKERS, default 2 as WEB_CONCURRENCY).

    .venv/bin/python bench/load.py
    LOAD_SECONDS=10 .venv/bin/python bench/load.py      # a quick run

It makes a throwaway PostgreSQL database on 127.0.0.1:5432, loads the demo (both seeds,
checked and published) and publishes 58 generated stories (60 live), collects the static
files, and starts gunicorn with DJANGO_MODE=production (SECURE_SSL_REDIRECT off: no TLS proxy
in front), the Redis at 127.0.0.1:6379 database 14 under a key prefix of its own (its keys are
deleted at the end). The API's throttle would refuse one address's load after 120 requests a
minute, as it should: it is set high enough never to refuse here, but still counts.

Each client sends one request at a time on a new connection and the next as soon as the answer
is complete (bench/loadgen.py); a request unanswered after LOAD_CLIENT_TIMEOUT (10) seconds
counts as a timeout. After 3 s of warm-up, every request of the timed window is kept.

Prints requests/s, p50, p99, errors (no answer, or a 5xx) and responses of 500, overall and
per path. Target: 0 errors and 0 responses of 500.
"""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BASE_DIR))
from bench import pages  # noqa: E402
from bench.loadgen import Load, by_path, summary, table  # noqa: E402

SECONDS = float(os.getenv("LOAD_SECONDS", "60"))
CONNECTIONS = int(os.getenv("LOAD_CONNECTIONS", "64"))
WORKERS = int(os.getenv("LOAD_WORKERS", "2"))
CLIENT_TIMEOUT = float(os.getenv("LOAD_CLIENT_TIMEOUT", "10"))
WARM_UP = 3.0
LOG = BASE_DIR / "test-artifacts" / "bench" / "load.log"

SEED = "/stories/2026-10-16/agent-training-stack/"
# Weighted by repetition: story pages and twins most, then listings, the API and search.
MIX = [
    SEED,
    "/stories/2026-10-20/agentic-rl-production/",
    "/stories/2026-10-20/generated-1/",
    "/stories/2026-10-20/generated-17/",
    "/stories/2026-10-20/generated-33/",
    "/stories/2026-10-20/generated-49/",
    SEED + "index.json",
    "/stories/2026-10-20/generated-5/index.json",
    SEED + "index.md",
    "/stories/2026-10-20/generated-9/index.md",
    "/",
    "/n/artificial-intelligence/",
    "/n/artificial-intelligence/research/",
    "/api/v1/stories/",
    "/api/v1/stories/81/",
    "/api/v1/stories/50003/",
    "/search/?q=agents",
    "/search/?q=reinforcement+learning",
]


def environment() -> dict[str, str]:
    from common import fresh_database_url

    env = pages._environment(fresh_database_url("postgres", "load"))
    static_root = tempfile.mkdtemp(prefix="bench-load-static-")
    env |= {
        "DJANGO_MODE": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": static_root,
        "DATABASE_CONN_MAX_AGE": "60",  # production's default
        "REDIS_URL": pages.REDIS_URL,
        "CACHE_KEY_PREFIX": f"bench-load-{secrets.token_hex(6)}",
        "CELERY_TASK_ALWAYS_EAGER": "true",  # the demo's checks, in-process: no worker here
        "API_ANON_RATE": "1000000/second",
        "MANIFEST_PROVIDER_URL": "",
    }
    return env


def prepare(env: dict[str, str]) -> None:
    """As ``make serve`` does, migrate and collect the static files first (production's pages
    name them by their hashes), then load the demo and the generated stories."""
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=BASE_DIR, env=env, check=True, capture_output=True)
    code = "from bench.api import publish_generated; publish_generated(58)"
    subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, check=True, capture_output=True)


def unloaded_latencies(server: pages.Server) -> dict[str, float]:
    """Every path answers 200 before it is timed; the median of 5 requests one at a time
    (after one that fills the caches), for reading the loaded figures against."""
    medians = {}
    for path in MIX:
        times = []
        for attempt in range(6):
            began = time.perf_counter()
            with urllib.request.urlopen(server.url(path), timeout=30) as response:
                response.read()
                if response.status != 200:
                    raise RuntimeError(f"{path} answers {response.status}, not 200 (log: {LOG})")
            if attempt:
                times.append((time.perf_counter() - began) * 1000)
        medians[path] = statistics.median(times)
    return medians


def main() -> int:
    sys.path.insert(0, str(BENCH_DIR))
    from common import postgres_available, redis_available

    if not (postgres_available() and redis_available()):
        print("load  needs PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379: not run")
        return 0
    env = environment()
    prepare(env)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    server = pages.Server(env, cache="on", workers=WORKERS, log_path=LOG)
    try:
        alone = unloaded_latencies(server)
        load_average = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        load = Load(server.port, MIX, connections=CONNECTIONS, timeout=CLIENT_TIMEOUT).start()
        time.sleep(WARM_UP)
        start = time.monotonic()
        time.sleep(SECONDS)
        end = time.monotonic()
        samples = load.stop()
    finally:
        server.stop()
        pages._delete_keys(env["CACHE_KEY_PREFIX"])
    whole = summary(samples, start, end)
    print(
        f"load  {SECONDS:g} s at {CONNECTIONS} connections, {len(MIX)} paths; gunicorn {WORKERS} sync workers, "
        f"production settings, PostgreSQL, Redis cache; client timeout {CLIENT_TIMEOUT:g} s; "
        f"load average before {load_average} on {os.cpu_count()} CPUs",
        flush=True,
    )
    rows = by_path(samples, MIX, start, end)
    print(table(rows, prefix="load  "))
    print("load  one request at a time, before the load (median of 5):")
    for path, milliseconds in alone.items():
        print(f"load    {path:60} {milliseconds:7.1f} ms")
    print(table([("all", whole)], prefix="load  "))
    errors, fives = whole.errors, whole.count(500)
    verdict = "met" if errors == 0 and fives == 0 else "MISSED"
    print(
        f"load  {whole.rate:.0f} requests/s, p50 {whole.p50:.1f} ms, p99 {whole.p99:.1f} ms, "
        f"errors {errors} (timeouts {whole.timeouts}), responses of 500: {fives}   "
        f"target 0 errors and 0 responses of 500: {verdict}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
