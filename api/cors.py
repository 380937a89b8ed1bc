"""CORS for the API (django-cors-headers), in two tiers.

- Any origin may read: ``Access-Control-Allow-Origin: *`` and no credentials, for the safe
  methods only. A page anywhere can show published stories; since reads never look at a
  token or a cookie, there is nothing of a user's for it to see.
- The origins in ``API_CORS_WRITE_ORIGINS`` may also write: their own origin echoed,
  ``Access-Control-Allow-Credentials: true``, POST and DELETE (a webhook), and the
  ``Authorization``, ``If-Match`` and ``Idempotency-Key`` headers allowed. A browser elsewhere
  is refused the preflight of a write, so a token pasted into some other site's page cannot be
  used from there.

django-cors-headers has one policy for every origin (``CORS_ALLOW_CREDENTIALS`` is global);
this subclass keeps its preflight handling and its URL and origin matching, and chooses the
tier per request.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from corsheaders.conf import conf
from corsheaders.middleware import (
    ACCESS_CONTROL_ALLOW_CREDENTIALS,
    ACCESS_CONTROL_ALLOW_HEADERS,
    ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS,
    ACCESS_CONTROL_MAX_AGE,
    CorsMiddleware,
)
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers

READ_METHODS = ("GET", "HEAD", "OPTIONS")
WRITE_METHODS = (*READ_METHODS, "POST", "DELETE")
# What a read sends: conditional requests. A write adds its token and its edit version.
READ_HEADERS = ("accept", "if-none-match", "if-modified-since")
WRITE_HEADERS = (*READ_HEADERS, "authorization", "content-type", "if-match", "idempotency-key")
# Headers a script may read from an answer (beyond the CORS-safelisted ones).
EXPOSED_HEADERS = (
    "ETag",
    "Last-Modified",
    "Link",
    "Location",
    "Idempotent-Replayed",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
)


class ApiCorsMiddleware(CorsMiddleware):
    def add_response_headers(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        enabled = getattr(request, "_cors_enabled", None)
        if enabled is None:
            enabled = self.is_enabled(request)
        if not enabled:
            return response
        origin = request.headers.get("origin")
        try:
            url = urlsplit(origin) if origin else None
        except ValueError:
            url = None
        writer = url is not None and self.origin_found_in_white_lists(origin, url)
        # Only the writers' answers differ by origin: a shared cache may keep one "*" answer.
        if writer or conf.CORS_ALLOWED_ORIGINS:
            patch_vary_headers(response, ("origin",))
        if url is None:
            return response
        if writer:
            response[ACCESS_CONTROL_ALLOW_ORIGIN] = origin
            response[ACCESS_CONTROL_ALLOW_CREDENTIALS] = "true"
        else:
            response[ACCESS_CONTROL_ALLOW_ORIGIN] = "*"
        response[ACCESS_CONTROL_EXPOSE_HEADERS] = ", ".join(EXPOSED_HEADERS)
        if request.method == "OPTIONS":
            response[ACCESS_CONTROL_ALLOW_HEADERS] = ", ".join(WRITE_HEADERS if writer else READ_HEADERS)
            response[ACCESS_CONTROL_ALLOW_METHODS] = ", ".join(WRITE_METHODS if writer else READ_METHODS)
            response[ACCESS_CONTROL_MAX_AGE] = str(conf.CORS_PREFLIGHT_MAX_AGE)
        return response
