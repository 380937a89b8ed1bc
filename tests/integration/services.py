"""A Redis and a PostgreSQL of the drill's own, and the site served by gunicorn against them.

Each server runs from a temporary directory on a free port of 127.0.0.1, is started, paused,
stopped and restarted by the drill, and is removed at the end: a fault drill never touches the
machine's own servers. PostgreSQL's ``initdb`` refuses to run as root, so as root the cluster
is made and run as the ``postgres`` user (``runuser``), which the Debian package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import pages  # noqa: E402  (the gunicorn server and the site's environment)

LOG_DIR = Path(os.getenv("DRILL_LOG_DIR", ROOT / "test-artifacts" / "drills"))


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def verdict(failures: list[str], started: float) -> int:
    """A drill's end: each failure, then OK or FAILED with its time; the exit status."""
    for failure in failures:
        log(f"FAIL: {failure}")
    log(f"{'FAILED' if failures else 'OK'} in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


def wait_until(what: str, condition, timeout: float, interval: float = 0.05) -> float:
    """Seconds it took for ``condition()`` to hold; AssertionError after ``timeout``."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(Exception):
            if condition():
                return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(interval)


class OwnRedis:
    """redis-server on a free port, no persistence; pause (SIGSTOP), resume, stop and start."""

    def __init__(self) -> None:
        self.port = pages._free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="drill-redis-"))
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", str(self.folder), "--logfile", str(self.folder / "redis.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until("Redis answers", self.answers, 10)
        return self

    def answers(self) -> bool:
        result = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, timeout=1, check=False, text=True
        )
        return result.stdout.strip() == "PONG"

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process does not act on SIGTERM
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise SystemExit("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin/")
    return Path(found[-1]).parent


class OwnPostgres:
    """A PostgreSQL cluster of its own (initdb in a temporary directory, trust on 127.0.0.1)."""

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        self.port = pages._free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="drill-postgres-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            # initdb and postgres refuse root: the cluster belongs to the postgres user.
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, cwd=self.folder)

    def initialise(self) -> OwnPostgres:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        return self

    def _ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), action, "-D", str(self.data), "-w", "-o", options,
            "-l", str(self.folder / "postgres.log"), *extra,
        )  # fmt: skip

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        # fast: what a restart by the operator does (sessions are ended, nothing is lost).
        self._ctl("stop", "-m", "fast")

    def answers(self) -> bool:
        result = subprocess.run(
            [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"], check=False, timeout=2
        )
        return result.returncode == 0

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def site_environment(database_url: str, redis_url: str = "", **extra: str) -> dict[str, str]:
    """The site's settings for gunicorn and manage.py: production-like persistent connections,
    DEBUG off, the API throttle high enough never to refuse the load (but still counted)."""
    env = pages._environment(database_url)
    env |= {"API_ANON_RATE": "1000000/second", "MANIFEST_PROVIDER_URL": ""}
    if redis_url:
        env |= {"REDIS_URL": redis_url, "CACHE_KEY_PREFIX": f"drill-{secrets.token_hex(4)}"}
        env |= {"CELERY_TASK_ALWAYS_EAGER": "true"}
    return env | extra


def prepare_site(env: dict[str, str], stories: int = 5) -> None:
    """Migrate, load the demo (two seeds, checked and published) and publish generated copies."""
    pages._prepare_database(env)
    code = f"from bench.api import publish_generated; publish_generated({stories})"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True)


# A reader's mix: story pages and twins, listings and the API; MIX adds search, which no cache
# keeps (each query is one PostgreSQL full-text search).
CACHED_MIX = [
    "/stories/2026-10-16/agent-training-stack/",
    "/stories/2026-10-16/agent-training-stack/index.json",
    "/stories/2026-10-16/agent-training-stack/index.md",
    "/stories/2026-10-20/generated-3/",
    "/",
    "/n/artificial-intelligence/",
    "/api/v1/stories/",
    "/api/v1/stories/81/",
]
MIX = [*CACHED_MIX, "/search/?q=agents"]


def serve(env: dict[str, str], name: str, *, cache: str = "on", workers: int = 2) -> pages.Server:
    """gunicorn with the site (sync workers, as in production), its log in LOG_DIR/NAME.log."""
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    server = pages.Server(env, cache=cache, workers=workers, log_path=LOG_DIR / f"{name}.log")
    log(f"gunicorn {name}: {workers} sync workers on 127.0.0.1:{server.port}, log {LOG_DIR / f'{name}.log'}")
    return server
