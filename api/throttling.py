"""The API's throttles (DRF's, counted in the default cache), and the rate-limit headers
that tell a client where it stands: ``RateLimit-Limit`` (requests per window),
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the oldest request counted leaves
the window, so one more is allowed), as in the IETF draft and GitHub's ``X-RateLimit-*``."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

from newsroom.cache import CacheSkipped
from newsroom.pagecache import CACHE_ERRORS

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Quota:
    limit: int
    remaining: int
    reset: int  # seconds

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset),
        }


def quota_of(throttle: throttling.SimpleRateThrottle, history: list[float], now: float) -> Quota:
    reset = math.ceil(history[-1] + throttle.duration - now) if history else 0
    return Quota(throttle.num_requests, max(0, throttle.num_requests - len(history)), max(0, reset))


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
            allowed = super().allow_request(request, view)  # type: ignore[misc]
        except CACHE_ERRORS as error:
            if not isinstance(error, CacheSkipped):  # the open breaker logged its error once
                logger.warning("the API throttle cannot reach the cache, so it lets requests through: %r", error)
            return True
        if getattr(self, "key", None) is not None and hasattr(self, "history"):
            # This throttle counted the request (the other one of the pair has no key for it):
            # kept on Django's request, where RateLimitHeaders finds it.
            request._request.api_quota = quota_of(self, self.history, self.now)  # type: ignore[attr-defined]
        return allowed

    def peek(self, key: str) -> Quota | None:
        """Where the counter under ``key`` stands, without counting a request: for answers
        given before the throttles ran (a refused token, a missing role)."""
        if self.rate is None:  # type: ignore[attr-defined]
            return None
        try:
            history = self.cache.get(key, [])  # type: ignore[attr-defined]
        except CACHE_ERRORS:
            return None
        now = self.timer()  # type: ignore[attr-defined]
        history = [moment for moment in history if moment > now - self.duration]  # type: ignore[attr-defined]
        return quota_of(self, history, now)  # type: ignore[arg-type]


class AnonRateThrottle(RateFromSettings, throttling.AnonRateThrottle):
    """Requests without a token, counted per client address."""

    def key_of(self, request: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenRateThrottle(RateFromSettings, throttling.SimpleRateThrottle):
    """Requests with a token, counted per token (two tokens of one user count apart)."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = getattr(request, "auth", None)
        if not request.user.is_authenticated or token is None:
            return None  # the anonymous throttle counts these
        return self.key_of(token)

    def key_of(self, token: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": token.token_key}


class RateLimitHeaders:
    """Middleware: the rate-limit headers on every answer under /api/ and /mcp/."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not request.path_info.startswith(("/api/", "/mcp/")):
            return response
        quota = getattr(request, "api_quota", None)
        if quota is None:
            # Answered before the throttles ran. DRF leaves the token it authenticated on
            # Django's request: its counter, else the client address's.
            token = getattr(request, "auth", None)
            if hasattr(token, "token_key"):
                by_token = TokenRateThrottle()
                quota = by_token.peek(by_token.key_of(token))
            else:
                by_address = AnonRateThrottle()
                quota = by_address.peek(by_address.key_of(request))
        if quota is not None:
            for name, value in quota.headers().items():
                response[name] = value
        return response
