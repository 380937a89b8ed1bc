"""``/healthz`` (liveness: the process answers) and ``/readyz`` (readiness: it can do its work)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .health import readiness


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    # Touches nothing but this process: a database outage must not make a supervisor restart it.
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    ready, checks = readiness()
    return JsonResponse({"status": "ok" if ready else "fail", "checks": checks}, status=200 if ready else 503)
