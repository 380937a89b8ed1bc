"""Every public response can be cached by browsers and CDNs and is kept rendered on the
server; a story change empties the server's copies of every page that shows it."""

from __future__ import annotations

import datetime as dt
import socket
import uuid

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from manifests.models import Manifest
from newsroom.cache import RedisCache
from newsroom.pagecache import GENERATION_KEY, page_key, pages_changed
from stories.models import Correction, Story
from stories.services import story_add_correction, story_import_desk, story_retract
from stories.signals import story_changed
from tests.factories import (
    CiteFactory,
    ClaimFactory,
    KeyFactFactory,
    ManifestFactory,
    ParagraphFactory,
    SectionFactory,
    StoryFactory,
)

from .conftest import seed
from .routes import AGENTIC, BEAT, EDITION, NEWSROOM, PUBLIC_ROUTES, TRAINING

LISTINGS = ["/", "/index.json", NEWSROOM, NEWSROOM + "index.json", BEAT, BEAT + "index.json", "/rss.xml", "/atom.xml"]
LISTINGS += [NEWSROOM + "rss.xml", BEAT + "atom.xml", "/sitemap.xml", "/llms.txt", "/search/?q=agent"]


@pytest.mark.parametrize("path", PUBLIC_ROUTES)
def test_every_public_response_carries_validators_and_cdn_headers(client, demo, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response["ETag"].startswith('"')
    assert response["Last-Modified"].endswith("GMT")
    assert "public" in response["Cache-Control"]
    assert "s-maxage=" in response["Cache-Control"]


@pytest.mark.parametrize("path", PUBLIC_ROUTES)
def test_a_conditional_request_for_an_unchanged_page_gets_304(client, demo, path):
    first = client.get(path)

    by_etag = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = client.get(path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])

    assert by_etag.status_code == 304
    assert by_etag.content == b""
    assert by_etag["ETag"] == first["ETag"]
    assert by_date.status_code == 304


def test_a_stale_validator_gets_the_full_page(client, demo):
    response = client.get(TRAINING, HTTP_IF_NONE_MATCH='"something-else"')

    assert response.status_code == 200
    assert response.content


def test_html_pages_forbid_scripts_by_content_security_policy(client, demo):
    policy = client.get(TRAINING)["Content-Security-Policy"]

    assert "script-src 'none'" in policy
    assert "object-src 'none'" in policy


def test_story_page_last_modified_is_when_the_story_last_changed(client, demo):
    story = demo["agent-training-stack"]
    corrected_at = timezone.now().replace(microsecond=0) + dt.timedelta(minutes=5)
    Correction.objects.create(story=story, position=0, published_at=corrected_at, text="Fixed.")

    assert client.get(TRAINING)["Last-Modified"] == http_date(corrected_at.timestamp())


def big_story(*, sections: int, paragraphs: int, cites: int) -> Story:
    """A published story of the given size, citing manifests that are in the store with claims."""
    story = StoryFactory(published_at=timezone.now() - dt.timedelta(hours=2))
    manifests = [ManifestFactory() for _ in range(cites)]
    claims = [ClaimFactory(manifest=manifest) for manifest in manifests]
    for position in range(sections):
        KeyFactFactory(story=story, position=position, text=f"Fact {position}")
        section = SectionFactory(story=story, position=position, heading=f"Section {position}")
        for number in range(paragraphs):
            paragraph = ParagraphFactory(section=section, story=story, position=number, markdown=f"Para {number}.")
            for index, (manifest, claim) in enumerate(zip(manifests, claims, strict=True)):
                CiteFactory(
                    paragraph=paragraph,
                    story=story,
                    position=index,
                    manifest_id=manifest.manifest_id,
                    claim_ids=[claim.claim_id],
                )
    return story


