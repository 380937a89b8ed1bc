"""The floor: requests per second of a bare Django view with nothing in front of it, beside the
same view behind Django's stock middleware, the project's hello view, the story page from the
page cache and the story page from its stored artifact (page cache cold), under wrk.

    .venv/bin/python bench/floor.py                          # 6 rounds of 3 s per target and pair
    .venv/bin/python bench/floor.py --rounds 10 --seconds 4
    .venv/bin/python bench/floor.py --accept-encoding ''      # requests that take no gzip

Every request carries the Accept-Encoding readers' browsers send (Chromium's) unless told
otherwise: a story's page then goes out as the gzip form stored with it (7.8 KB, not 37 KB).

Four gunicorn servers, each the same command (2 sync workers, 127.0.0.1), only one loaded at a
time; wrk (16 connections) measures each ratio's two targets back to back, one first in even
rounds and the other in odd ones, so the machine's other load (a shared virtual machine's can
swing a whole run by a fifth) falls on both alike; each ratio is the median of its rounds':

- "no middleware": ``bench/floor_site.py`` with no apps, no middleware, no database.
- "stock stack": the same view behind the apps and MIDDLEWARE of ``django-admin startproject``.
- "project hello", "story cached": the project as deployed (production settings, PostgreSQL,
  the Redis cache in database 13 under a key prefix of its own, JSON request logs to a file),
  its whole middleware in front of ``bench/pages.py``'s hello view and of the seed story page.
- "story cold": the same with Django's dummy cache: every request misses the page cache, and
  the page is sent from the version stored when it was published (one indexed query).

It needs PostgreSQL on 127.0.0.1:5432 (database ``newsroom_floor``, made anew), Redis on
127.0.0.1:6379 and wrk. Targets: project hello >= 90% of stock stack; story cached >= 70% of no
middleware; story cold >= 45% of no middleware.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BENCH_DIR))
from common import PG_SERVER, postgres_available, redis_available  # noqa: E402

from bench import pages  # noqa: E402

DATABASE = "newsroom_floor"
REDIS_URL = "redis://127.0.0.1:6379/13"
CONNECTIONS = 16
# (numerator, denominator, target)
RATIOS = {
    "project hello / stock stack": ("project hello", "stock stack", 0.90),
    "story cached / no middleware": ("story cached", "no middleware", 0.70),
    "story cold / no middleware": ("story cold", "no middleware", 0.45),
}


def environment() -> dict[str, str]:
    """The project's environment, as deployed (``bench/load.py``'s, on a database of its own)."""
    for sql in (f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)", f"CREATE DATABASE {DATABASE}"):
        subprocess.run(["psql", f"{PG_SERVER}/postgres", "-q", "-c", sql], check=True, capture_output=True)
    env = pages._environment(f"{PG_SERVER}/{DATABASE}")
    env |= {
        "DJANGO_MODE": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_ROOT": tempfile.mkdtemp(prefix="bench-floor-static-"),
        "DATABASE_CONN_MAX_AGE": "60",  # production's default
        "LOG_FORMAT": "json",
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": f"bench-floor-{secrets.token_hex(6)}",
        "CELERY_TASK_ALWAYS_EAGER": "true",  # the demo's checks, in-process: no worker here
        "MANIFEST_PROVIDER_URL": "",
    }
    return env


def stack_environment(env: dict[str, str], stack: str) -> dict[str, str]:
    """The environment of ``bench/floor_site.py`` with ``stack`` ("none" or "stock"): the
    project's, without its database and cache."""
    bare = {key: value for key, value in env.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    return bare | {"DJANGO_SETTINGS_MODULE": "bench.floor_site", "BENCH_FLOOR_STACK": stack}


def prepare(env: dict[str, str]) -> None:
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=BASE_DIR, env=env, check=True, capture_output=True)


