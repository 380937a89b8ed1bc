"""HTTP caching for public pages: validators, CDN headers, cache tags and a server-side page cache.

Every public view is wrapped in ``public_page``. The first request renders the page and keeps
its bytes, headers, ETag and Last-Modified in the Django cache (local memory on a laptop,
Redis in production); later requests are answered from there, and conditional requests get a
304.

Invalidation is by tag, precisely. A view names the tags of what its page shows (``tagged``):
``story-81`` for a story's page and twins, ``newsroom-…``, ``beat-…``, ``edition-…`` for those
listings, ``site`` for the home page, feeds, sitemaps, search and llms.txt. The first tag is
the page's own: each tag has a generation in the cache, a stored page records the generation
of its tag, and ``tags_changed()`` replaces the generations of the tags a change touched (a
publish, correction or retraction touches its story and the listings it appears on; nothing
else). A site-wide generation remains for rare changes that show everywhere (a newsroom's or
a beat's title, a site text): ``pages_changed()``. The page, its tag's generation and the
site-wide one are read together, in one round trip (``get_many``: one MGET on Redis).

Responses carry their tags in ``Cache-Tag`` and ``Surrogate-Key`` headers, so a CDN can purge
by tag; ``tags_changed`` hands the tags to the purge hook that ``settings.CACHE_PURGE_HOOK``
names (by default one that does nothing).

A client that takes gzip has pages of its own in the cache, kept compressed: a live story's
forms as the gzip form stored with its version, other pages compressed once as they are kept.
Both forms of a page say ``Vary: Accept-Encoding``, and each has its own ETag.

``PageCacheMiddleware`` answers a request for a stored page early, before the sessions, CSRF,
users and messages middleware and the URL resolver run: none of them changes what a public
page says, and a page served from the cache should cost less than the plainest view. The
decorator still stores pages, and answers requests whose query string the middleware leaves
to it.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Any, NamedTuple
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.utils.http import http_date, parse_http_date
from django.utils.module_loading import import_string
from redis.exceptions import RedisError

from . import localpages
from .cache import CacheSkipped, past_the_breaker

# What the cache raises when its server cannot be reached (Redis in production; the local-memory
# cache never does).
CACHE_ERRORS = (RedisError, OSError)
GENERATION_KEY = "pages:generation"
TAG_KEY_PREFIX = "pages:tag:"
# The tag of a page whose view named none: it changes with the site-wide generation alone.
UNTAGGED = "untagged"
# Part of every page's key: raised whenever CachedPage changes shape, so that a release never
# answers with a page an older release stored (2: Content-Length and X-Frame-Options added;
# 3: the page records its generation, which left the key; 4: and its tag's generation; 5: pages
# vary by Accept-Encoding, each form under a key of its own).
PAGE_FORMAT = 5
# Django's GZipMiddleware's and WhiteNoise's test of Accept-Encoding, the word gzip, except with a
# weight of zero, which refuses it (RFC 9110 12.4.2).
ACCEPTS_GZIP = re.compile(r"\bgzip\b(?!\s*;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:,|$))", re.IGNORECASE)
# Headers that belong to one response, not to the page: never stored, recomputed on each hit.
_PER_RESPONSE_HEADERS = {"set-cookie", "date", "etag", "last-modified", "cache-control", "content-length", "vary"}
# Public HTML never needs a script: a second line of defence behind the markdown sanitizer.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'none'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

View = Callable[..., HttpResponseBase]
logger = logging.getLogger(__name__)


def generation() -> int:
    """The current generation: nanoseconds since the epoch when public content last changed."""
    value = cache.get(GENERATION_KEY)
    return _new_generation() if value is None else value


def _new_generation() -> int:
    # First request after a flush or an eviction: start a new generation. ``add`` makes
    # concurrent first requests agree on one value.
    cache.add(GENERATION_KEY, time.time_ns(), timeout=None)
    return cache.get(GENERATION_KEY) or time.time_ns()  # a dummy cache keeps nothing


def tag_key(tag: str) -> str:
    return TAG_KEY_PREFIX + tag


def tag_headers(tags: list[str]) -> tuple[tuple[str, str], tuple[str, str]]:
    """The headers that name what a page shows: for the page cache (its first tag) and for a
    CDN (all of them)."""
    return ("Cache-Tag", ",".join(tags)), ("Surrogate-Key", " ".join(tags))


def tagged(response: HttpResponseBase, tags: list[str]) -> HttpResponseBase:
    for name, value in tag_headers(tags):
        response[name] = value
    return response


def etag_of(content: bytes) -> str:
    """A page's strong ETag. SHA-256 runs on the CPU's SHA extensions where there are any: half
    blake2b's time for a 36 KB page here; still 20 us, so stored pages keep theirs."""
    return '"' + hashlib.sha256(content).hexdigest()[:32] + '"'


