"""What observability costs each request: in-process CPU per request for the hello view, /healthz
and the cached story page, through the site's whole middleware and again without the middleware
that gives each request its id, its log line and its metrics (``newsroom/ops/observe.py``).

    .venv/bin/python bench/middleware.py                  # 2,000 requests a batch, best of 5
    .venv/bin/python bench/middleware.py --requests 5000

It makes a throwaway SQLite database with the demo loaded, as the pages bench does, and calls the
site's WSGI application directly (``bench/pages.py``'s ``cpu_per_request``): no server, no network,
no client, so what it counts is the process's own work on each request. Logs are JSON lines, as
in production, written to a temporary file. Each measurement runs in a process of its own, since
settings and middleware are read once per process.

No target: the lines to read are "observability" (what that middleware adds to a request)
beside "bare" (everything else the request costs).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BASE_DIR))
from bench import pages  # noqa: E402

PATHS = {"hello": pages.HELLO, "healthz": "/healthz", "story cached": pages.STORY}


def _cpu(env: dict[str, str], url_path: str, *, observability: str, requests: int) -> float:
    """``pages.cpu_per_request`` in a process of its own, its log lines in a temporary file."""
    code = f"from bench.pages import cpu_per_request; print(cpu_per_request({url_path!r}, requests={requests}))"
    with tempfile.TemporaryFile() as log:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=BASE_DIR,
            env=env | {"BENCH_PAGE_CACHE": "on", "BENCH_OBSERVABILITY": observability},
            check=True,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
    return float(result.stdout.strip().splitlines()[-1])


def run(*, requests: int) -> dict[str, dict[str, float]]:
    sys.path.insert(0, str(BENCH_DIR))
    from common import fresh_database_url

    env = pages._environment(fresh_database_url("sqlite", "middleware")) | {"LOG_FORMAT": "json"}
    pages._prepare_database(env)
    cpu = {
        name: {
            "whole": _cpu(env, url_path, observability="on", requests=requests),
            "bare": _cpu(env, url_path, observability="off", requests=requests),
        }
        for name, url_path in PATHS.items()
    }
    print(
        f"middleware  in-process CPU per request, best of 5 batches of {requests:,}; SQLite, local-memory cache, "
        "JSON logs to a file",
        flush=True,
    )
    for name, measured in cpu.items():
        added = measured["whole"] - measured["bare"]
        print(
            f"middleware  {name:13} whole {measured['whole']:6.3f} ms   bare {measured['bare']:6.3f} ms   "
            f"observability {added:6.3f} ms ({added / measured['whole']:4.0%})",
            flush=True,
        )
    return cpu


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per timed batch (default 2000)")
    args = parser.parse_args(argv)
    return run(requests=args.requests)


if __name__ == "__main__":
    main()
