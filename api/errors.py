"""One error shape for every API error: ``{"error": code, "message": ..., "problems": [...]}``.

A client reads ``error`` (a stable code such as ``invalid``, ``not_found``, ``throttled``) to
decide what to do, ``message`` to tell a person, and ``problems`` to point at the input that
was wrong: each one's ``at`` names the field or query parameter (``trust``, ``cursor``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Gone(exceptions.APIException):
    """A story that was published and then retracted: it is not coming back."""

    status_code = status.HTTP_410_GONE
    default_detail = "This story was retracted."
    default_code = "withdrawn"


class Conflict(exceptions.APIException):
    """The request cannot be done in the resource's current state (a stale version, a story
    that cannot be published yet); ``problems`` may point at the input."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the resource's current state."
    default_code = "conflict"

    def __init__(self, message: str, *, code: str = "conflict", problems: list[dict[str, str]] | None = None):
        super().__init__(message, code=code)
        self.problems = problems or []


class InsufficientScope(exceptions.PermissionDenied):
    """The token was made without the scope this needs (whatever its user's roles allow)."""

    default_code = "insufficient_scope"

    def __init__(self, needed: str, scopes: list[str]):
        needed, has = str(needed), ", ".join(scopes) if scopes else "no scope"
        message = f"This needs a token with the scope '{needed}'; this token has {has}."
        super().__init__(message, code=self.default_code)
        self.scope = needed
        self.problems = [{"at": "Authorization", "message": message}]


class IdempotencyKeyReused(exceptions.APIException):
    """An Idempotency-Key sent again with another request than the one it first named."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"

    def __init__(self, key: str):
        message = (
            f"The Idempotency-Key {key!r} was used within the last day for another request (another body, "
            "address or If-Match): send a new key for a new request."
        )
        super().__init__(message, code=self.default_code)
        self.problems = [{"at": "Idempotency-Key", "message": message}]


class IdempotencyKeyInUse(Conflict):
    """The first request with this Idempotency-Key is still being answered."""

    def __init__(self, key: str):
        message = f"A request with the Idempotency-Key {key!r} is still being answered: try again in a moment."
        super().__init__(
            message, code="idempotency_key_in_use", problems=[{"at": "Idempotency-Key", "message": message}]
        )


# Every code the API sends in "error", for the schema's enum (tests/api/test_errors.py checks
# the list against DRF's exceptions and ours).
ERROR_CODES = [
    "invalid",
    "malformed",
    "bad_request",
    "not_authenticated",
    "authentication_failed",
    "permission_denied",
    "insufficient_scope",
    "not_found",
    "method_not_allowed",
    "not_acceptable",
    "withdrawn",
    "conflict",
    "stale_version",
    "idempotency_key_reused",
    "idempotency_key_in_use",
    "precondition_failed",
    "too_large",
    "unsupported_media_type",
    "throttled",
]


class ProblemSerializer(serializers.Serializer):
    at = serializers.CharField(
        help_text="Where the problem is: a query parameter, a field, or a desk/1 path such as key_facts[2].text "
        "($ for the whole body)."
    )
    message = serializers.CharField()


# Named ApiError in the schema: a model called Error with a field called error trips
# openapi-python-client's generated code (its from_dict names both "error").
@extend_schema_serializer(component_name="ApiError")
class ErrorSerializer(serializers.Serializer):
    """The body of every error response."""

    error = serializers.ChoiceField(
        choices=ERROR_CODES, help_text="A stable code: what a client decides by (new ones may come)."
    )
    message = serializers.CharField(help_text="What went wrong, for a person.")
    problems = ProblemSerializer(many=True, help_text="The input that was wrong; empty when none was.")


def problems_of(detail: Any, at: str = "") -> list[dict[str, str]]:
    """A ValidationError's nested detail, flattened to one problem per message."""
    if isinstance(detail, dict):
        # A list's items come keyed by their index (ListField): items[2], as desk/1 paths say it.
        return [
            problem
            for key, value in detail.items()
            for problem in problems_of(
                value, f"{at}[{key}]" if isinstance(key, int) else f"{at}.{key}" if at else str(key)
            )
        ]
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [{"at": at, "message": str(item)} for item in detail]
        return [problem for index, item in enumerate(detail) for problem in problems_of(item, f"{at}[{index}]")]
    return [{"at": at, "message": str(detail)}]


def error_body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        # A service's refusal brings its problems at desk/1 paths; a serializer's, its detail.
        problems = getattr(exc, "problems", None) or problems_of(exc.detail)
        count = len(problems)
        return {
            "error": "invalid",
            "message": f"The request has {count} problem{'' if count == 1 else 's'}: see problems.",
            "problems": problems,
        }
    code = exc.detail.code if isinstance(exc.detail, exceptions.ErrorDetail) else exc.default_code
    problems = getattr(exc, "problems", None) or []
    return {"error": code or exc.default_code, "message": str(exc.detail), "problems": problems}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (which sets Allow, Retry-After and WWW-Authenticate), with our body."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # not an API error: Django's 500 handling and logging
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif not isinstance(exc, exceptions.APIException):
        exc = exceptions.PermissionDenied()  # Django's PermissionDenied, as DRF maps it
    response.data = error_body(exc)
    if isinstance(exc, InsufficientScope):
        # As RFC 6750 (section 3.1) says a bearer token's missing scope.
        response["WWW-Authenticate"] = f'Bearer error="insufficient_scope", scope="{exc.scope}"'
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 (a Host not in ALLOWED_HOSTS, another suspicious request): under /api/ and
    /mcp/ in the API's error shape, elsewhere Django's own page."""
    if request.path_info.startswith(("/api/", "/mcp/")):
        body = {"error": "bad_request", "message": "The request cannot be served.", "problems": []}
        return JsonResponse(body, status=status.HTTP_400_BAD_REQUEST)
    return defaults.bad_request(request, exception)
