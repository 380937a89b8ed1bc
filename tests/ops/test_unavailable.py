"""The database away: pages the page cache holds are still answered, everything else gets a
503 with Retry-After (JSON under /api/), never a 500; once it is back, the next request is
served as usual, without a restart.

The database really is away. Django's connection is replaced, for the test, by a PostgreSQL
connection to a local port nothing listens on: every query raises the OperationalError that
psycopg raises for a refused connection. On PostgreSQL, a second test uses a connection to the
test database that the server terminates, then refuses, then accepts again.
"""

from __future__ import annotations

import json
import logging
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import OperationalError, connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from django.test import Client

from newsroom import pagecache
from stories.models import Story
from tests.factories import StoryFactory, publish_story


@pytest.fixture
def client() -> Client:
    # As a server answers: the test client would raise the error a middleware met (which Django
    # turned into a response) in the test, rather than return the response.
    return Client(raise_request_exception=False)


@pytest.fixture(autouse=True)
def own_page_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"ops-{uuid.uuid4().hex}"}
    }
    pagecache._stored_paths.clear()
    yield
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A local port that refuses connections: bound, never listening, held for the test."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@contextmanager
def default_connection(wrapper) -> Iterator[None]:
    """This thread's default connection is ``wrapper`` inside the block."""
    original = connections["default"]
    connections["default"] = wrapper
    try:
        yield
    finally:
        connections["default"] = original
        wrapper.close()


def refused(port: int) -> PostgresWrapper:
    settings_dict = {
        **connections.settings["default"],
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "newsroom",
        "USER": "postgres",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "OPTIONS": {"connect_timeout": 2},
        "CONN_MAX_AGE": 0,
    }
    return PostgresWrapper(settings_dict, "default")


@pytest.fixture
def database_away(db, closed_port) -> Iterator[None]:
    with default_connection(refused(closed_port)):
        yield


def live_story() -> Story:
    return publish_story(StoryFactory(status=Story.Status.DRAFT))


def assert_unavailable_page(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "script-src 'none'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "Back in a moment" in body
    assert "Please try again in 5 seconds" in body


def test_the_connection_really_is_refused(database_away):
    with pytest.raises(OperationalError, match="refused"), connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")


def test_a_story_page_not_in_the_cache_is_a_503_with_retry_after(client, database_away):
    # The live story's middleware queries before any view runs: its error is a 503 too.
    assert_unavailable_page(client.get("/stories/2026-10-16/not-cached/"))


@pytest.mark.parametrize(
    "path", ["/", "/search/?q=harbour", "/sitemap.xml", "/n/some-desk/", "/rss.xml", "/stories/2026-10-16/x/index.json"]
)
def test_listings_search_feeds_and_twins_answer_503_not_500(client, database_away, path):
    response = client.get(path)

    assert response.status_code == 503
    assert response["Retry-After"] == "5"


def test_the_api_answers_in_its_error_shape(client, database_away):
    response = client.get("/api/v1/stories/", HTTP_ACCEPT="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert body == {"error": "unavailable", "message": body["message"], "problems": []}
    assert "try again in 5 s" in body["message"]


def test_retry_after_follows_its_setting(client, database_away, settings):
    settings.DATABASE_RETRY_AFTER_SECONDS = 12

    assert client.get("/").headers["Retry-After"] == "12"


def test_pages_in_the_page_cache_are_still_answered(client, db, closed_port):
    story = live_story()
    page, twin = client.get(story.get_absolute_url()), client.get(story.get_absolute_url() + "index.md")
    assert (page.status_code, twin.status_code) == (200, 200)
    # Another process, which has not served the path yet, finds the page in the shared cache too.
    pagecache._stored_paths.clear()

    with default_connection(refused(closed_port)):
        again = client.get(story.get_absolute_url())
        twin_again = client.get(story.get_absolute_url() + "index.md")
        not_cached = client.get(story.get_absolute_url() + "index.json")

    assert (again.status_code, again.content) == (200, page.content)
    assert (twin_again.status_code, twin_again.content) == (200, twin.content)
    assert_unavailable_page(not_cached)
    assert client.get(story.get_absolute_url() + "index.json").status_code == 200  # back


def test_a_signed_in_editor_gets_503_from_the_admin_not_500(client, admin_user, closed_port, caplog):
    client.force_login(admin_user)  # a session in the database: sessions and users middleware query
    with default_connection(refused(closed_port)), caplog.at_level(logging.INFO):
        pages = [client.get("/admin/"), client.get("/admin/stories/story/"), client.get("/")]
        sign_in = client.post("/admin/login/", {"username": "someone", "password": "anything"})

    for response in [*pages, sign_in]:
        assert_unavailable_page(response)
    # No 500 and no traceback logged: the reason in one line, and the request's own line.
    assert not [record for record in caplog.records if record.exc_info or record.name == "django.request"]
    finished = [record.msg for record in caplog.records if "request_finished" in str(record.msg)]
    assert [line["code"] for line in finished] == [503, 503, 503, 503]
    warnings = [record for record in caplog.records if record.name == "newsroom.ops.unavailable"]
    assert len(warnings) == 4
    assert all("OperationalError" in record.getMessage() for record in warnings)


# --- PostgreSQL: a connection the server ends, then refuses ----------------------------------


@pytest.mark.django_db(transaction=True)  # the story is committed: another connection reads it
def test_postgresql_terminated_and_refusing_connections_give_503_then_recover(client, require_postgres):
    story = live_story()
    database = connection.settings_dict["NAME"]
    served = PostgresWrapper({**connection.settings_dict, "CONN_MAX_AGE": 60}, "default")

    def request_cycle(path: str):
        response = client.get(path)
        # What Django does when a request ends (the test client leaves it out): drop a
        # connection that failed, so the next request connects anew.
        served.close_if_unusable_or_obsolete()
        return response

    url = story.get_absolute_url()
    params = connection.settings_dict
    # From the server's maintenance database: a database cannot close its own doors.
    admin = psycopg.connect(
        host=params["HOST"], port=params["PORT"] or 5432, user=params["USER"], dbname="postgres", autocommit=True
    )
    try:
        with default_connection(served):
            assert request_cycle(url + "index.json").status_code == 200
            # The server ends the connection the site holds, and refuses new ones.
            admin.execute(f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS false')
            admin.execute("SELECT pg_terminate_backend(%s)", [served.connection.info.backend_pid])
            ended = request_cycle(url + "index.md")
            refused_now = request_cycle(url + "index.md")
            admin.execute(f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS true')
            recovered = request_cycle(url + "index.md")
    finally:
        admin.execute(f'ALTER DATABASE "{database}" WITH ALLOW_CONNECTIONS true')
        admin.close()

    assert_unavailable_page(ended)
    assert_unavailable_page(refused_now)
    assert recovered.status_code == 200