def wrk(port: int, url_path: str, seconds: float, accept_encoding: str) -> float:
    """Requests per second wrk gets at CONNECTIONS connections; any error or non-2xx stops the run."""
    headers = ["-H", f"Accept-Encoding: {accept_encoding}"] if accept_encoding else []
    result = subprocess.run(
        ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds:g}s", *headers, f"http://127.0.0.1:{port}{url_path}"],
        check=True,
        capture_output=True,
        text=True,
    )
    output = result.stdout
    if "Non-2xx" in output or re.search(r"Socket errors: .*(read|write|timeout) [1-9]", output):
        raise RuntimeError(f"wrk met errors on {url_path}:\n{output}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def check(server: pages.Server, url_path: str, expected: bytes, accept_encoding: str) -> None:
    request = urllib.request.Request(server.url(url_path), headers={"Accept-Encoding": accept_encoding})
    for _ in range(3):  # the first may fill the page cache, the others are answered from it
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
            if response.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if response.status != 200 or expected not in body or "X-Request-ID" not in response.headers:
                raise RuntimeError(f"{url_path} does not answer as it should")


def run(*, seconds: float, rounds: int, workers: int, accept_encoding: str) -> dict[str, Any]:
    env = environment()
    prepare(env)
    log_dir = Path(tempfile.mkdtemp(prefix="bench-floor-logs-"))
    floor_app = "django.core.wsgi:get_wsgi_application()"
    servers: dict[str, pages.Server] = {}
    try:
        for stack in ("none", "stock"):
            servers[stack] = pages.Server(stack_environment(env, stack), cache="on", workers=workers, app=floor_app)
        servers["on"] = pages.Server(env, cache="on", workers=workers, log_path=log_dir / "cache-on.log")
        servers["off"] = pages.Server(env, cache="off", workers=workers, log_path=log_dir / "cache-off.log")
        for name in ("on", "off"):
            check(servers[name], pages.HELLO, b"hello", accept_encoding)
            check(servers[name], pages.STORY, b"Agent training gets practical", accept_encoding)
        plan = {
            "no middleware": (servers["none"], pages.HELLO),
            "stock stack": (servers["stock"], pages.HELLO),
            "project hello": (servers["on"], pages.HELLO),
            "story cached": (servers["on"], pages.STORY),
            "story cold": (servers["off"], pages.STORY),
        }
        samples: dict[str, list[float]] = {name: [] for name in plan}
        pairs: dict[str, list[float]] = {label: [] for label in RATIOS}
        labels = list(RATIOS)
        for round_number in range(rounds):
            # Each ratio's two targets run back to back, in one order one round and the other
            # the next, so a drift in the machine's other load falls on both alike; the pairs
            # take turns going first.
            shift = round_number % len(labels)
            for label in labels[shift:] + labels[:shift]:
                top, bottom, _ = RATIOS[label]
                order = (bottom, top) if round_number % 2 == 0 else (top, bottom)
                rate = {}
                for name in order:
                    server, url_path = plan[name]
                    rate[name] = wrk(server.port, url_path, seconds, accept_encoding)
                    samples[name].append(rate[name])
                pairs[label].append(rate[top] / rate[bottom])
        log_lines = sum(len((log_dir / f"cache-{name}.log").read_bytes().splitlines()) for name in ("on", "off"))
    finally:
        for server in servers.values():
            server.stop()
        pages._delete_keys(env["CACHE_KEY_PREFIX"], url=REDIS_URL)
        shutil.rmtree(env["STATIC_ROOT"], ignore_errors=True)
    rates = {name: statistics.median(values) for name, values in samples.items()}
    load_average = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"floor  gunicorn {workers} sync workers per server, wrk {CONNECTIONS} connections, {rounds} rounds x "
        f"{seconds:g} s, each ratio's pair back to back; PostgreSQL, Redis cache, production settings, JSON "
        f"logs to a file ({log_lines:,} lines); Accept-Encoding: {accept_encoding or '(none)'}; load average "
        f"{load_average} on {os.cpu_count()} CPUs",
        flush=True,
    )
    for name, rate in rates.items():
        spread = ", ".join(f"{value:.0f}" for value in samples[name])
        print(f"floor  {name:14} {rate:8.0f} req/s   (rounds: {spread})", flush=True)
    ratios = {}
    for label, (top, bottom, target) in RATIOS.items():
        each = pairs[label]
        ratios[label] = statistics.median(each)
        verdict = "met" if ratios[label] >= target else "MISSED"
        print(
            f"floor  {label:29} = {ratios[label]:5.2f}   target >= {target:.2f}: {verdict}"
            f"   (rounds: {min(each):.2f} to {max(each):.2f}; ratio of the medians {rates[top] / rates[bottom]:.2f})",
            flush=True,
        )
    return {"rates": rates, "ratios": ratios, "samples": samples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="one wrk run (default 3)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds over the three pairs (default 6)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers per server (default 2)")
    parser.add_argument(
        "--accept-encoding",
        default=pages.BROWSER_ACCEPT_ENCODING,
        help=f"each request's Accept-Encoding; '' for none (default: a browser's, {pages.BROWSER_ACCEPT_ENCODING!r})",
    )
    args = parser.parse_args(argv)
    if not (postgres_available() and redis_available() and shutil.which("wrk")):
        print("floor  needs PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379 and wrk: not run")
        return 0
    run(seconds=args.seconds, rounds=args.rounds, workers=args.workers, accept_encoding=args.accept_encoding)
    return 0


if __name__ == "__main__":
    sys.exit(main())
