from __future__ import annotations

import logging
from typing import Any

from rest_framework import throttling
from rest_framework.settings import api_settings

from newsroom.cache import CacheSkipped
from newsroom.pagecache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class AnonRateThrottle(throttling.AnonRateThrottle):
    """DRF's, with its rate read when a request comes rather than once at import (DRF binds
    ``THROTTLE_RATES`` to the class then), so the rate in settings is the one that applies.

    It counts requests in the cache. When the cache cannot be reached (Redis down, hung, or
    skipped by the breaker in newsroom/cache.py) the request is let through uncounted: the
    API then answers as the pages do, from the database, instead of a 500 for every client
    for as long as the outage lasts."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as error:
            if not isinstance(error, CacheSkipped):  # the open breaker logged its error once
                logger.warning("the API throttle cannot reach the cache, so it lets requests through: %r", error)
            return True