def gzipped(content: bytes) -> bytes:
    """Content's gzip form, made once (a story's artifacts when rendered, other pages when kept
    in the page cache), never per response: the same bytes each time (no timestamp), at the
    level that makes them smallest, since it is paid once."""
    return gzip.compress(content, compresslevel=9, mtime=0)


def gzip_etag(etag: str) -> str:
    """The strong ETag of an artifact's gzip form: another representation, so another tag
    (RFC 9110 8.8.3), derived from the artifact's own."""
    return etag[:-1] + '-gzip"'


def accepts_gzip(request: HttpRequest) -> bool:
    return ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")) is not None


def tags_changed(tags: list[str]) -> None:
    """Make the pages of these tags stale, here and (through the purge hook) at the CDN.

    A fresh timestamp per tag, as for the site-wide generation. Raises when the cache cannot be
    reached: callers run it as a robust on-commit hook."""
    if not tags:
        return
    now = time.time_ns()
    try:
        with past_the_breaker():  # a page cache that skips reads must still hear of changes
            cache.set_many({tag_key(tag): now for tag in tags}, timeout=None)
        localpages.announce(tags)
    finally:
        import_string(settings.CACHE_PURGE_HOOK)(tags)


def purge_nothing(tags: list[str]) -> None:
    """The default purge hook: no CDN to tell. Set ``CACHE_PURGE_HOOK`` to one that calls your
    CDN's purge-by-tag API (Fastly's Surrogate-Key, Cloudflare's Cache-Tag)."""


def pages_changed() -> None:
    """Make every cached page stale. A fresh timestamp, not an increment, so a generation
    number is never reused after the cache loses the key.

    Raises when the cache cannot be reached: callers run it as a robust on-commit hook, so a
    change still commits; pages a cache server kept through its outage then stay stale until
    they expire (``PAGE_CACHE_SECONDS``)."""
    with past_the_breaker():
        cache.set(GENERATION_KEY, time.time_ns(), timeout=None)
    localpages.announce([localpages.EVERYTHING])


def last_modified(response: HttpResponse, when: datetime | None) -> HttpResponse:
    """Record when the content shown on a page last changed (the default is the generation)."""
    if when is not None:
        response["Last-Modified"] = http_date(when.timestamp())
    return response


