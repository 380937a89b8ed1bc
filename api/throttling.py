from __future__ import annotations

from typing import Any

from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings


class RateFromSettings:
    """DRF's throttles bind ``THROTTLE_RATES`` once at import; this reads the rate when a
    request comes, so the rate in settings is the one that applies."""

    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


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
