"""The database away: a 503 with Retry-After, never a 500.

When PostgreSQL restarts, fails over or refuses connections, every query raises Django's
``OperationalError`` or ``InterfaceError``. Public pages the page cache holds are still
answered from it (``newsroom.pagecache`` looks there before a view runs, and before
``LiveStoryMiddleware`` reads the stored artifact), so readers of warm pages notice nothing.
Any other request gets a 503 with ``Retry-After`` (``DATABASE_RETRY_AFTER_SECONDS``): the
API in its error shape, everything else a small page rendered without the database. Once
the database answers again, Django's next connection attempt recovers without a restart.

``DatabaseUnavailableMiddleware`` sits above everything that may query: the live story's
middleware, sessions, authentication, messages, the views (the page cache's middleware, which
never queries, sits higher still). A view's error
reaches its ``process_exception``; an error raised in a middleware below it (a session saved,
a live story read) is turned into a 500 by Django before this middleware sees it, so the
``got_request_exception`` signal, sent while that error is being handled, marks the request
and the 500 is replaced.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string

from newsroom.pagecache import CONTENT_SECURITY_POLICY

logger = logging.getLogger(__name__)

# Every error of a connection that is away or broken, and of a query the server refused to run
# now (a lock timeout, a cancelled statement, SQLite's "database is locked"): all pass.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)


def is_unavailable(error: BaseException | None) -> bool:
    return isinstance(error, DATABASE_UNAVAILABLE)


def _reason(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0]}" if text else type(error).__name__


def unavailable_response(request: HttpRequest, error: BaseException) -> HttpResponse:
    """The 503: JSON in the API's error shape under /api/, else the static page."""
    retry_after = settings.DATABASE_RETRY_AFTER_SECONDS
    # One line, no traceback: an outage would otherwise write one per request. Django's own
    # lines for this request (the 500 it made of the error, the 503) are left out by the
    # logging filter newsroom.ops.logs.SkipDatabaseUnavailable, which reads this mark.
    logger.warning("database unavailable, answered 503: %s", _reason(error))
    request.answered_unavailable = True
    if request.path_info.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {
                "error": "unavailable",
                "message": f"The service cannot reach its database; try again in {retry_after} s.",
                "problems": [],
            },
            status=503,
        )
    else:
        # Rendered without a request, so no context processor runs: nothing here asks the database.
        body = render_to_string("ops/unavailable.html", {"retry_after": retry_after, "site_name": settings.SITE_NAME})
        response = HttpResponse(body, status=503, content_type="text/html; charset=utf-8")
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response


def note_database_error(sender: Any = None, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """got_request_exception receiver: Django sends it while handling the error, so the error
    is the one being handled (the signal does not carry it)."""
    error = sys.exc_info()[1]
    if request is not None and is_unavailable(error):
        request.database_unavailable = error


got_request_exception.connect(note_database_error, dispatch_uid="ops.unavailable.note")


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        error = request.__dict__.pop("database_unavailable", None)
        if error is not None:
            return unavailable_response(request, error)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            return unavailable_response(request, exception)
        return None
