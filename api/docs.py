"""The API's docs pages and schema, served from this site alone.

Swagger UI and Redoc come from drf-spectacular-sidecar's static files (``SIDECAR`` in
``SPECTACULAR_SETTINGS``), never from a CDN: the docs work offline and load no third party's
script. Both pages carry ``API_DOCS_CONTENT_SECURITY_POLICY``; Swagger UI is the split view,
whose start-up script is a file of its own rather than inline, so ``script-src 'self'`` holds.
Redoc's template is ours, without the web fonts the stock one fetches from Google.

The schema's errors are JSON in the API's one error shape, whatever format was asked for.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponseBase
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request


class DocsPolicy:
    def finalize_response(self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        response["Content-Security-Policy"] = settings.API_DOCS_CONTENT_SECURITY_POLICY
        return response


class JSONErrors:
    """For views that render something other than JSON: their errors in the API's shape."""

    def handle_exception(self, exc: Exception) -> Any:
        # Chosen before the handler builds the error body, so the body is rendered as JSON
        # (a YAML schema request that is throttled still gets a JSON 429).
        self.request.accepted_renderer = JSONRenderer()  # type: ignore[attr-defined]
        self.request.accepted_media_type = JSONRenderer.media_type  # type: ignore[attr-defined]
        return super().handle_exception(exc)  # type: ignore[misc]


class Schema(JSONErrors, SpectacularAPIView):
    pass


class SwaggerDocs(JSONErrors, DocsPolicy, SpectacularSwaggerSplitView):
    pass


class RedocDocs(JSONErrors, DocsPolicy, SpectacularRedocView):
    template_name = "api/redoc.html"
