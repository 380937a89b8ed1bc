"""A writer agent's round trip: submit both seeds with a token, poll their runs until done, find
them published (their newsroom publishes automatically), and read back the very document sent."""

from __future__ import annotations

import io
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from newsroom.models import Role
from newsroom.roles import grant_role
from tests.factories import NewsroomFactory
from tests.site.conftest import DEMO_MANIFESTS, SEEDS

from .conftest import bearer, body, post_json, token_of


def writer_round_trip(client: Client, token: dict[str, str], *, settle: Any, wait_seconds: float) -> None:
    sent = {path.stem: path.read_bytes() for path in sorted(SEEDS.glob("*.json"))}
    runs = {}
    for name, data in sent.items():
        with settle():
            response = post_json(client, "/api/v1/stories/", data, **token)
        assert response.status_code == 202, response.content
        answer = body(response)
        assert answer["done"] == "created"
        runs[name] = answer["run"]["url"]

    deadline = time.monotonic() + wait_seconds
    for name, url in runs.items():
        while True:
            run = body(client.get(url, **token))
            if run["finished"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert run["status"] == "passed", (name, run["problems"])

    # A passed run is recorded before its verdict is applied (auto-publish): ask until it shows.
    for data in sent.values():
        path = f"/api/v1/stories/{json.loads(data)['id']}/"
        while client.get(path).status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)

    listed = {item["slug"] for item in body(client.get("/api/v1/stories/"))["results"]}
    assert listed == set(sent)
    for data in sent.values():
        document = json.loads(data)
        detail = client.get(f"/api/v1/stories/{document['id']}/")
        assert detail.status_code == 200
        got = json.loads(detail.content)
        assert got == document
        assert list(got) == list(document)  # key order too


def test_a_writer_agent_round_trip_with_eager_tasks(
    client, db, site_url, seed_site_texts, django_capture_on_commit_callbacks
):
    call_command("import_manifests", str(DEMO_MANIFESTS), stdout=io.StringIO())
    newsroom = NewsroomFactory(slug="artificial-intelligence", title="Artificial Intelligence", auto_publish=True)
    agent = get_user_model().objects.create_user("writer-agent", password="x-unused-password")
    grant_role(user=agent, newsroom=newsroom, role=Role.EDITOR)

    def settle():
        # Each submission's commit runs its hooks: the checks, eagerly, then auto-publish.
        return django_capture_on_commit_callbacks(execute=True)

    writer_round_trip(client, bearer(token_of(agent)), settle=settle, wait_seconds=0)


# --- The same with a real Celery worker, on PostgreSQL and Redis --------------------------------

SETUP = """
import io, json
from django.contrib.auth import get_user_model
from django.core.management import call_command
from knox.models import AuthToken
from newsroom.models import Role
from newsroom.roles import grant_role
from stories.desk import parse_utc
from tests.factories import NewsroomFactory, add_site_texts
from tests.site.conftest import DEMO_MANIFESTS, SEEDS

call_command("import_manifests", str(DEMO_MANIFESTS), stdout=io.StringIO())
documents = sorted((json.loads(path.read_text()) for path in SEEDS.glob("*.json")), key=lambda d: d["published_at"])
for document in documents:
    add_site_texts(document, effective_from=parse_utc(document["published_at"]))
newsroom = NewsroomFactory(slug="artificial-intelligence", title="Artificial Intelligence", auto_publish=True)
agent = get_user_model().objects.create_user("writer-agent")
grant_role(user=agent, newsroom=newsroom, role=Role.EDITOR)
print(AuthToken.objects.create(user=agent)[1])
"""


@dataclass
class Answer:
    status_code: int
    content: bytes
    headers: Any

    def __getitem__(self, name: str) -> str:
        return self.headers[name]


class HttpClient:
    """What the round trip needs of Django's test client, over real HTTP to a real server."""

    def __init__(self, base: str):
        self.base = base

    def _call(self, method: str, path: str, data: bytes | None, headers: dict[str, str]) -> Answer:
        names = {key.removeprefix("HTTP_").replace("_", "-").title(): value for key, value in headers.items()}
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=data, method=method, headers=names)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return Answer(answer.status, answer.read(), answer.headers)
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read(), error.headers)
        except OSError:
            return Answer(0, b"", {})  # not listening yet

    def get(self, path: str, **headers: str) -> Answer:
        return self._call("GET", path, None, headers)

    def post(self, path: str, *, data: bytes | str, content_type: str, **headers: str) -> Answer:
        raw = data if isinstance(data, bytes) else data.encode()
        return self._call("POST", path, raw, headers | {"HTTP_CONTENT_TYPE": content_type})


def test_a_writer_agent_round_trip_with_a_real_worker_on_postgresql_and_redis(serve_database, require_redis, tmp_path):
    import contextlib
    import os
    import subprocess
    import sys
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import redis
    from django.conf import settings

    from tests.ops.test_serve import free_port

    port = free_port()
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "DJANGO_"))}
    environment |= {
        "DATABASE_URL": serve_database,
        # A Redis database of its own (the suite's is 15, test_tasks' 14, make serve's 13), so this
        # worker takes only this test's tasks.
        "REDIS_URL": urlunsplit(urlsplit(require_redis)._replace(path="/12")),
        "CACHE_KEY_PREFIX": f"round-trip-{uuid.uuid4().hex}",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "SITE_URL": "https://hangingcontext.com",
        "ALLOWED_HOSTS": "127.0.0.1",
        "API_TOKEN_RATE": "100000/minute",
        "API_ANON_RATE": "100000/minute",
    }
    # Nothing left on this Redis database by an earlier, interrupted run.
    redis.Redis.from_url(environment["REDIS_URL"]).flushdb()
    python = sys.executable
    root = settings.BASE_DIR

    def manage(*args: str) -> str:
        result = subprocess.run(
            [python, "manage.py", *args], cwd=root, env=environment, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    manage("migrate", "--no-input", "-v", "0")
    token = manage("shell", "-c", SETUP).strip().splitlines()[-1]
    log = tmp_path / "processes.log"
    with log.open("wb") as output, contextlib.ExitStack() as stack:
        for command in (
            [python, "-m", "gunicorn", "newsroom.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            [python, "-m", "celery", "-A", "newsroom", "worker", "-Q", "verification,manifests,webhooks",
             "--concurrency", "1", "--pool", "prefork", "--without-heartbeat", "--without-gossip", "--without-mingle"],
        ):  # fmt: skip
            process = subprocess.Popen(command, cwd=root, env=environment, stdout=output, stderr=subprocess.STDOUT)
            stack.callback(process.wait, timeout=30)
            stack.callback(process.terminate)
        client = HttpClient(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while client.get("/healthz").status_code != 200:
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)

        @contextlib.contextmanager
        def settle():
            yield  # the worker takes the checks from Redis; nothing runs in this process

        try:
            writer_round_trip(client, bearer(token), settle=settle, wait_seconds=120)
        except AssertionError:
            print(log.read_text()[-4000:])
            raise
