from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class AnonRateThrottle(throttling.AnonRateThrottle):
    """DRF's, with its rate read when a request comes rather than once at import (DRF binds
    ``THROTTLE_RATES`` to the class then), so the rate in settings is the one that applies."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
