"""JSON logs with a request id: the response sends it back, and the tasks a request queues log
it too, in-process (eager) and in a real worker."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import structlog
from django.urls import reverse

from newsroom.celery import app as celery_app
from newsroom.ops.logs import (
    JsonRenderer,
    bind_request,
    bound_context,
    clear_bound_context,
    merge_bound_context,
    new_request_id,
    utc_timestamp,
)
from newsroom.ops.tasks import worker_heartbeat
from tests.factories import StoryFactory
from tests.ops.helpers import records

BASE_DIR = Path(__file__).resolve().parents[2]
UUID_LENGTH = 36


def test_a_response_carries_a_new_request_id(client, db):
    first = client.get("/healthz")
    second = client.get("/healthz")

    assert len(first["X-Request-ID"]) == UUID_LENGTH
    assert uuid.UUID(first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_well_formed_incoming_request_id_is_kept(client, db):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="edge-7f3a9c:42.b")

    assert response["X-Request-ID"] == "edge-7f3a9c:42.b"


@pytest.mark.parametrize(
    "given",
    ["", "has space", "line\nbreak", 'quote"d', "x" * 129, "-leading-dash", "<script>"],
    ids=["empty", "space", "newline", "quote", "too-long", "leading-dash", "markup"],
)
def test_a_malformed_incoming_request_id_is_replaced(client, db, given):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=given)

    assert response["X-Request-ID"] != given
    assert uuid.UUID(response["X-Request-ID"])


def test_every_line_of_a_request_is_json_with_its_id(client, db, json_lines):
    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="req-404-check")

    assert response.status_code == 404
    lines = records(json_lines)
    finished = [line for line in lines if line["event"] == "request_finished"]
    assert finished, lines
    assert finished[0]["request_id"] == "req-404-check"
    assert finished[0]["code"] == 404
    assert finished[0]["request"] == "GET /no-such-page/"
    assert finished[0]["level"] == "warning"
    assert {"timestamp", "logger", "ip"} <= finished[0].keys()
    assert all(line["request_id"] == "req-404-check" for line in lines)


def test_the_log_names_no_secret_of_the_request(client, db, json_lines, admin_user):
    client.force_login(admin_user)
    client.get("/admin/", HTTP_AUTHORIZATION="Bearer very-secret-token", HTTP_X_REQUEST_ID="req-secret")

    text = json_lines.getvalue()
    assert "very-secret-token" not in text
    assert client.cookies["sessionid"].value not in text
    finished = [line for line in records(json_lines) if line["event"] == "request_finished"]
    assert finished[0]["user_id"] == admin_user.pk  # the user the admin looked up


def test_a_public_page_logs_no_user_and_reads_no_session(client, db, admin_user, json_lines, django_assert_num_queries):
    client.force_login(admin_user)
    with django_assert_num_queries(0):
        client.get("/healthz")
    finished = [line for line in records(json_lines) if line["event"] == "request_finished"]
    assert "user_id" not in finished[0]


def story_to_check():
    # Its checks' verdict does not matter here, only that the task that gives it logs.
    return StoryFactory(status="draft", published_at=None)


@pytest.fixture
def eager() -> Iterator[None]:
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


@pytest.mark.django_db(transaction=True)  # on_commit hooks run when the request's transaction commits
def test_a_task_queued_by_a_request_logs_the_requests_id(client, admin_user, eager, json_lines):
    story = story_to_check()
    client.force_login(admin_user)

    response = client.post(reverse("admin:stories_story_submit", args=[story.pk]), HTTP_X_REQUEST_ID="req-submit-1")

    assert response.status_code == 302
    assert response["X-Request-ID"] == "req-submit-1"
    recorded = [line for line in records(json_lines) if line["logger"] == "verification.services"]
    assert recorded, "the verify task logged nothing"
    assert "recorded" in recorded[-1]["event"]
    assert all(line["request_id"] == "req-submit-1" for line in recorded)
    # The task ran inside the request: its context is the request's, and ends with it.
    assert structlog.contextvars.get_contextvars() == {}


@pytest.fixture
def no_eager_tasks() -> Iterator[None]:
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = saved


def test_a_real_worker_logs_the_request_id_the_task_was_queued_with(require_redis, no_eager_tasks, tmp_path):
    # A queue of this test's own, so no other worker on this Redis takes the task.
    queue = f"ops-log-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    env = {**os.environ, "LOG_FORMAT": "json", "CELERY_TASK_ALWAYS_EAGER": "false", "REDIS_URL": require_redis}
    with log.open("w") as output:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "newsroom",
                "worker",
                "-Q",
                queue,
                "--pool",
                "solo",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "INFO",
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # What the request middleware binds while a request is served; queuing carries it along.
        with structlog.contextvars.bound_contextvars(request_id="req-worker-1"):
            sent = worker_heartbeat.apply_async(args=[queue], queue=queue)
        deadline = time.monotonic() + 60
        finished = []
        while time.monotonic() < deadline and not finished:
            assert worker.poll() is None, log.read_text()
            lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
            finished = [line for line in lines if line.get("event") == "task_succeeded"]
            time.sleep(0.2)
        assert finished, log.read_text()
        assert finished[0]["request_id"] == "req-worker-1"
        assert finished[0]["task_id"] == sent.id
        started = [line for line in lines if line.get("event") == "task_started"]
        assert started[0]["request_id"] == "req-worker-1"
    finally:
        os.killpg(worker.pid, 15)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, 9)
            worker.wait()


def test_the_bound_context_reads_as_structlog_reads_it():
    """newsroom.ops.logs reads structlog's table of its variables instead of walking the whole
    context: both must find the same keys, and clearing must leave structlog nothing."""
    structlog.contextvars.bind_contextvars(request_id="req-ctx-1", ip="192.0.2.4")
    structlog.contextvars.bind_contextvars(user_id=7)
    structlog.contextvars.unbind_contextvars("ip")
    try:
        assert bound_context() == structlog.contextvars.get_contextvars() == {"request_id": "req-ctx-1", "user_id": 7}
        assert merge_bound_context(
            None, "info", {"event": "e", "user_id": 8}
        ) == structlog.contextvars.merge_contextvars(None, "info", {"event": "e", "user_id": 8})
    finally:
        clear_bound_context()

    assert structlog.contextvars.get_contextvars() == {}
    assert bound_context() == {}


def test_the_requests_binding_is_structlogs_own():
    """bind_request sets structlog's own variables: structlog reads, merges and unbinds them."""
    bind_request("req-ctx-2", "198.51.100.7")
    try:
        assert structlog.contextvars.get_contextvars() == {"request_id": "req-ctx-2", "ip": "198.51.100.7"}
        structlog.contextvars.unbind_contextvars("ip")
        assert bound_context() == {"request_id": "req-ctx-2"}
        structlog.contextvars.bind_contextvars(request_id="req-ctx-3")  # structlog's own bind
        assert bound_context() == {"request_id": "req-ctx-3"}
    finally:
        clear_bound_context()
    assert structlog.contextvars.get_contextvars() == {}


