"""Story list pages kept in the cache, under a key made of what they show.

A page of summaries changes only when a live story does (every publish, correction,
retraction and re-render sets its version's ``modified_at`` to now, and a scheduled story going
live moves the latest ``published_at``: both are in ``stories_changed_at``) or when a newsroom,
beat or edition changes (the page cache's site-wide generation, bumped on their saves). A key
made of both and of the full URL (the next and previous links carry the host) names current
bytes by construction: nothing has to be invalidated, and old keys expire.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from rest_framework.request import Request

from newsroom.cache import CacheSkipped
from newsroom.pagecache import CACHE_ERRORS, generation

logger = logging.getLogger(__name__)
# Part of every key: raised whenever a summary's shape changes, so no release serves another's.
LIST_FORMAT = 2


@dataclass(frozen=True)
class Page:
    content: bytes
    link: str  # the page's Link header: its next and previous pages


def page_key(request: Request, changed_at: datetime | None) -> str | None:
    """The key of this list page, or None when it is not kept: searches (one entry per query
    would only churn the cache), or the cache cannot be reached."""
    if request.query_params.get("q"):
        return None
    try:
        site = generation()
    except CACHE_ERRORS as error:
        if not isinstance(error, CacheSkipped):  # the open breaker logged its error once
            logger.warning("cache unreachable: API list pages are computed without it", exc_info=True)
        return None
    stamp = changed_at.isoformat() if changed_at else "-"
    url = hashlib.blake2b(request.build_absolute_uri().encode(), digest_size=16).hexdigest()
    return f"api:stories:{LIST_FORMAT}:{site}:{stamp}:{url}"


def stored(key: str | None) -> Page | None:
    if key is None:
        return None
    try:
        kept = cache.get(key)
    except CACHE_ERRORS:
        return None
    return Page(*kept) if kept is not None else None


def store(key: str | None, content: bytes, *, link: str) -> Page:
    """Keep the page (when it has a key), and return it."""
    page = Page(content, link)
    if key is None:
        return page
    try:
        # A plain tuple, not the dataclass: what is kept never depends on this module's classes.
        cache.set(key, (content, link), settings.PAGE_CACHE_SECONDS)
    except CACHE_ERRORS as error:
        if not isinstance(error, CacheSkipped):
            logger.warning("cache unreachable: API list page not kept", exc_info=True)
    return page
