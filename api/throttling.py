from __future__ import annotations

import logging
from typing import Any

from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

from newsroom.cache import CacheSkipped
from newsroom.pagecache import CACHE_ERRORS

logger = logging.getLogger(__name__)


class RateFromSettings:
    """DRF's throttles bind ``THROTTLE_RATES`` once at import; this reads the rate when a
    request comes, so the rate in settings is the one that applies."""

    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        # The counts live in the cache (Redis in production). Without it the API still answers,
        # unthrottled, rather than fail every request.
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except CACHE_ERRORS as error:
            if not isinstance(error, CacheSkipped):  # the open breaker logged its error once
                logger.warning("the API throttle cannot reach the cache, so it lets requests through: %r", error)
            return True


class AnonRateThrottle(RateFromSettings, throttling.AnonRateThrottle):
    """Requests without a token, counted per client address."""


class TokenRateThrottle(RateFromSettings, throttling.SimpleRateThrottle):
    """Requests with a token, counted per token (two tokens of one user count apart)."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = getattr(request, "auth", None)
        if not request.user.is_authenticated or token is None:
            return None  # the anonymous throttle counts these
        return self.cache_format % {"scope": self.scope, "ident": token.token_key}