def test_the_request_line_reaches_every_handler_once(client, db, json_lines, log_lines):
    """Written straight to the stream of a plain handler, and as a record to any other (here one
    with a filter): each gets the line once, with the same fields."""
    other = log_lines("json")
    handler = next(handler for handler in logging.getLogger().handlers if getattr(handler, "stream", None) is other)
    handler.addFilter(lambda record: True)

    client.get("/healthz", HTTP_X_REQUEST_ID="req-handlers-1")

    lines = [
        [line for line in records(stream) if line.get("event") == "request_finished"] for stream in (json_lines, other)
    ]
    assert lines[0] == lines[1]
    assert [line["request_id"] for line in lines[0]] == ["req-handlers-1"]


@pytest.mark.parametrize(
    "event_dict",
    [
        {"code": 200, "request": "GET /stories/?q=%22caf%C3%A9%22", "event": "request_finished", "user_id": 7},
        {"event": 'a "quoted" line\nwith a newline, a tab\t, é, \u202e and \U0001f600'},
        {"event": "not text or an integer", "ratio": 0.5, "flag": True, "none": None, "list": [1, "a"]},
        {"event": "an object", "value": object.__new__(type("Unserializable", (), {"__repr__": lambda self: "<it>"}))},
    ],
)
def test_json_lines_are_written_as_structlogs_renderer_writes_them(event_dict):
    assert JsonRenderer()(None, "info", dict(event_dict)) == structlog.processors.JSONRenderer()(
        None, "info", dict(event_dict)
    )


def test_timestamps_are_utc_to_the_microsecond_as_structlog_writes_them():
    before = datetime.now(UTC)
    stamp = utc_timestamp()
    after = datetime.now(UTC)

    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", stamp)
    assert before.replace(microsecond=0) <= datetime.fromisoformat(stamp) <= after


def test_new_request_ids_are_random_version_4_uuids():
    ids = [new_request_id() for _ in range(1000)]

    assert len(set(ids)) == len(ids)
    for request_id in ids:
        parsed = uuid.UUID(request_id)
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, request_id)
