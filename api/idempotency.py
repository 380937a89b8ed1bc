"""``Idempotency-Key`` on the API's POSTs, as Stripe's and the IETF draft's: a client that did not
hear the answer sends the same request again with the same key, and gets the first answer back
(status and body, with ``Idempotent-Replayed: true``) without the work being done twice.

- A key is the user's, for ``API_IDEMPOTENCY_SECONDS`` (a day) from its first use; rows older are
  pruned as new keys come (no beat task needed).
- The same key with another request (method, path, If-Match or body) is a 422
  ``idempotency_key_reused``; while its first request is still being answered, a 409
  ``idempotency_key_in_use`` (try again in a moment).
- Only an answer whose work was done (2xx) is kept. A refusal did nothing, so the key is freed and
  the same request may be sent again once what refused it has changed (a run finished, say).

The key is claimed (a row inserted, unique per user and key) before the work starts, so two
requests with one key never both do it. A claim left by a process that died while answering is
taken over after ``IN_FLIGHT_SECONDS``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from .errors import IdempotencyKeyInUse, IdempotencyKeyReused
from .models import IdempotentRequest

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
# Visible ASCII: a UUID, or any other name the client keeps for the request.
KEY = re.compile(r"[\x21-\x7e]{1,255}")
# Longer than any request is answered (gunicorn's timeout is 30 s): a claim this old with no
# answer was left by a process that died.
IN_FLIGHT_SECONDS = 300


def idempotency_parameters(*answers: int) -> list[OpenApiParameter]:
    """The header a POST may send, and the one its replayed answers (these statuses) carry."""
    return [
        OpenApiParameter(
            HEADER,
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            pattern=KEY.pattern,
            description=(
                "Any unique string (a UUID) naming this request. Sent again with the same key and the same "
                "request within a day, the first answer is replayed (with Idempotent-Replayed: true) and "
                "nothing is done again; the same key with another request is a 422. Only answers whose "
                "work was done (2xx) are kept."
            ),
        ),
        OpenApiParameter(
            REPLAYED_HEADER,
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            response=list(answers),
            enum=["true"],
            description="Present on an answer replayed for an Idempotency-Key.",
        ),
    ]


@dataclass(frozen=True)
class Claim:
    row: IdempotentRequest
    replay: bool


def fingerprint_of(request: Request) -> str:
    """A digest of what makes two requests the same: method, path, If-Match, the parsed body
    (as sent, in its key order: a desk/1 document's order is part of it)."""
    body = request.data if request.stream is not None else None
    text = json.dumps(
        [request.method, request.path, request.headers.get("If-Match"), body],
        ensure_ascii=False,
        separators=(",", ":"),
        cls=JSONEncoder,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _claim(*, user: Any, key: str, fingerprint: str, now: datetime) -> Claim:
    window = timedelta(seconds=settings.API_IDEMPOTENCY_SECONDS)
    # Lazily pruned: keys past the window, anyone's (an indexed range).
    IdempotentRequest.objects.filter(created_at__lt=now - window).delete()
    for _ in range(2):
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(user=user, key=key, fingerprint=fingerprint, created_at=now)
            return Claim(row, replay=False)
        except IntegrityError:
            pass
        row = IdempotentRequest.objects.filter(user=user, key=key).first()
        if row is None:
            continue  # freed between the two statements: claim it again
        if row.fingerprint != fingerprint:
            raise IdempotencyKeyReused(key)
        if row.status_code is not None:
            return Claim(row, replay=True)
        # The first request is still being answered, or its process died: take that over only
        # when its claim is too old to be alive (one UPDATE, so one taker).
        abandoned = now - timedelta(seconds=IN_FLIGHT_SECONDS)
        if row.created_at < abandoned and IdempotentRequest.objects.filter(
            pk=row.pk, status_code__isnull=True, created_at=row.created_at
        ).update(created_at=now):
            row.created_at = now
            return Claim(row, replay=False)
        raise IdempotencyKeyInUse(key)
    raise IdempotencyKeyInUse(key)


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """For a view's ``post``: the ``Idempotency-Key`` rule above. Runs after the token, the scope
    and the throttles were checked, so a refused request never claims a key."""

    @functools.wraps(handler)
    def post(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None:
            return handler(view, request, *args, **kwargs)
        if not KEY.fullmatch(key):
            raise exceptions.ValidationError(
                {HEADER: ["Must be 1 to 255 visible ASCII characters (a UUID, say), without spaces."]}
            )
        claim = _claim(user=request.user, key=key, fingerprint=fingerprint_of(request), now=timezone.now())
        row = claim.row
        if claim.replay:
            headers = {REPLAYED_HEADER: "true"} | ({"Location": row.location} if row.location else {})
            return Response(json.loads(row.body) if row.body else None, status=row.status_code, headers=headers)
        try:
            response = handler(view, request, *args, **kwargs)
        except BaseException:
            row.delete()  # nothing was done: the key is free again
            raise
        if not 200 <= response.status_code < 300:
            row.delete()
            return response
        # Kept as the JSON text it is sent as (dates as their text, keys in their order: a jsonb
        # column would reorder them on PostgreSQL), so a replay is the same bytes.
        row.body = json.dumps(response.data, cls=JSONEncoder)
        row.status_code = response.status_code
        row.location = response.get("Location", "")
        row.save(update_fields=["body", "status_code", "location"])
        return response

    return post
