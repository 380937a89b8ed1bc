"""The one way the API reads a request body: strict JSON within a size limit.

Refused, each with the JSON path where it is (``$`` for the whole body): more than
``API_MAX_BODY_BYTES`` (413), bytes that are not UTF-8, half a UTF-16 surrogate pair, a key
twice in one object, NaN or Infinity, a control character or a bidirectional override in a
string (``newsroom.cleantext``), and anything not JSON
(400). The same rules as every other reader of desk/1 JSON (``newsroom.jsonfiles``).
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser
from rest_framework.request import Request

from newsroom.cleantext import json_text_problems
from newsroom.jsonfiles import MOST_PROBLEMS, JsonInputError, Problem, parse_json


class MalformedBody(exceptions.ParseError):
    """A body that is not strict JSON; ``problems`` say where (the first, and any ``more``)."""

    default_code = "malformed"

    def __init__(self, at: str, message: str, *, more: Sequence[Problem] = ()):
        where = "" if at == "$" else f"$.{at} "  # the JSON path, so the sentence names the field
        others = f" ({len(more)} more: see problems)" if more else ""
        super().__init__(f"The request body is not acceptable JSON: {where}{message}{others}")
        self.problems = [{"at": problem.at, "message": problem.message} for problem in (Problem(at, message), *more)]


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self, limit: int):
        super().__init__(f"The request body is over {limit:,} bytes, the limit.")


class _Pairs(list):
    """An object's key-value pairs as written, duplicates kept (for finding one)."""


def _duplicate_key(value: Any, path: str = "$") -> tuple[str, str] | None:
    if isinstance(value, _Pairs):
        seen: set[str] = set()
        for key, _ in value:
            if key in seen:
                return _join(path, key), f"the key {key!r} appears twice in one object; a key may appear once"
            seen.add(key)
        for key, item in value:
            found = _duplicate_key(item, _join(path, key))
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _duplicate_key(item, f"{'' if path == '$' else path}[{index}]")
            if found:
                return found
    return None


def _join(path: str, key: str) -> str:
    return key if path == "$" else f"{path}.{key}"


def read_body(stream: Any, content_length: int | None) -> bytes:
    """At most the limit of the body, or BodyTooLarge (before reading, when the length says so)."""
    limit = settings.API_MAX_BODY_BYTES
    if content_length is not None and content_length > limit:
        raise BodyTooLarge(limit)
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        raise BodyTooLarge(limit)
    return data


def parse_strict(data: bytes) -> Any:
    """One strict JSON value, or MalformedBody naming where it is not."""
    if not data.strip():
        raise MalformedBody("$", "the body is empty; send a JSON value")
    try:
        value = parse_json(data, limit=len(data))
    except JsonInputError as error:
        message = str(error)
        if error.at != "$":
            message = message.removeprefix(f"{error.at}: ")
        elif "appears twice" in message:
            # The hook that refuses duplicates cannot know where it is: look again, keeping pairs.
            found = _duplicate_key(json.loads(data, object_pairs_hook=_Pairs))
            if found:
                raise MalformedBody(*found) from None
        raise MalformedBody(error.at, message) from None
    # Any field of any body may be multi-line here; a desk/1 document's own rule (which fields
    # are) is applied when it is validated. Every such field is named at once, so a writer
    # fixes them in one round.
    found = list(itertools.islice(json_text_problems(value, multiline=lambda at: True), MOST_PROBLEMS))
    if found:
        first, *more = found
        raise MalformedBody(first.at, first.message, more=more)
    return value


class StrictJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        request = (parser_context or {}).get("request")
        length = None
        if request is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = None
        return parse_strict(read_body(stream, length))


def request_body(request: Request) -> Any:
    """The parsed body of a request that must have one. DRF reads a body it finds empty (or
    one without a content type) as ``{}``, which would pass for an empty document."""
    if request.stream is None:
        raise MalformedBody("$", "the body is empty; send a JSON value")
    if not request.content_type:
        raise exceptions.UnsupportedMediaType("", detail="Send the body as Content-Type: application/json.")
    return request.data


class ChunkedBodies:
    """Middleware: a request body sent with ``Transfer-Encoding: chunked`` read like any other.

    The server (gunicorn) decodes the chunks but, having no length to give, sends no
    ``CONTENT_LENGTH``, and Django then reads the body as empty. Under /api/ and /mcp/ such a body
    is read here, within ``API_MAX_BODY_BYTES`` (413 beyond, in the API's error shape), and handed
    on with its length, as if it had been sent with one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not request.META.get("CONTENT_LENGTH") and request.path_info.startswith(("/api/", "/mcp/")):
            try:
                data = read_body(request.META.get("wsgi.input"), None)
            except BodyTooLarge as error:
                # Here, not at the top: errors imports DRF's views, which load this parser.
                from .errors import error_body

                return JsonResponse(error_body(error), status=error.status_code)
            request.META["CONTENT_LENGTH"] = str(len(data))
            request._stream = io.BytesIO(data)  # type: ignore[attr-defined]  # what request.read() reads
        return self.get_response(request)
