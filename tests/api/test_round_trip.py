"""A writer agent's round trip: submit both seeds with a token, poll their runs until done, find
them published (their newsroom publishes automatically), and read back the very document sent."""

from __future__ import annotations

import io
import json
import time
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

    listed = {item["slug"] for item in body(client.get("/api/v1/stories/"))["results"]}
    assert listed == set(sent)
    for name, data in sent.items():
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
