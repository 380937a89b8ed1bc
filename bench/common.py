"""Shared set-up for the benchmarks: a throwaway database of either kind, and Django on it.

Each benchmark runs in its own process (``bench/run.py`` starts them), because Django's
settings are read once per process.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PG_SERVER = os.getenv("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")


def postgres_available() -> bool:
    result = subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-q"], check=False, capture_output=True)
    return result.returncode == 0


def redis_available() -> bool:
    result = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"], check=False, capture_output=True)
    return result.returncode == 0 and result.stdout.strip() == b"PONG"


def fresh_database_url(kind: str, name: str) -> str:
    """A new, empty database: a temporary SQLite file, or a PostgreSQL database made anew."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix=f"bench-{name}-")
        return f"sqlite:///{folder}/db.sqlite3"
    if kind == "postgres":
        database = f"bench_{name}"
        for sql in (f"DROP DATABASE IF EXISTS {database} WITH (FORCE)", f"CREATE DATABASE {database}"):
            subprocess.run(["psql", f"{PG_SERVER}/postgres", "-q", "-c", sql], check=True, capture_output=True)
        return f"{PG_SERVER}/{database}"
    raise ValueError(f"unknown database kind {kind!r}")


def setup_django(database_url: str) -> None:
    """Point Django at the database, in this process, and migrate it."""
    sys.path.insert(0, str(BASE_DIR))
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
    os.environ.setdefault("DEBUG", "false")
    # Benchmarks never call out to a manifest provider.
    os.environ["MANIFEST_PROVIDER_URL"] = ""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def median_ms(action: Callable[[], object], *, repeat: int = 15, warmup: int = 2) -> float:
    for _ in range(warmup):
        action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
