"""`make serve` and its Procfile: the processes README documents, migrate and collectstatic
first, and (with PostgreSQL and Redis) the whole thing answering on its port."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.db import connection

from newsroom.celery import app as celery_app
from newsroom.ops.tasks import worker_heartbeat

BASE_DIR = Path(__file__).resolve().parents[2]
# Never remake the virtualenv from here: `make test` has just made it.
MAKE = ["make", "--no-print-directory", "-o", ".venv/bin/.installed"]


def procfile() -> dict[str, str]:
    processes = {}
    for line in (BASE_DIR / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, command = line.partition(":")
            processes[name.strip()] = command.strip()
    return processes


def operations_section() -> str:
    readme = (BASE_DIR / "README.md").read_text()
    return readme[readme.index("\n## Operations\n") :]


def test_the_procfile_runs_web_worker_and_beat():
    processes = procfile()
    assert list(processes) == ["web", "worker", "beat"]
    assert shlex.split(processes["web"])[:2] == ["gunicorn", "newsroom.wsgi"]
    assert shlex.split(processes["worker"])[:4] == ["celery", "-A", "newsroom", "worker"]
    assert shlex.split(processes["beat"])[:4] == ["celery", "-A", "newsroom", "beat"]


def test_readme_documents_the_procfiles_processes_as_they_are():
    section = operations_section()
    block = re.search(r"```Procfile\n(.*?)```", section, re.DOTALL)
    assert block is not None, "README's Operations section shows the Procfile"
    documented = dict(line.split(": ", 1) for line in block.group(1).strip().splitlines())
    assert documented == procfile()
    for name in procfile():
        assert f"| `{name}` |" in section
    # The systemd units start the same programs, the worker on the same queues.
    exec_starts = re.findall(r"^ExecStart=/srv/newsroom/\.venv/bin/(.+)$", section, re.MULTILINE)
    assert sorted(program(line) for line in exec_starts) == sorted(program(command) for command in procfile().values())
    worker_unit = next(line for line in exec_starts if program(line) == "celery -A newsroom worker")
    assert queues(worker_unit) == queues(procfile()["worker"])


def program(command: str) -> str:
    """The program and what it runs: the words before the first option (but Celery's -A)."""
    words = shlex.split(command)
    end = next((index for index, word in enumerate(words) if word.startswith("-") and word != "-A"), len(words))
    return " ".join(words[:end])


def queues(command: str) -> set[str]:
    words = shlex.split(command)
    return set(words[words.index("-Q") + 1].split(","))


def test_the_worker_takes_every_queue_tasks_and_heartbeats_are_sent_to(settings):
    consumed = queues(procfile()["worker"])
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert consumed == routed == set(settings.CELERY_HEARTBEAT_QUEUES)
    ours = {name for name in celery_app.tasks if not name.startswith("celery.")}
    # A task on no route would wait on Celery's default queue, which no worker takes.
    assert ours - set(settings.CELERY_TASK_ROUTES) == {worker_heartbeat.name}


def make_dry_run(*target: str) -> list[str]:
    result = subprocess.run(
        [*MAKE, "-n", *target], cwd=BASE_DIR, capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.splitlines()


def test_make_serve_migrates_and_collects_static_before_it_starts_the_processes():
    lines = make_dry_run("serve")

    def first(fragment: str) -> int:
        return next(index for index, line in enumerate(lines) if fragment in line)

    assert first("manage.py migrate --no-input") < first("manage.py collectstatic --no-input") < first("honcho start")
    assert lines[-1].endswith("honcho start --port 8000")


def test_make_serve_refuses_to_start_without_postgresql_and_redis():
    environment = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [*MAKE, "serve"],
        cwd=BASE_DIR,
        env=environment | {"DATABASE_URL": "sqlite:///db.sqlite3"},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode != 0
    assert "make serve needs DATABASE_URL=postgres://... (PostgreSQL)" in result.stderr
    result = subprocess.run(
        [*MAKE, "serve"],
        cwd=BASE_DIR,
        env=environment | {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/nowhere"},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode != 0
    assert "make serve needs REDIS_URL=redis://..." in result.stderr
    assert "migrate" not in result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return 0, b""


def wait_for(url: str, process: subprocess.Popen, log: Path, *, seconds: float) -> tuple[int, bytes]:
    """Ask until the answer is 200, the processes end, or the time is up; the last answer."""
    deadline = time.monotonic() + seconds
    status, body = 0, b""
    while time.monotonic() < deadline:
        assert process.poll() is None, f"make serve ended early:\n{log.read_text()[-4000:]}"
        status, body = get(url)
        if status == 200:
            break
        time.sleep(1)
    return status, body


@pytest.fixture
def serve_database(require_postgres):
    """A database of its own for `make serve` to migrate, dropped afterwards."""
    params = connection.get_connection_params()
    name = f"newsroom_serve_{uuid.uuid4().hex[:12]}"
    server = {key: params[key] for key in ("host", "port", "user", "password") if params.get(key)}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    user = server.get("user", "postgres")
    password = f":{server['password']}" if server.get("password") else ""
    yield f"postgres://{user}{password}@{server.get('host', '127.0.0.1')}:{server.get('port', 5432)}/{name}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_make_serve_answers_healthz_and_becomes_ready(serve_database, require_redis, tmp_path):
    port = free_port()
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "DJANGO_"))}
    environment |= {
        "DATABASE_URL": serve_database,
        # A Redis database apart from the suite's (15 in CI) and test_tasks' (14), so that this
        # worker never takes a task another test put on a queue.
        "REDIS_URL": urlunsplit(urlsplit(require_redis)._replace(path="/13")),
        "CACHE_KEY_PREFIX": f"serve-test-{uuid.uuid4().hex}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "STATIC_ROOT": str(tmp_path / "static"),
        "CELERY_BEAT_SCHEDULE_FILE": str(tmp_path / "celerybeat-schedule"),
        "HEARTBEAT_EVERY_SECONDS": "2",
        "WEB_CONCURRENCY": "1",
        "WORKER_CONCURRENCY": "1",
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*MAKE, "serve"],
            cwd=BASE_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped whole below
        )
    try:
        status, body = wait_for(f"http://127.0.0.1:{port}/healthz", process, log, seconds=240)
        assert status == 200, log.read_text()[-4000:]
        assert body == b'{"status": "ok"}'
        # Ready once beat has sent a heartbeat to each queue and the worker has taken it.
        status, body = wait_for(f"http://127.0.0.1:{port}/readyz", process, log, seconds=120)
        assert status == 200, body.decode() + log.read_text()[-4000:]
        assert b'"workers": {"status": "ok"' in body
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # make, honcho and the processes it started
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    text = log.read_text()
    assert "manage.py migrate" in text
    assert "static files copied" in text