def queries_for(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


# One statement: the story and what it carries, its eight kinds of parts, its manifests, their
# claims.
STORY_PAGE_QUERIES = 1


def test_a_story_page_costs_the_same_few_queries_whatever_its_size(client, db, site_url, django_assert_num_queries):
    small = big_story(sections=1, paragraphs=1, cites=1)
    large = big_story(sections=30, paragraphs=10, cites=4)  # 300 paragraphs, 1,200 cites

    for story in (small, large):
        with django_assert_num_queries(STORY_PAGE_QUERIES):
            assert client.get(story.get_absolute_url()).status_code == 200
    assert STORY_PAGE_QUERIES <= 12


def test_an_uncached_story_page_needs_at_most_12_queries(client, demo, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        response = client.get(TRAINING)
    assert response.status_code == 200


@pytest.mark.parametrize("path", [TRAINING, TRAINING + "index.json", TRAINING + "index.md", "/", NEWSROOM, EDITION])
def test_a_page_served_from_the_cache_costs_no_query(client, demo, django_assert_num_queries, path):
    first = client.get(path)

    with django_assert_num_queries(0):
        again = client.get(path)
    with django_assert_num_queries(0):
        not_modified = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.content == first.content
    assert not_modified.status_code == 304


FORMS = [TRAINING, TRAINING + "index.json", TRAINING + "index.md", "/", NEWSROOM + "rss.xml", "/sitemap.xml"]


@pytest.mark.parametrize("path", FORMS)
def test_a_page_from_the_cache_is_answered_before_sessions_and_users(client, demo, admin_user, path):
    client.force_login(admin_user)  # a session cookie, so the skipped middleware had work to do
    first = client.get(path)

    again = client.get(path)

    # AuthenticationMiddleware sets request.user: the second request never got that far.
    assert hasattr(first.wsgi_request, "user")
    assert not hasattr(again.wsgi_request, "user")
    assert again.content == first.content
    # Every header the page was first served with, including those the skipped middleware add.
    assert {k: v for k, v in again.items() if k != "Date"} == {k: v for k, v in first.items() if k != "Date"}
    assert again["X-Frame-Options"] == "DENY"
    assert again["X-Content-Type-Options"] == "nosniff"
    assert again["Content-Length"] == str(len(first.content))


def test_a_page_from_the_cache_answers_conditional_and_head_requests(client, demo):
    first = client.get(TRAINING)

    not_modified = client.get(TRAINING, HTTP_IF_NONE_MATCH=first["ETag"])
    head = client.head(TRAINING)

    assert not hasattr(not_modified.wsgi_request, "user")
    assert not_modified.status_code == 304
    assert "Content-Length" not in not_modified
    assert head.status_code == 200
    assert head["ETag"] == first["ETag"]


def test_a_page_from_the_cache_still_refuses_what_the_site_refuses(client, demo):
    client.get(TRAINING)

    assert client.get(TRAINING, HTTP_HOST="attacker.example").status_code == 400
    assert client.post(TRAINING).status_code == 405


class CountingCache(LocMemCache):
    """A real local-memory cache that also keeps what it was asked for: the keys of each
    lookup, one list per round trip that a cache over the network would make."""

    asked: list[list[str]] = []
    _within_get_many = False

    def get(self, key, default=None, version=None):
        if not self._within_get_many:
            self.asked.append([key])
        return super().get(key, default, version)

    def get_many(self, keys, version=None):
        self.asked.append(list(keys))
        self._within_get_many = True
        try:
            return super().get_many(keys, version)
        finally:
            self._within_get_many = False


def counting_cache(settings) -> type[CountingCache]:
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.CountingCache", "LOCATION": uuid.uuid4().hex}}
    CountingCache.asked = []
    return CountingCache


def test_a_page_is_looked_up_in_one_round_trip_to_the_cache(client, demo, settings):
    asked = counting_cache(settings).asked
    client.get(TRAINING)  # stored: from now on the middleware looks this path up
    asked.clear()

    assert client.get(TRAINING).status_code == 200

    # The generation and the page together (one MGET on Redis), by the middleware.
    assert asked == [[GENERATION_KEY, page_key(RequestFactory().get(TRAINING), ())]]


def test_a_page_gone_stale_is_looked_up_once_before_it_is_rendered_anew(client, demo, settings):
    asked = counting_cache(settings).asked
    client.get(TRAINING)
    pages_changed()
    asked.clear()

    with CaptureQueriesContext(connection) as queries:
        assert client.get(TRAINING).status_code == 200

    # The stored page is of the previous generation: a miss, rendered anew, and the view's
    # wrapper reuses the middleware's lookup rather than asking again.
    assert len(queries) == STORY_PAGE_QUERIES
    assert asked == [[GENERATION_KEY, page_key(RequestFactory().get(TRAINING), ())]]


def test_query_parameters_a_page_does_not_read_share_its_cached_copy(client, demo, django_assert_num_queries):
    client.get("/")

    with django_assert_num_queries(0):
        assert client.get("/?utm_source=newsletter&fbclid=1").status_code == 200


def test_search_results_are_not_kept_on_the_server(client, demo):
    client.get("/search/?q=agent")

    assert queries_for(client, "/search/?q=agent") > 0


def warm(client, paths: list[str]) -> None:
    for path in paths:
        assert client.get(path).status_code == 200


def published_document(slug: str, headline: str) -> dict:
    document = seed("agentic-rl-production")
    document |= {"id": "9001", "slug": slug, "headline": headline, "edition": "2026-10-20T00"}
    document["published_at"] = (timezone.now() - dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for key in ("url", "links", "reuse"):
        document.pop(key)
    return document


def test_publishing_a_story_refreshes_every_listing_and_feed_that_shows_it(
    client, demo, django_capture_on_commit_callbacks
):
    paths = [*LISTINGS, "/editions/2026-10-20T00/", "/news-sitemap.xml"]
    warm(client, paths)

    with django_capture_on_commit_callbacks(execute=True):
        result = story_import_desk(document=published_document("fresh-agents", "Fresh agents arrive"))

    assert result.story.is_public
    for path in paths:
        content = client.get(path).content.decode()
        assert "Fresh agents arrive" in content or "fresh-agents" in content, path


def test_retracting_a_story_removes_it_from_its_page_and_every_listing(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    paths = [AGENTIC, AGENTIC + "index.json", AGENTIC + "index.md", *LISTINGS, "/editions/2026-10-20T00/"]
    warm(client, paths)

    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=demo["agentic-rl-production"], user=admin_user, reason="Sources withdrawn.")

    for path in paths[:3]:
        assert client.get(path).status_code == 410
    for path in paths[3:-1]:
        assert "agentic-rl-production" not in client.get(path).content.decode(), path
    assert client.get("/editions/2026-10-20T00/").status_code == 404


def test_a_correction_shows_on_the_page_and_twins_once_added(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    warm(client, [TRAINING, TRAINING + "index.json", TRAINING + "index.md"])

    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=demo["agent-training-stack"], text="A name was misspelt.", user=admin_user)

    for path in [TRAINING, TRAINING + "index.json", TRAINING + "index.md"]:
        assert "A name was misspelt." in client.get(path).content.decode(), path


def test_pages_are_refreshed_only_after_the_change_commits(client, demo, django_capture_on_commit_callbacks):
    warm(client, ["/"])

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        story_import_desk(document=published_document("pending", "Pending commit"))
        # Until the transaction commits, the cached page is still the one served.
        assert "Pending commit" not in client.get("/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):  # the commit
        for callback in callbacks:
            callback()
    assert "Pending commit" in client.get("/").content.decode()


def test_editing_what_pages_show_besides_stories_refreshes_them(client, demo, django_capture_on_commit_callbacks):
    warm(client, [TRAINING, NEWSROOM])
    manifest = Manifest.objects.get(manifest_id="1792067182956183080")

    newsroom = demo["agent-training-stack"].newsroom

    with django_capture_on_commit_callbacks(execute=True):
        manifest.title = "A retitled manifest"
        manifest.save()
        newsroom.title = "Machine Intelligence"
        newsroom.save()

    assert "A retitled manifest" in client.get(TRAINING).content.decode()
    assert "Machine Intelligence" in client.get(NEWSROOM).content.decode()


def unreachable_redis() -> str:
    """The URL of a Redis that is not there: a port just found free, with nothing listening."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_pages_are_rendered_anew_while_the_cache_cannot_be_reached(
    client, demo, admin_user, settings, caplog, django_capture_on_commit_callbacks
):
    client.get(TRAINING)  # stored while the cache was there: the middleware now looks it up
    settings.CACHES = {
        "default": {
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": unreachable_redis(),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }

    by_middleware = queries_for(client, TRAINING)
    by_view = queries_for(client, TRAINING + "?utm_source=feed")  # left to the view's wrapper
    with django_capture_on_commit_callbacks(execute=True):  # commits; emptying the cache fails
        correction = story_add_correction(story=demo["agent-training-stack"], text="Still shown.", user=admin_user)

    assert by_middleware == by_view == STORY_PAGE_QUERIES  # rendered anew, from the database
    assert Correction.objects.filter(pk=correction.pk).exists()
    assert "Still shown." in client.get(TRAINING).content.decode()
    assert "the page cache is unavailable, so pages are rendered anew" in caplog.text


def test_the_redis_cache_makes_one_client_per_connection_pool_not_one_per_call():
    backend = RedisCache(unreachable_redis(), {})  # making a client connects to nothing yet

    # Django's own backend makes a redis.Redis per call, at about 0.2 ms each with redis-py 8.
    assert backend._cache.get_client("a") is backend._cache.get_client("b", write=True)


@pytest.mark.redis
def test_pages_are_kept_in_redis_and_refreshed_there_after_a_change(
    client, demo, settings, require_redis, django_assert_num_queries, django_capture_on_commit_callbacks
):
    import redis

    # A key prefix of its own, so this test neither sees nor disturbs anyone else's keys; at
    # the end it deletes only those (never FLUSHDB: the database may hold broker queues).
    prefix = f"site-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": require_redis,
            "KEY_PREFIX": prefix,
        }
    }
    try:
        first = client.get(TRAINING)
        with django_assert_num_queries(0):
            assert client.get(TRAINING).content == first.content

        with django_capture_on_commit_callbacks(execute=True):
            Correction.objects.create(
                story=demo["agent-training-stack"], position=0, published_at=timezone.now(), text="Seen via Redis."
            )
            story_changed.send(sender=Story, story=demo["agent-training-stack"], action="corrected")

        assert "Seen via Redis." in client.get(TRAINING).content.decode()
    finally:
        server = redis.Redis.from_url(require_redis)
        keys = list(server.scan_iter(match=f"{prefix}:*"))
        if keys:
            server.delete(*keys)
