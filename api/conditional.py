"""Validators for API responses, so clients revalidate cheaply: an ETag on every 200, and a
Last-Modified where a view knows when its content last changed; a conditional GET that
matches gets a 304 without a body."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.http import HttpResponseBase, JsonResponse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from rest_framework import exceptions, status
from rest_framework.request import Request

from stories.models import PublishedVersion

from .errors import error_body


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "The resource no longer matches If-Match or If-Unmodified-Since."
    default_code = "precondition_failed"


class ConditionalMixin:
    """For API views: validators and conditional GET on every successful read.

    The ETag is a digest of the body itself, so it changes exactly when the bytes do,
    whatever changed them (a publish, a correction, a renamed newsroom). A view that knows when
    its content last changed sets ``self.changed_at`` for Last-Modified."""

    changed_at: datetime | None = None

    def finalize_response(self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        if request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        if hasattr(response, "render"):
            response.render()
        etag = f'"{hashlib.blake2b(response.content, digest_size=16).hexdigest()}"'
        response["ETag"] = etag
        # Clients and shared caches may keep a copy but must ask first: a retraction then never
        # lingers, and asking costs a 304 when nothing changed.
        response["Cache-Control"] = "no-cache"
        last_modified = None
        if self.changed_at is not None:
            last_modified = int(self.changed_at.timestamp())
            response["Last-Modified"] = http_date(last_modified)
        answer = get_conditional_response(request, etag=etag, last_modified=last_modified, response=response)
        if answer.status_code == status.HTTP_412_PRECONDITION_FAILED:
            return JsonResponse(error_body(PreconditionFailed()), status=status.HTTP_412_PRECONDITION_FAILED)
        return answer


def stories_changed_at() -> datetime | None:
    """When the set of live stories, or any of them, last changed: the latest publish,
    correction or retraction (a retraction changes the withdrawn version's modified_at),
    or a scheduled story going live (its published_at). One aggregate query."""
    now = timezone.now()
    latest = PublishedVersion.objects.filter(published_at__lte=now).aggregate(
        changed=Max("modified_at"), appeared=Max("published_at")
    )
    times = [value for value in latest.values() if value is not None]
    return max(times) if times else None
