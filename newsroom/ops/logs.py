"""Structured logs: one JSON object a line in production, each carrying the request's id.

``newsroom.ops.observe.RequestObservabilityMiddleware`` binds a ``request_id`` to every log line
written while a request is served (Django's own, this project's ``logging.getLogger`` ones,
structlog's) and writes the request's own line; django-structlog's Celery receivers carry that
id in the headers of every task the request queues, so the worker's lines for that task carry
it too (``newsroom/celery.py`` installs its worker step). Eager tasks run inside the request and
inherit its context.

The id is the caller's ``X-Request-ID`` when it is well formed (a proxy or a client that
already logged it), else a fresh UUID; the response sends it back in ``X-Request-ID``.

What is logged of a request: method, path and query, status, the client address as
``TRUSTED_PROXY_COUNT`` finds it, and the user's id once the request has looked the user up.
Never a header's value, a body or a document's text.
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any

import structlog
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest

REQUEST_ID_HEADER = "X-Request-ID"
# Ids as proxies and clients make them (UUIDs, hex digests, ``host-1234-abcd``): anything else
# (too long, spaces, quotes, newlines that would forge a log line) is replaced by a fresh id.
WELL_FORMED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")

LOG_FORMATS = ("json", "console")
# The attribute of a log record whose ``msg`` is a complete event dict (StructuredFormatter).
COMPLETE_EVENT = "complete_event"


def processors() -> list[Any]:
    """What every line goes through, whether written with structlog or with ``logging``."""
    return [
        structlog.contextvars.merge_contextvars,  # request_id, task_id, ip, user_id
        structlog.stdlib.add_logger_name,
        structlog.stdlib.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The LOGGING setting: one handler on standard error, JSON or human-readable."""
    if log_format == "json":
        render = [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
    else:
        render = [structlog.dev.ConsoleRenderer(colors=False)]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": StructuredFormatter,
                "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta, *render],
                # Lines from plain ``logging`` (Django, Celery, this project) get the same fields.
                "foreign_pre_chain": processors(),
            }
        },
        "filters": {"database_unavailable": {"()": SkipDatabaseUnavailable}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # One line a request from django-structlog; Django's own for 4xx would repeat it.
            "django.request": {"level": "ERROR", "filters": ["database_unavailable"]},
            # gunicorn's access log repeats the request_finished line: the Procfile leaves it off
            # (gunicorn builds each line before this level drops it), this quiets it if turned on.
            "gunicorn.access": {"level": "WARNING"},
            # The MCP SDK logs its transport starting and stopping, which /mcp/ does on every request.
            "mcp.server.streamable_http": {"level": "WARNING"},
            "mcp.server.streamable_http_manager": {"level": "WARNING"},
        },
    }


class StructuredFormatter(structlog.stdlib.ProcessorFormatter):
    """structlog's formatter, with a shortcut for a record whose event dict is complete already
    (``COMPLETE_EVENT``: the request's line, ``newsroom.ops.observe``): handed to the renderer,
    the last of the processors, without the copy of the record, the bookkeeping keys the
    processors before it remove again, and the second pass through ``logging.Formatter`` that
    other lines take. None of those changes such a line: it carries no exception, and the
    format is the message alone."""

    def format(self, record: logging.LogRecord) -> str:
        if not getattr(record, COMPLETE_EVENT, False):
            return super().format(record)
        method_name = record._name  # type: ignore[attr-defined]  # set as wrap_for_formatter sets it
        # A copy: the console renderer takes keys out of what it is given.
        return self.processors[-1](self.logger, method_name, dict(record.msg))  # type: ignore[call-overload]


class SkipDatabaseUnavailable(logging.Filter):
    """For ``django.request``: a request the database failed is answered 503 and logged in one
    line (newsroom/ops/unavailable.py). Django's lines for it, the 500 it made of the error
    (with its traceback) before the response was replaced and the 503, would repeat that line,
    for every request as long as an outage lasts."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], OperationalError | InterfaceError):
            return False
        request = getattr(record, "request", None)
        return not getattr(request, "answered_unavailable", False)


def configure_structlog() -> None:
    """structlog's loggers hand their events to ``logging``, whose formatter renders them."""
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *processors(),
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.UnicodeDecoder(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def request_id_for(request: HttpRequest) -> str:
    """The caller's X-Request-ID when well formed, else a new UUID."""
    given = request.META.get("HTTP_X_REQUEST_ID", "")
    return given if WELL_FORMED_ID.match(given) else str(uuid.uuid4())


def bind_user(request: HttpRequest, **kwargs: Any) -> None:
    # Only a user this request has already looked up: asking now could hit the database (the
    # session) while it is away, or load a session the page never needed.
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", None)
    if wrapped is not None and getattr(wrapped, "pk", None) is not None:
        structlog.contextvars.bind_contextvars(user_id=wrapped.pk)
