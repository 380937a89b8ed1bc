"""HTTP caching for public pages: validators, CDN headers and a server-side page cache.

Every public view is wrapped in ``public_page``. The first request renders the page and keeps
its bytes, headers, ETag and Last-Modified in the Django cache (local memory on a laptop,
Redis in production); later requests are answered from there without touching the database,
and conditional requests get a 304.

Invalidation is one site-wide *generation*: every stored page records the generation it was
rendered in, and ``pages_changed()`` replaces the generation whenever what readers may see
changes (the stories room calls it on ``story_changed``). A page from an older generation is
a miss, and is replaced when rendered anew. A story appears on its own page, its twins, the
home page, its newsroom, beat and edition pages, the feeds, sitemaps, search and llms.txt;
working out that set per change is where caches go wrong, while publishing is rare next to
reading, so the whole site is re-rendered lazily after each change. Entries expire with
``PAGE_CACHE_SECONDS``, which also bounds anything that changes with time alone (a newly
in-force site text). The generation and the page are read together, in one round trip to
the cache (``get_many``: one MGET on Redis).

``PageCacheMiddleware`` answers a request for a stored page early, before the sessions, CSRF,
users and messages middleware and the URL resolver run: none of them changes what a public
page says, and a page served from the cache should cost less than the plainest view. The
decorator still stores pages, and answers requests whose query string the middleware leaves
to it.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.utils.http import http_date, parse_http_date
from redis.exceptions import RedisError

# What the cache raises when its server cannot be reached (Redis in production; the local-memory
# cache never does).
CACHE_ERRORS = (RedisError, OSError)
GENERATION_KEY = "pages:generation"
# Part of every page's key: raised whenever CachedPage changes shape, so that a release never
# answers with a page an older release stored (2: Content-Length and X-Frame-Options added;
# 3: the page records its generation, which left the key).
PAGE_FORMAT = 3
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


def pages_changed() -> None:
    """Make every cached page stale. A fresh timestamp, not an increment, so a generation
    number is never reused after the cache loses the key.

    Raises when the cache cannot be reached: callers run it as a robust on-commit hook, so a
    change still commits; pages a cache server kept through its outage then stay stale until
    they expire (``PAGE_CACHE_SECONDS``)."""
    cache.set(GENERATION_KEY, time.time_ns(), timeout=None)


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


@dataclass(frozen=True)
class CachedPage:
    """A rendered page with every header it is served with, worked out once when stored."""

    content: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str
    last_modified: int
    generation: int  # the one it was rendered in: in any other, it is stale

    @classmethod
    def from_response(cls, response: HttpResponse, gen: int) -> CachedPage:
        stamp = response.get("Last-Modified")
        # A page that does not say when its content changed has changed with the generation.
        last_modified = parse_http_date(stamp) if stamp else gen // 1_000_000_000
        # SHA-256 runs on the CPU's SHA extensions where there are any: half blake2b's time
        # for a 36 KB page here.
        etag = '"' + hashlib.sha256(response.content).hexdigest()[:32] + '"'
        headers = [(name, value) for name, value in response.items() if name.lower() not in _PER_RESPONSE_HEADERS]
        if response.get("Content-Type", "").startswith("text/html"):
            headers.append(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
        # What CommonMiddleware and XFrameOptionsMiddleware would add: PageCacheMiddleware
        # answers before they run. (A 304 keeps neither: Django copies only its validators.)
        headers.append(("Content-Length", str(len(response.content))))
        if "X-Frame-Options" not in response and not getattr(response, "xframe_options_exempt", False):
            headers.append(("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()))
        headers += [
            ("ETag", etag),
            ("Last-Modified", http_date(last_modified)),
            (
                "Cache-Control",
                f"public, max-age={settings.PAGE_MAX_AGE}, s-maxage={settings.PAGE_S_MAXAGE}, "
                f"stale-if-error={settings.PAGE_S_MAXAGE}",
            ),
        ]
        return cls(response.content, tuple(headers), etag, last_modified, gen)

    def respond(self, request: HttpRequest) -> HttpResponseBase:
        response = HttpResponse(self.content, headers=dict(self.headers))
        return get_conditional_response(request, etag=self.etag, last_modified=self.last_modified, response=response)


def page_key(request: HttpRequest, query: Iterable[str]) -> str:
    # Only the parameters a view reads take part in the key, so ?utm_source=... shares the
    # page and cannot be used to fill the cache with copies.
    params = urlencode(sorted((name, request.GET[name]) for name in query if name in request.GET))
    digest = hashlib.sha256(f"{request.path}?{params}".encode()).hexdigest()
    return f"pages:{PAGE_FORMAT}:{digest}"


def _look_up(
    request: HttpRequest, query: Iterable[str], *, store: bool = True
) -> tuple[int, str | None, CachedPage | None]:
    """The generation, the page's key and the page stored under it (None: not stored, or
    stored in an older generation).

    No key when ``store`` is off, or when the cache cannot be reached: the page cache only
    saves work, so with its server down pages are rendered anew, not refused.
    """
    try:
        if not store:
            return generation(), None, None
        key = page_key(request, query)
        found = cache.get_many([GENERATION_KEY, key])
        gen = found.get(GENERATION_KEY) or _new_generation()
        page = found.get(key)
        return gen, key, page if page is not None and page.generation == gen else None
    except CACHE_ERRORS as error:
        _unavailable(error)
        return time.time_ns(), None, None


def _unavailable(error: Exception) -> None:
    logger.warning("the page cache is unavailable, so pages are rendered anew: %r", error)


# Paths this process has stored or found a page for: PageCacheMiddleware looks up only these,
# so other requests (the admin, a 404, a view of another kind) pay nothing for it. A path
# stays after its page goes stale; the lookup then misses and the view renders it again.
# Bounded, because paths come from requests: forgetting them all costs one decorator-served
# request per path.
_stored_paths: set[str] = set()
_STORED_PATHS_LIMIT = 100_000


def public_page(view: View | None = None, *, query: Iterable[str] = (), store: bool = True) -> Any:
    """Serve a public view with validators and CDN headers, from the page cache when ``store``.

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
            looked = getattr(request, "page_cache_lookup", None)
            gen, key, page = (*looked, None) if looked else _look_up(request, query, store=store)
            if page is None:
                response = func(request, *args, **kwargs)
                if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                    response = response.render()  # TemplateResponse, e.g. from the sitemap view
                if response.status_code != 200 or response.streaming or "private" in response.get("Cache-Control", ""):
                    return response
                page = CachedPage.from_response(response, gen)
                if key:
                    try:
                        cache.set(key, page, settings.PAGE_CACHE_SECONDS)
                    except CACHE_ERRORS as error:
                        _unavailable(error)
            if key:
                _stored_paths.add(request.path)  # stored here, or by another process
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
            gen, key, page = _look_up(request, ())
            if page is not None:
                return page.respond(request)
            request.page_cache_lookup = (gen, key)
        if len(_stored_paths) > _STORED_PATHS_LIMIT:
            _stored_paths.clear()
        return self.get_response(request)
