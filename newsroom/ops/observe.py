"""Every request's id, its JSON log line and its metrics, in one middleware at the top.

It does what django-prometheus's two middleware, django-structlog's ``RequestMiddleware`` and the
route naming did, for the same outputs, at a fraction of their cost (``bench/floor.py``):

- The id (``newsroom.ops.logs.request_id_for``) is kept on the request, bound to every log line
  written while it is served (and to the tasks it queues, by django-structlog's Celery
  receivers), and sent back in ``X-Request-ID``, on every response, errors included.
- One ``request_finished`` line (logger ``django_structlog.middlewares.request``, the fields
  ``code``, ``request``, the bound ``request_id``, ``ip`` and ``user_id``, ``level``,
  ``timestamp``), or ``request_failed`` with the exception for a 500. The line is written
  here as JSON from its parts, in one write to each handler that writes JSON
  (``newsroom.ops.logs.write_complete``), and its event dict made only for a handler that wants
  more: structlog's bound logger and its chain of processors, and logging's record, which cost
  more than the rest of a cached page, are left out.
- django-prometheus's request families, with their names and labels, so dashboards read them
  as before: counted in this process's memory, one lock a request, and put together when
  scraped (``newsroom.ops.requestmetrics``); the view of a request answered before URL
  resolution (the page cache, a live story) is resolved once per path.

Below it come SecurityMiddleware and the page cache: a stored page is answered after three
cheap steps, this one included.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from functools import lru_cache
from json.encoder import encode_basestring_ascii
from time import perf_counter
from typing import Any

import structlog
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.signals import got_request_exception
from django.http import Http404, HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.urls import Resolver404, get_resolver
from django_structlog.middlewares.request import sync_streaming_content_wrapper

from .lockout import client_ip
from .logs import (
    REQUEST_ID_HEADER,
    bind_request,
    bind_user,
    bound_context,
    clear_bound_context,
    request_id_for,
    utc_timestamp,
    write_complete,
)
from .requestmetrics import TALLY

# The logger django-structlog wrote these lines with: log queries and alerts filter on it.
REQUEST_LOGGER = logging.getLogger("django_structlog.middlewares.request")
_structlog_logger = structlog.get_logger(REQUEST_LOGGER.name)
_LEVELS = {2: logging.INFO, 4: logging.WARNING, 5: logging.ERROR}
_METHOD_NAMES = {logging.DEBUG: "debug", logging.INFO: "info", logging.WARNING: "warning", logging.ERROR: "error"}
_KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "OPTIONS", "CONNECT", "PATCH"})
UNNAMED_VIEW = "<unnamed view>"  # django-prometheus's name for a request no route matched
# Paths answered before URL resolution, with their view's name: bounded, as paths come from
# requests; forgetting them costs one resolve each.
_PATH_VIEWS_LIMIT = 10_000


def _method(request: HttpRequest) -> str:
    return request.method if request.method in _KNOWN_METHODS else "<invalid method>"


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestObservabilityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response
        self._path_views: dict[tuple[Any, str], str] = {}

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = perf_counter()
        request.request_id = request_id_for(request)
        bind_request(request.request_id, client_ip(request))
        try:
            if REQUEST_LOGGER.isEnabledFor(logging.DEBUG):
                started_line = {"request": _request_line(request), "user_agent": request.META.get("HTTP_USER_AGENT")}
                _log(logging.DEBUG, "request_started", started_line)
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request.request_id
            self._count(request, response, perf_counter() - started)
            self._log_response(request, response)
        finally:
            clear_bound_context()
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        TALLY.count_rare("exceptions_by_type", type(exception).__name__)
        match = getattr(request, "resolver_match", None)
        if match is not None:
            TALLY.count_rare("exceptions_by_view", match.view_name or UNNAMED_VIEW)

    def process_template_response(self, request: HttpRequest, response: Any) -> Any:
        if hasattr(response, "template_name"):
            TALLY.count_rare("responses_by_templatename", str(response.template_name))
        return response

    # --- Metrics -------------------------------------------------------------------------------

    def _view_name(self, request: HttpRequest) -> tuple[str, bool]:
        """The view's name, and whether the request reached it through URL resolution."""
        match = getattr(request, "resolver_match", None)
        if match is not None:
            return match.view_name or UNNAMED_VIEW, True
        urlconf = getattr(request, "urlconf", None)
        key = (urlconf, request.path_info)
        name = self._path_views.get(key)
        if name is None:
            try:
                name = get_resolver(urlconf).resolve(request.path_info).view_name or UNNAMED_VIEW
            except Resolver404:
                name = UNNAMED_VIEW
            if len(self._path_views) >= _PATH_VIEWS_LIMIT:
                self._path_views.clear()
            self._path_views[key] = name
        return name, False

    def _count(self, request: HttpRequest, response: HttpResponseBase, elapsed: float) -> None:
        view, resolved = self._view_name(request)
        streaming = response.streaming
        key = (
            view,
            _method(request),
            "https" if request.is_secure() else "http",
            str(response.status_code),
            charset_of(response),
            resolved,
            request.META.get("HTTP_X_REQUESTED_WITH") == "XMLHttpRequest",
            streaming,
        )
        response_bytes = None if streaming or not hasattr(response, "content") else len(response.content)
        TALLY.count(key, elapsed, _content_length(request), response_bytes)

    # --- The log line --------------------------------------------------------------------------

    def _log_response(self, request: HttpRequest, response: HttpResponseBase) -> None:
        exception = request.__dict__.pop("_raised_exception", None)
        bind_user(request)
        # A 503 for the database away is logged in one line by newsroom.ops.unavailable, no
        # traceback: one per request would only add to an outage.
        if exception is not None and not getattr(request, "answered_unavailable", False):
            # A 500: django-structlog's line, with the traceback, through structlog's whole chain.
            _structlog_logger.error("request_failed", code=500, request=_request_line(request), exc_info=exception)
            return
        level = _LEVELS.get(response.status_code // 100, logging.INFO)
        if REQUEST_LOGGER.isEnabledFor(level):
            _log(level, "request_finished", {"code": response.status_code, "request": _request_line(request)})
        if isinstance(response, StreamingHttpResponse) and not response.is_async:
            context = bound_context()
            response.streaming_content = sync_streaming_content_wrapper(response.streaming_content, context)


# HttpResponseBase.charset's pattern. Django compiles its own lazily, and each use of that lazy
# object costs more than the search.
_CHARSET = re.compile(r";\s*charset=(?P<charset>[^\s;]+)", re.IGNORECASE)


def charset_of(response: HttpResponseBase) -> str:
    """``response.charset``, with the Content-Type's reading remembered per value: that property
    cost more than the rest of the request's metrics."""
    if response._charset is not None:  # set when the response was made with charset=
        return str(response._charset)
    declared = _declared_charset(response.headers.get("Content-Type") or "")
    return settings.DEFAULT_CHARSET if declared is None else declared


@lru_cache(maxsize=256)
def _declared_charset(content_type: str) -> str | None:
    matched = _CHARSET.search(content_type)
    return matched["charset"].replace('"', "") if matched else None


def _request_line(request: HttpRequest) -> str:
    return f"{request.method} {request.get_full_path()}"


def _log(level: int, event: str, fields: dict[str, Any]) -> None:
    """One line as structlog would write it: the fields, the event, then what the processors add
    (the bound context, the logger's name, the level, the time), written as one line. The event
    dict itself is made only for a handler that needs more than the JSON line."""
    method_name = _METHOD_NAMES[level]
    context = bound_context()
    timestamp = utc_timestamp()

    def event_dict() -> dict[str, Any]:
        made = {**fields, "event": event}
        for name, value in context.items():
            made.setdefault(name, value)
        made["logger"] = REQUEST_LOGGER.name
        made["level"] = method_name
        made["timestamp"] = timestamp
        return made

    line = _json_line(event, fields, context, method_name, timestamp)
    write_complete(REQUEST_LOGGER, level, method_name, event_dict, json_line=line)


# Keys the request's line sets itself: bound under one of these, a value moves or is dropped.
_OWN_KEYS = frozenset({"code", "request", "user_agent", "event", "logger", "level", "timestamp"})


def _json_line(
    event: str, fields: dict[str, Any], context: dict[str, Any], method_name: str, timestamp: str
) -> str | None:
    """The request's line as ``newsroom.ops.logs.JsonRenderer`` writes ``_log``'s event dict,
    from its parts: the keys the line always has are written as they are, only the values are
    escaped. None (the renderer's turn) for a bound key or value the renderer would write
    otherwise."""
    line = "{"
    for key, value in fields.items():  # keys of this module's
        kind = type(value)
        if kind is str:
            line += f'"{key}": {encode_basestring_ascii(value)}, '
        elif kind is int:
            line += f'"{key}": {value}, '  # an int's text is its JSON
        else:
            return None
    line += f'"event": {encode_basestring_ascii(event)}, '
    for key, value in context.items():
        kind = type(value)
        if key in _OWN_KEYS or type(key) is not str:
            return None
        if kind is str:
            line += f"{encode_basestring_ascii(key)}: {encode_basestring_ascii(value)}, "
        elif kind is int:
            line += f"{encode_basestring_ascii(key)}: {value}, "
        else:
            return None
    return line + f'"logger": "{REQUEST_LOGGER.name}", "level": "{method_name}", "timestamp": "{timestamp}"}}'


def _note_exception(sender: Any = None, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """got_request_exception: a request whose error became a 500 logs ``request_failed`` with it
    (django-structlog's rule: a 404 or a 403 raised is logged as any other response)."""
    error = sys.exc_info()[1]
    if request is None or not hasattr(request, "request_id") or isinstance(error, Http404 | PermissionDenied):
        return
    request.__dict__.setdefault("_raised_exception", error)


got_request_exception.connect(_note_exception, dispatch_uid="ops.observe.exception")