def private_response(response: HttpResponse) -> HttpResponse:
    """An editor's preview: never stored by anyone, never indexed."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


class ReadyPage(NamedTuple):
    """What a view of a page stored beforehand (a live story's artifact) gives ``public_page``
    instead of a response: the bytes, their own headers (type, links, tags), their ETag and when
    they last changed, all read from where they are stored. The page cache adds the rest, once."""

    content: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str
    last_modified: int  # seconds since the epoch
    tag: str


@dataclass(frozen=True)
class CachedPage:
    """A rendered page with every header it is served with, worked out once when stored."""

    content: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str
    last_modified: int
    generation: int  # the site-wide one it was rendered in: in any other, it is stale
    tag: str  # its own tag
    # When its rendering began (nanoseconds since the epoch). Tag generations are the times of
    # the changes, set after they commit: a page is current while its tag last changed before
    # it began rendering, so a change committed while it was rendered leaves it stale.
    rendered_from: int

    @classmethod
    def from_response(
        cls, response: HttpResponse, gen: int, rendered_from: int, *, compress: bool = False
    ) -> CachedPage:
        """The page a view rendered; compressed when it is kept for a client that takes gzip
        (once, as it is stored), unless it is too short to gain, as Django's GZipMiddleware
        judges."""
        stamp = response.get("Last-Modified")
        content = response.content
        headers = tuple((name, value) for name, value in response.items() if name.lower() not in _PER_RESPONSE_HEADERS)
        etag = etag_of(content)
        if compress and len(content) >= 200:
            compressed = gzipped(content)
            if len(compressed) < len(content):
                content, etag = compressed, gzip_etag(etag)
                headers += (("Content-Encoding", "gzip"),)
        ready = ReadyPage(
            content,
            headers,
            etag,
            # A page that does not say when its content changed has changed with the generation.
            parse_http_date(stamp) if stamp else gen // 1_000_000_000,
            page_tag(response),
        )
        frame_options = "X-Frame-Options" not in response and not getattr(response, "xframe_options_exempt", False)
        return cls.of(ready, gen, rendered_from, frame_options=frame_options)

    @classmethod
    def of(cls, ready: ReadyPage, gen: int, rendered_from: int, *, frame_options: bool = True) -> CachedPage:
        """The page with every header it is served with: its own, and the caching ones."""
        content, headers, etag, last_modified, tag = ready
        headers = list(headers)
        if any(name == "Content-Type" and value.startswith("text/html") for name, value in headers):
            headers.append(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
        # What CommonMiddleware and XFrameOptionsMiddleware would add: PageCacheMiddleware
        # answers before they run. (A 304 keeps neither: Django copies only its validators.)
        headers.append(("Content-Length", str(len(content))))
        if frame_options:
            headers.append(("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()))
        headers += [
            # Its key says whether the client takes gzip (page_key): so must its headers, for
            # browsers' and CDNs' caches.
            ("Vary", "Accept-Encoding"),
            ("ETag", etag),
            ("Last-Modified", http_date(last_modified)),
            (
                "Cache-Control",
                f"public, max-age={settings.PAGE_MAX_AGE}, s-maxage={settings.PAGE_S_MAXAGE}, "
                f"stale-if-error={settings.PAGE_S_MAXAGE}",
            ),
        ]
        return cls(content, tuple(headers), etag, last_modified, gen, tag, rendered_from)

    def is_current(self, gen: int, tag_gen: int | None) -> bool:
        return self.generation == gen and (tag_gen is None or tag_gen < self.rendered_from)

    def respond(self, request: HttpRequest) -> HttpResponseBase:
        response = HttpResponse(self.content, headers=dict(self.headers))
        return get_conditional_response(request, etag=self.etag, last_modified=self.last_modified, response=response)


def page_tag(response: HttpResponseBase) -> str:
    return response.get("Cache-Tag", UNTAGGED).split(",", 1)[0]


def page_key(request: HttpRequest, query: Iterable[str]) -> str:
    # Only the parameters a view reads take part in the key, so ?utm_source=... shares the
    # page and cannot be used to fill the cache with copies. A client that takes gzip gets a
    # page of its own: a story's forms are sent to it compressed.
    params = urlencode(sorted((name, request.GET[name]) for name in query if name in request.GET))
    digest = hashlib.sha256(f"{request.path}?{params}".encode()).hexdigest()
    return f"pages:{PAGE_FORMAT}:{digest}:gzip" if accepts_gzip(request) else f"pages:{PAGE_FORMAT}:{digest}"


@dataclass
class Lookup:
    """What the page cache holds for a request: its key (None: do not store), the site-wide
    generation, and the page when it is current."""

    key: str | None
    generation: int
    page: CachedPage | None = None
    # When the lookup began, before any rendering: what a page rendered for it records.
    started: int = 0
    # This process's copies (newsroom.localpages): the epoch before Redis was read.
    local_epoch: int = 0


def _look_up(request: HttpRequest, query: Iterable[str], *, store: bool = True) -> Lookup:
    """No key when ``store`` is off, or when the cache cannot be reached: the page cache only
    saves work, so with its server down pages are rendered anew, not refused.

    One round trip when this process knows the path's tag (it stored or found the page
    before); else a second one for the tag of the page found."""
    try:
        if not store:
            return Lookup(None, generation(), started=time.time_ns())
        key = page_key(request, query)
        local = localpages.local_pages()
        epoch = 0
        if local is not None:
            kept, epoch = local.get(key)
            if kept is not None:
                return Lookup(key, kept.generation, kept)
        started = time.time_ns()
        known_tag = _stored_paths.get(request.path)
        wanted = [GENERATION_KEY, key] + ([tag_key(known_tag)] if known_tag else [])
        found = cache.get_many(wanted)
        gen = found.get(GENERATION_KEY) or _new_generation()
        known_gen = found.get(tag_key(known_tag)) if known_tag else None
        page = found.get(key)
        if page is None:
            return Lookup(key, gen, None, started, epoch)
        tag_gen = known_gen if page.tag == known_tag else cache.get(tag_key(page.tag))
        if not page.is_current(gen, tag_gen):
            return Lookup(key, gen, None, started, epoch)
        if local is not None:
            local.put(key, page, epoch)
        return Lookup(key, gen, page, started, epoch)
    except CACHE_ERRORS as error:
        _unavailable(error)
        return Lookup(None, time.time_ns(), started=time.time_ns())


def _unavailable(error: Exception) -> None:
    # A call the open breaker skipped is not news: the breaker logged the error that opened it,
    # and a log line (with the cost of writing it) per request would only add to an outage.
    if not isinstance(error, CacheSkipped):
        logger.warning("the page cache is unavailable, so pages are rendered anew: %r", error)


# Paths this process has stored or found a page for, with the page's tag: PageCacheMiddleware
# looks up only these, so other requests (the admin, a 404, a view of another kind) pay nothing
# for it. A path stays after its page goes stale; the lookup then misses and the view renders
# it again. Bounded, because paths come from requests: forgetting them all costs one
# decorator-served request per path.
_stored_paths: dict[str, str] = {}
_STORED_PATHS_LIMIT = 100_000


def public_page(view: View | None = None, *, query: Iterable[str] = (), store: bool = True) -> Any:
    """Serve a public view with validators and CDN headers, from the page cache when ``store``.

    The view returns a response, or a ``ReadyPage`` for a page stored beforehand.
    ``query`` names the GET parameters the view reads. A response the view marked private
    (an editor's preview) or any status other than 200 passes through untouched and unstored.
    ``store=False`` (search: one entry per query would only churn the cache) still sends
    ETag, Last-Modified and Cache-Control and answers 304.
    """
    query = tuple(query)

    def decorator(func: View) -> View:
        @wraps(func)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            # What PageCacheMiddleware found, if it looked (a miss: the same lookup again would
            # only cost another round trip to the cache); else look now.
            looked = getattr(request, "page_cache_lookup", None) or _look_up(request, query, store=store)
            page = looked.page
            if page is None:
                response = func(request, *args, **kwargs)
                if isinstance(response, ReadyPage):
                    page = CachedPage.of(response, looked.generation, looked.started)
                else:
                    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                        response = response.render()  # TemplateResponse, e.g. from the sitemap view
                    if (
                        response.status_code != 200
                        or response.streaming
                        or "private" in response.get("Cache-Control", "")
                    ):
                        return response
                    compress = looked.key is not None and accepts_gzip(request)  # once, when kept
                    page = CachedPage.from_response(response, looked.generation, looked.started, compress=compress)
                if looked.key:
                    try:
                        cache.set(looked.key, page, settings.PAGE_CACHE_SECONDS)
                    except CACHE_ERRORS as error:
                        _unavailable(error)
                    else:
                        local = localpages.local_pages()
                        if local is not None:
                            local.put(looked.key, page, looked.local_epoch)
            if looked.key:
                _stored_paths[request.path] = page.tag  # stored here, or by another process
            return page.respond(request)

        wrapper.uncached = func  # the bare view, for benchmarks and tests of the view alone
        return wrapper

    return decorator(view) if view is not None else decorator


class PageCacheMiddleware:
    """Answers GET and HEAD requests without a query string for a stored page, before the
    middleware below it. Belongs right after SecurityMiddleware (and WhiteNoise), so HTTPS
    redirects and security headers still apply to every page it answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING") and request.path in _stored_paths:
            # The check CommonMiddleware would make: a Host outside ALLOWED_HOSTS gets a 400.
            request.get_host()
            looked = _look_up(request, ())
            if looked.page is not None:
                return looked.page.respond(request)
            request.page_cache_lookup = looked
        if len(_stored_paths) > _STORED_PATHS_LIMIT:
            _stored_paths.clear()
        return self.get_response(request)
