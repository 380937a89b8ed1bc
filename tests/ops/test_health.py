"""/healthz answers while the process runs; /readyz checks the database, the cache, the broker
and the workers' heartbeats, and answers 503 naming what is wrong."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import time_machine

from newsroom.celery import app as celery_app
from newsroom.ops.health import check_workers
from newsroom.ops.tasks import worker_heartbeat

BASE_DIR = Path(__file__).resolve().parents[2]
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ops-health"}}


@pytest.fixture
def closed_port():
    """A local port that refuses connections: bound, never listening, held for the test."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def redis_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"ops-test-{uuid.uuid4().hex}",  # no other test's heartbeats
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


@pytest.fixture
def embedded(settings):
    """The embedded default whatever services this run has: no broker, eager tasks, local memory."""
    settings.CACHES = LOCAL_CACHE
    settings.CELERY_BROKER_URL = "memory://"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings


@pytest.fixture
def with_workers(embedded):
    """Tasks go to workers (not run in-process), so their heartbeats count."""
    embedded.CELERY_TASK_ALWAYS_EAGER = False
    return embedded


def ready(client) -> tuple[int, dict]:
    response = client.get("/readyz")
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    return response.status_code, json.loads(response.content)


def test_healthz_answers_without_touching_database_or_cache(client, settings, closed_port):
    # No database access is allowed in this test, and the cache points at a closed port.
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port}/0")
    response = client.get("/healthz")
    assert response.status_code == 200
    assert json.loads(response.content) == {"status": "ok"}
    assert "no-store" in response["Cache-Control"]


def test_probes_are_not_redirected_to_https(client, settings, db):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code in (200, 503)
    assert client.get("/terms/reuse/").status_code == 301


@pytest.mark.django_db
def test_readyz_passes_on_the_embedded_default_with_broker_and_workers_not_configured(client, embedded):
    status, body = ready(client)
    assert status == 200
    assert body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["cache"]["status"] == "ok"
    assert body["checks"]["broker"] == {
        "status": "not configured",
        "detail": "no broker (REDIS_URL is not set): tasks run in-process",
    }
    assert body["checks"]["workers"]["status"] == "not configured"
    assert "CELERY_TASK_ALWAYS_EAGER" in body["checks"]["workers"]["detail"]


@pytest.mark.django_db
def test_readyz_fails_naming_a_cache_it_cannot_reach(client, embedded, closed_port):
    embedded.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port}/0")
    status, body = ready(client)
    assert status == 503
    assert body["status"] == "fail"
    assert body["checks"]["cache"]["status"] == "fail"
    assert body["checks"]["cache"]["detail"].startswith("ConnectionError: ")
    assert f"127.0.0.1:{closed_port}" in body["checks"]["cache"]["detail"]
    assert body["checks"]["database"]["status"] == "ok"


@pytest.mark.django_db
def test_readyz_fails_naming_a_broker_it_cannot_reach(client, with_workers, closed_port):
    with_workers.CELERY_BROKER_URL = f"redis://:secret@127.0.0.1:{closed_port}/0"
    status, body = ready(client)
    assert status == 503
    broker = body["checks"]["broker"]
    assert broker["status"] == "fail"
    assert broker["detail"].startswith(f"cannot reach the broker at redis://:**@127.0.0.1:{closed_port}/0: ")
    assert "secret" not in json.dumps(body)
    assert body["checks"]["cache"]["status"] == "ok"


def test_readyz_names_cache_and_broker_when_redis_url_points_at_a_closed_port(closed_port, tmp_path):
    """The settings as production builds them from REDIS_URL, in a process of their own."""
    code = (
        "import json; from django.test import Client; response = Client().get('/readyz'); "
        "print(response.status_code, response.content.decode())"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "DJANGO_"))}
    environment |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'ready.sqlite3'}",
        "REDIS_URL": f"redis://127.0.0.1:{closed_port}/0",
    }
    result = subprocess.run(
        [sys.executable, str(BASE_DIR / "manage.py"), "shell", "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        cwd=BASE_DIR,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    status, _, content = result.stdout.strip().splitlines()[-1].partition(" ")
    body = json.loads(content)
    assert status == "503"
    assert body["checks"]["database"]["status"] == "ok"
    for name in ("cache", "broker", "workers"):
        assert body["checks"][name]["status"] == "fail", name
    assert f"127.0.0.1:{closed_port}" in body["checks"]["cache"]["detail"]
    assert f"127.0.0.1:{closed_port}" in body["checks"]["broker"]["detail"]
    assert "cannot be read from the cache" in body["checks"]["workers"]["detail"]


def test_workers_fail_until_every_queue_has_a_recent_heartbeat(with_workers):
    queues = with_workers.CELERY_HEARTBEAT_QUEUES
    assert len(queues) >= 2
    with time_machine.travel("2026-03-02T09:30:00Z", tick=False) as clock:
        result = check_workers()
        assert result.status == "fail"
        for queue in queues:
            assert f"queue {queue!r}: no heartbeat yet" in result.detail

        worker_heartbeat(queues[0])
        result = check_workers()
        assert result.status == "fail"
        assert f"queue {queues[0]!r}" not in result.detail
        assert f"queue {queues[1]!r}: no heartbeat yet" in result.detail

        for queue in queues[1:]:
            worker_heartbeat(queue)
        clock.shift(with_workers.READY_HEARTBEAT_MAX_AGE_SECONDS)
        assert check_workers().status == "ok"

        clock.shift(1)
        result = check_workers()
        assert result.status == "fail"
        limit = with_workers.READY_HEARTBEAT_MAX_AGE_SECONDS
        assert f"queue {queues[0]!r}: last heartbeat {limit + 1} s ago, more than {limit} s" in result.detail


def test_beat_sends_a_heartbeat_to_every_queue_a_task_is_routed_to(settings):
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    schedule = celery_app.conf.beat_schedule
    sent_to = {
        entry["options"]["queue"]: entry for entry in schedule.values() if entry["task"] == worker_heartbeat.name
    }
    assert set(sent_to) == routed
    for queue, entry in sent_to.items():
        assert entry["args"] == (queue,)
        assert entry["schedule"] < settings.READY_HEARTBEAT_MAX_AGE_SECONDS
    assert worker_heartbeat.name in celery_app.tasks


@pytest.mark.django_db
def test_readyz_on_redis_needs_the_workers_heartbeats(client, settings, require_redis):
    settings.CACHES = redis_cache(require_redis)
    settings.CELERY_BROKER_URL = require_redis
    settings.CELERY_TASK_ALWAYS_EAGER = False
    status, body = ready(client)
    assert status == 503
    assert body["checks"]["cache"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "ok"
    assert body["checks"]["workers"]["status"] == "fail"

    for queue in settings.CELERY_HEARTBEAT_QUEUES:
        worker_heartbeat(queue)
    status, body = ready(client)
    assert status == 200, body
    assert {check["status"] for check in body["checks"].values()} == {"ok"}
