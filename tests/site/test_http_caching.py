"""Every public response can be cached by browsers and CDNs and is kept rendered on the
server; a story's publication, correction or retraction makes stale exactly the pages that
show it (by cache tag), here and, through the purge hook, at the CDN."""

from __future__ import annotations

import datetime as dt
import socket
import uuid
import warnings

import pytest
from django.core.cache.backends.base import CacheKeyWarning
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from manifests.models import Manifest
from newsroom.cache import RedisCache
from newsroom.pagecache import GENERATION_KEY, etag_of, page_key, pages_changed, tag_key
from stories.models import Correction
from stories.services import story_add_correction, story_import_desk, story_retract
from tests.factories import publish_story

from .conftest import big_story, seed
from .routes import AGENTIC, BEAT, EDITION, LISTINGS, NEWSROOM, PUBLIC_ROUTES, TRAINING
from .test_story_page_queries import STORY_PAGE_QUERIES


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


def test_story_page_last_modified_is_when_what_readers_get_last_changed(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    story = demo["agent-training-stack"]
    assert client.get(TRAINING)["Last-Modified"] == http_date(story.live_version.modified_at.timestamp())

    with django_capture_on_commit_callbacks(execute=True):
        correction = story_add_correction(story=story, text="Fixed.", user=admin_user)

    story.live_version.refresh_from_db()
    assert story.live_version.modified_at == correction.published_at
    for form in ("", "index.json", "index.md"):
        assert client.get(TRAINING + form)["Last-Modified"] == http_date(correction.published_at.timestamp())


def test_a_story_is_served_with_the_etags_stored_when_it_was_rendered(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    """Worked out once, at publish or correction, not per request: and each one is still the
    hash of the bytes sent, so it changes exactly when they do."""
    story = demo["agent-training-stack"]
    before = {}
    for form in ("", "index.json", "index.md"):
        response = client.get(TRAINING + form)
        before[form] = response["ETag"]
        assert response["ETag"] == etag_of(response.content)
    version = story.live_version
    assert [version.page_html_etag, version.document_etag, version.markdown_etag] == list(before.values())

    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=story, text="Fixed.", user=admin_user)

    for form in ("", "index.json", "index.md"):
        response = client.get(TRAINING + form)
        assert response["ETag"] != before[form]
        assert response["ETag"] == etag_of(response.content)


def test_a_story_and_its_twins_are_sent_as_the_bytes_stored_for_them(client, demo):
    """Read as bytes from the database, never decoded and encoded again on the way (stories/stored.py):
    the same bytes the version holds as text, a story's curly quotes and dashes included."""
    version = demo["agent-training-stack"].live_version
    assert not version.page_html.isascii()  # the seed's typography: the bytes are not the characters
    for form, stored in (("", version.page_html), ("index.json", version.document), ("index.md", version.markdown)):
        assert client.get(TRAINING + form).content == stored.encode()
    assert client.get(f"/api/v1/stories/{version.desk_id}/").content == version.document.encode()


def test_stored_artifacts_are_compressed_with_lz4_on_postgresql(require_postgres, demo):
    """Each read of a page without the page cache decompresses it: LZ4 takes a fraction of
    pglz's time (stories/migrations/0013)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute "
            "WHERE attrelid = 'stories_publishedversion'::regclass AND attname IN ('page_html', 'document', 'markdown')"
        )
        assert dict(cursor.fetchall()) == {"page_html": "l", "document": "l", "markdown": "l"}
        cursor.execute(
            "SELECT DISTINCT pg_column_compression(page_html) FROM stories_publishedversion "
            "WHERE octet_length(page_html) > 4096"  # values this long are compressed
        )
        assert cursor.fetchall() == [("lz4",)]


def queries_for(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize("path", [TRAINING, TRAINING + "index.json", TRAINING + "index.md", "/", NEWSROOM, EDITION])
def test_a_page_served_from_the_cache_costs_no_query(client, demo, django_assert_num_queries, path):
    first = client.get(path)

    with django_assert_num_queries(0):
        again = client.get(path)
    with django_assert_num_queries(0):
        not_modified = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.content == first.content
    assert not_modified.status_code == 304


STORY_FORMS = [TRAINING, TRAINING + "index.json", TRAINING + "index.md"]
FORMS = [*STORY_FORMS, "/", NEWSROOM + "rss.xml", "/sitemap.xml"]


@pytest.mark.parametrize("path", FORMS)
def test_a_page_from_the_cache_is_answered_before_sessions_and_users(client, demo, admin_user, path):
    client.force_login(admin_user)  # a session cookie, so the skipped middleware had work to do
    first = client.get(path)

    again = client.get(path)

    # AuthenticationMiddleware sets request.user: the second request never got that far. (A
    # live story's forms are answered early even uncached: the next test.)
    if path not in STORY_FORMS:
        assert hasattr(first.wsgi_request, "user")
    assert not hasattr(again.wsgi_request, "user")
    assert again.content == first.content
    # Every header the page was first served with, including those the skipped middleware add
    # (but those of one response: its date and its request's id).
    per_response = {"Date", "X-Request-ID"}
    assert {k: v for k, v in again.items() if k not in per_response} == {
        k: v for k, v in first.items() if k not in per_response
    }
    assert again["X-Frame-Options"] == "DENY"
    assert again["X-Content-Type-Options"] == "nosniff"
    assert again["Content-Length"] == str(len(first.content))


@pytest.mark.parametrize("path", STORY_FORMS)
def test_a_live_story_is_answered_before_sessions_and_users_even_uncached(
    client, demo, admin_user, django_assert_num_queries, path
):
    client.force_login(admin_user)  # an editor: still given what every reader gets

    with django_assert_num_queries(STORY_PAGE_QUERIES):
        response = client.get(path)

    assert response.status_code == 200
    assert not hasattr(response.wsgi_request, "user")
    assert response["Cache-Control"].startswith("public")
    assert response["X-Frame-Options"] == "DENY"


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

    # The site-wide generation, the page and its tag's generation together (one MGET on
    # Redis), by the middleware.
    assert asked == [[GENERATION_KEY, page_key(RequestFactory().get(TRAINING), ()), tag_key("story-81")]]


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
    assert asked == [[GENERATION_KEY, page_key(RequestFactory().get(TRAINING), ()), tag_key("story-81")]]


def test_query_parameters_a_page_does_not_read_share_its_cached_copy(client, demo, django_assert_num_queries):
    client.get("/")

    with django_assert_num_queries(0):
        assert client.get("/?utm_source=newsletter&fbclid=1").status_code == 200


def test_search_results_are_not_kept_on_the_server(client, demo):
    client.get("/search/?q=agent")

    assert queries_for(client, "/search/?q=agent") > 0


def served_from_cache(client, path: str) -> bool:
    """Whether the page came from the page cache: no query at all."""
    with CaptureQueriesContext(connection) as captured:
        client.get(path)
    return len(captured) == 0


def warm(client, paths: list[str]) -> None:
    """Store each page, and make sure the page cache now answers for it: a later change, not
    a cold cache, must be what makes it stale."""
    for path in paths:
        assert client.get(path).status_code == 200, path
        if not path.startswith("/search/"):  # search pages are never stored
            # The first page a process stores for a path, before it knows the path's tag,
            # is current only from the next request on (see newsroom.pagecache).
            client.get(path)
            assert served_from_cache(client, path), path


def published_document(slug: str, headline: str) -> dict:
    document = seed("agentic-rl-production")
    document |= {"id": "9001", "slug": slug, "headline": headline, "edition": "2026-10-20T00"}
    document["published_at"] = (timezone.now() - dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for key in ("url", "links", "reuse"):
        document.pop(key)
    return document


def import_and_publish(document: dict) -> None:
    publish_story(story_import_desk(document=document).story)


def test_publishing_a_story_refreshes_every_listing_and_feed_that_shows_it(
    client, demo, django_capture_on_commit_callbacks
):
    paths = [*LISTINGS, "/editions/2026-10-20T00/", "/news-sitemap.xml"]
    warm(client, paths)

    with django_capture_on_commit_callbacks(execute=True):
        story = story_import_desk(document=published_document("fresh-agents", "Fresh agents arrive")).story
    # The import wrote a working copy: readers get nothing new yet, and the pages stay cached.
    assert not story.is_public
    for path in paths:
        if not path.startswith("/search/"):
            assert served_from_cache(client, path), path

    with django_capture_on_commit_callbacks(execute=True):
        story = publish_story(story)

    assert story.is_public
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
        import_and_publish(published_document("pending", "Pending commit"))
        # Until the transaction commits, the cached page is still the one served.
        assert "Pending commit" not in client.get("/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):  # the commit
        for callback in callbacks:
            callback()
    assert "Pending commit" in client.get("/").content.decode()


# --- Invalidation by tag -----------------------------------------------------------------------

TRAINING_EDITION = "/editions/2026-10-16T00/"
# The pages story 81 (agent-training-stack) appears on, in all their forms.
PAGES_OF_A = [
    TRAINING,
    TRAINING + "index.json",
    TRAINING + "index.md",
    TRAINING_EDITION,
    TRAINING_EDITION + "index.json",
]
PAGES_OF_A += [path for path in LISTINGS if not path.startswith("/search/")]


def pages_of(story) -> list[str]:
    """A story's page and twins and its newsroom's, beat's and edition's listings."""
    url, newsroom, beat = story.get_absolute_url(), story.newsroom.slug, story.beat.slug
    listings = [f"/n/{newsroom}/", f"/n/{newsroom}/{beat}/", story.edition.get_absolute_url()]
    return [url, url + "index.json", url + "index.md"] + [
        path + form for path in listings for form in ("", "index.json")
    ]


def republish_edited(story, user) -> None:
    story.headline = "A headline published again"
    story.save()
    publish_story(story)


def correct(story, user) -> None:
    story_add_correction(story=story, text="A figure was wrong.", user=user)


def retract(story, user) -> None:
    story_retract(story=story, user=user, reason="Sources withdrawn.")


CHANGES = [republish_edited, correct, retract]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_a_change_to_a_story_makes_its_pages_stale_and_leaves_other_stories_pages_cached(
    client, demo, admin_user, django_capture_on_commit_callbacks, change
):
    # B shares nothing with A: another newsroom, beat and edition.
    other = big_story(sections=1, paragraphs=1, cites=1)
    # A's sibling shares A's newsroom and beat, but not its page nor its edition.
    unrelated = [*pages_of(other), AGENTIC, AGENTIC + "index.json", AGENTIC + "index.md", "/editions/2026-10-20T00/"]
    warm(client, PAGES_OF_A + unrelated)

    with django_capture_on_commit_callbacks(execute=True):
        change(demo["agent-training-stack"], admin_user)

    assert [path for path in PAGES_OF_A if served_from_cache(client, path)] == []
    assert [path for path in unrelated if not served_from_cache(client, path)] == []


@pytest.mark.parametrize(
    ("path", "tags"),
    [
        (TRAINING, ["story-81"]),
        (TRAINING + "index.json", ["story-81"]),
        (TRAINING + "index.md", ["story-81"]),
        (AGENTIC, ["story-278"]),
        (NEWSROOM, ["newsroom-artificial-intelligence"]),
        (NEWSROOM + "index.json", ["newsroom-artificial-intelligence"]),
        (NEWSROOM + "rss.xml", ["newsroom-artificial-intelligence"]),
        (BEAT, ["beat-artificial-intelligence-research"]),
        (BEAT + "atom.xml", ["beat-artificial-intelligence-research"]),
        (EDITION, ["edition-2026-10-16T00"]),
        (EDITION + "index.json", ["edition-2026-10-16T00"]),
        ("/", ["site"]),
        ("/index.json", ["site"]),
        ("/rss.xml", ["site"]),
        ("/sitemap.xml", ["site"]),
        ("/llms.txt", ["site"]),
    ],
)
def test_a_page_names_what_it_shows_in_its_cache_tags(client, demo, path, tags):
    first = client.get(path)
    client.get(path)
    cached = client.get(path)

    for response in (first, cached):
        assert response["Cache-Tag"] == ",".join(tags)
        assert response["Surrogate-Key"] == " ".join(tags)


def test_a_retracted_story_page_keeps_its_tag(client, demo, admin_user):
    story_retract(story=demo["agent-training-stack"], user=admin_user, reason="Sources withdrawn.")

    for form in ("", "index.json", "index.md"):
        response = client.get(TRAINING + form)
        assert response.status_code == 410
        assert response["Cache-Tag"] == "story-81"


PURGED: list[list[str]] = []


def record_purge(tags: list[str]) -> None:
    """A purge hook for the tests: keeps what a CDN would have been told to purge."""
    PURGED.append(list(tags))


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_the_purge_hook_is_told_the_tags_of_the_pages_a_change_touched(
    demo, admin_user, settings, django_capture_on_commit_callbacks, change
):
    settings.CACHE_PURGE_HOOK = f"{__name__}.record_purge"
    PURGED.clear()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        change(demo["agent-training-stack"], admin_user)
        assert PURGED == []  # not before the commit

    assert callbacks
    assert [sorted(tags) for tags in PURGED] == [
        [
            "beat-artificial-intelligence-research",
            "edition-2026-10-16T00",
            "newsroom-artificial-intelligence",
            "site",
            "story-81",
        ]
    ]


def test_editing_a_working_copy_purges_nothing(demo, settings, django_capture_on_commit_callbacks):
    settings.CACHE_PURGE_HOOK = f"{__name__}.record_purge"
    PURGED.clear()
    story = demo["agent-training-stack"]

    with django_capture_on_commit_callbacks(execute=True):
        story.headline = "An edit nobody reads yet"
        story.save()
        story_import_desk(document=seed("agent-training-stack") | {"headline": "An import nobody reads yet"})

    assert PURGED == []


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


def test_the_redis_cache_takes_any_key_without_memcacheds_checks():
    key = "a key memcached would refuse: " + "x" * 300
    with pytest.warns(CacheKeyWarning):  # Django's own Redis backend checks every key
        DjangoRedisCache(unreachable_redis(), {}).make_and_validate_key(key)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert RedisCache(unreachable_redis(), {}).make_and_validate_key(key) == f":1:{key}"


@pytest.mark.redis
def test_pages_are_kept_in_redis_and_refreshed_there_after_a_change(
    client, demo, admin_user, settings, require_redis, django_assert_num_queries, django_capture_on_commit_callbacks
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
        assert first.status_code == 200
        client.get(TRAINING)  # the first store, before this process knew the page's tag
        with django_assert_num_queries(0):
            assert client.get(TRAINING).content == first.content

        with django_capture_on_commit_callbacks(execute=True):
            story_add_correction(story=demo["agent-training-stack"], text="Seen via Redis.", user=admin_user)

        assert "Seen via Redis." in client.get(TRAINING).content.decode()
    finally:
        server = redis.Redis.from_url(require_redis)
        keys = list(server.scan_iter(match=f"{prefix}:*"))
        if keys:
            server.delete(*keys)


def test_versions_published_before_etags_were_stored_get_the_ones_they_were_served_with(client, demo):
    from importlib import import_module

    from django.apps import apps

    from stories.models import PublishedVersion

    served = client.get(TRAINING)["ETag"]
    PublishedVersion.objects.update(page_html_etag="", document_etag="", markdown_etag="")

    import_module("stories.migrations.0012_artifact_etags").store_etags(apps, None)

    version = PublishedVersion.objects.get(slug="agent-training-stack")
    assert version.page_html_etag == served
    assert version.document_etag == etag_of(version.document.encode())
    assert version.markdown_etag == etag_of(version.markdown.encode())
    assert not PublishedVersion.objects.filter(markdown_etag="").exists()
