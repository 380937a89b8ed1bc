"""The middleware of the API's edge, run for the API's requests alone (``newsroom.scoped``):
CORS (api/cors.py), the rate-limit headers (api/throttling.py) and chunked bodies (api/parsers.py)."""

from __future__ import annotations

from corsheaders.signals import check_request_enabled
from django.http import HttpRequest

from newsroom.scoped import scoped

# Where the three act: CORS_URLS_REGEX (settings) lies within these.
API_PREFIXES = ("/api/", "/mcp/")


def _api_request(request: HttpRequest) -> bool:
    # A check_request_enabled receiver may give CORS to any route: then every request goes in.
    # Its list of receivers is read first: has_listeners() takes the signal's lock and sorts
    # its receivers into sync and async ones, which cost a public page more than this layer.
    return request.path_info.startswith(API_PREFIXES) or (
        bool(check_request_enabled.receivers) and check_request_enabled.has_listeners()
    )


api_middleware = scoped(
    _api_request, "api.cors.ApiCorsMiddleware", "api.throttling.RateLimitHeaders", "api.parsers.ChunkedBodies"
)
