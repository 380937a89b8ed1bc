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

import contextvars
import logging
import os
import re
import time
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any

import structlog
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest
from structlog.contextvars import _CONTEXT_VARS as _STRUCTLOG_VARIABLES
from structlog.contextvars import STRUCTLOG_KEY_PREFIX

REQUEST_ID_HEADER = "X-Request-ID"
# Ids as proxies and clients make them (UUIDs, hex digests, ``host-1234-abcd``): anything else
# (too long, spaces, quotes, newlines that would forge a log line) is replaced by a fresh id.
WELL_FORMED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")

LOG_FORMATS = ("json", "console")
# The attribute of a log record whose ``msg`` is a complete event dict (StructuredFormatter).
COMPLETE_EVENT = "complete_event"
_PREFIX_LENGTH = len(STRUCTLOG_KEY_PREFIX)


def bound_context() -> dict[str, Any]:
    """What is bound with ``structlog.contextvars.bind_contextvars`` here, as
    ``structlog.contextvars.get_contextvars`` finds it.

    That function, ``merge_contextvars`` and ``clear_contextvars`` walk every variable of the
    context to find structlog's, and Django and asgiref keep dozens there: twice a request,
    that walk cost more than the rest of the request's line. structlog keeps its own variables
    in one table, read here instead (tests/ops/test_logs.py holds the two to the same answer).
    """
    context = {}
    for name, variable in _STRUCTLOG_VARIABLES.items():
        value = variable.get()
        if value is not Ellipsis:  # structlog's mark for a key cleared or never bound
            context[name[_PREFIX_LENGTH:]] = value
    return context


def _structlog_variable(key: str) -> contextvars.ContextVar[Any]:
    # The variable structlog binds ``key`` to, made as bind_contextvars makes it if need be.
    name = STRUCTLOG_KEY_PREFIX + key
    return _STRUCTLOG_VARIABLES.setdefault(name, contextvars.ContextVar(name, default=Ellipsis))


_REQUEST_ID = _structlog_variable("request_id")
_IP = _structlog_variable("ip")


def bind_request(request_id: str, ip: str | None) -> None:
    """``structlog.contextvars.bind_contextvars(request_id=request_id, ip=ip)`` by the two
    variables themselves, found once: that function's work around its sets (a variable's name
    made and looked up, a token kept, per key) cost more than the sets."""
    _REQUEST_ID.set(request_id)
    _IP.set(ip)


def clear_bound_context() -> None:
    """``structlog.contextvars.clear_contextvars``, by structlog's table (see ``bound_context``)."""
    for variable in _STRUCTLOG_VARIABLES.values():
        variable.set(Ellipsis)


def merge_bound_context(logger: Any, method_name: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    """The processor ``structlog.contextvars.merge_contextvars``, by structlog's table."""
    for name, value in bound_context().items():
        event_dict.setdefault(name, value)
    return event_dict


def processors() -> list[Any]:
    """What every line goes through, whether written with structlog or with ``logging``."""
    return [
        merge_bound_context,  # request_id, task_id, ip, user_id
        structlog.stdlib.add_logger_name,
        structlog.stdlib.add_log_level,
        add_timestamp,
    ]


def utc_timestamp() -> str:
    """Now, as structlog's ``TimeStamper(fmt="iso", utc=True)`` writes it
    (``2026-12-04T18:41:29.821533Z``), the date and time of day written once a second."""
    global _stamped_second
    seconds, nanoseconds = divmod(time.time_ns(), 1_000_000_000)
    second, prefix = _stamped_second
    if second != seconds:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        _stamped_second = (seconds, prefix)
    return f"{prefix}.{nanoseconds // 1000:06d}Z"


_stamped_second = (-1, "")


def add_timestamp(logger: Any, method_name: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    event_dict["timestamp"] = utc_timestamp()
    return event_dict


class JsonRenderer(structlog.processors.JSONRenderer):
    """structlog's JSON lines, the same text, written here when every key is text and every value
    text or an integer (a request's line always), else by structlog's renderer."""

    def __call__(self, logger: Any, name: str, event_dict: dict[str, Any]) -> str:
        fields = []
        for key, value in event_dict.items():
            kind = type(value)
            if type(key) is not str or (kind is not str and kind is not int):
                return super().__call__(logger, name, event_dict)
            text = encode_basestring_ascii(value) if kind is str else int.__repr__(value)
            fields.append(f"{encode_basestring_ascii(key)}: {text}")
        return "{" + ", ".join(fields) + "}"


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The LOGGING setting: one handler on standard error, JSON or human-readable."""
    if log_format == "json":
        render = [structlog.processors.format_exc_info, JsonRenderer()]
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Read once: dictConfig hands the processors over in a list that converts an item (seven
        # isinstance checks) on every read.
        self._renderer = self.processors[-1]
        self.renders_json = isinstance(self._renderer, JsonRenderer)

    def format(self, record: logging.LogRecord) -> str:
        if not getattr(record, COMPLETE_EVENT, False):
            return super().format(record)
        return self.render(record._name, record.msg)  # type: ignore[attr-defined, arg-type]  # as wrap_for_formatter sets them

    def render(self, method_name: str, event_dict: dict[str, Any]) -> str:
        """A complete event dict as a line: the renderer's work alone."""
        # A copy: the console renderer takes keys out of what it is given.
        return self._renderer(self.logger, method_name, dict(event_dict))  # type: ignore[return-value]


def write_complete(
    logger: logging.Logger,
    level: int,
    method_name: str,
    event_dict: Callable[[], dict[str, Any]],
    *,
    json_line: str | None = None,
) -> None:
    """Hand a complete event dict (what structlog's processors would make of it, the renderer's
    work left; ``event_dict`` makes it, when a handler needs it) to the handlers
    ``logger.handle`` would call, as one line.

    A handler that only writes to a stream through ``StructuredFormatter`` (settings.LOGGING's,
    the tests') gets the rendered line in one write, as ``StreamHandler.emit`` writes it, with
    no log record made, filtered and formatted on the way: for the request's own line, that
    was most of its cost. Any other handler, and a logger with filters, gets a record, and its
    formatter takes the ``COMPLETE_EVENT`` shortcut. ``json_line``: what ``JsonRenderer`` would
    make of the event dict, when the caller has it already: then a JSON handler needs no dict."""
    made: dict[str, Any] | None = None
    record = None
    rendered: dict[int, str] = {}
    handled = False
    if logger.disabled:  # as Logger.handle: a logger dictConfig turned off writes nothing
        return
    current: logging.Logger | None = logger if not logger.filters else None
    while current is not None:
        for handler in current.handlers:
            handled = True
            if level < handler.level:
                continue
            formatter = handler.formatter
            if (
                type(handler) is logging.StreamHandler
                and not handler.filters
                and isinstance(formatter, StructuredFormatter)
            ):
                line = json_line if json_line is not None and formatter.renders_json else rendered.get(id(formatter))
                if line is None:
                    made = made or event_dict()
                    line = rendered[id(formatter)] = formatter.render(method_name, made)
                handler.acquire()
                try:
                    stream = handler.stream
                    stream.write(line + handler.terminator)
                    stream.flush()  # StreamHandler.flush's, under the lock held here already
                except Exception:  # as StreamHandler.emit: a broken stream is reported, not raised
                    made = made or event_dict()
                    record = record or _complete_record(logger, level, method_name, made)
                    handler.handleError(record)
                finally:
                    handler.release()
            else:
                made = made or event_dict()
                record = record or _complete_record(logger, level, method_name, made)
                handler.handle(record)
        current = current.parent if current.propagate else None
    if not handled:  # filters to apply, or no handler at all (logging's last resort)
        logger.handle(_complete_record(logger, level, method_name, made or event_dict()))


def _complete_record(
    logger: logging.Logger, level: int, method_name: str, event_dict: dict[str, Any]
) -> logging.LogRecord:
    extra = {"_logger": logger, "_name": method_name, COMPLETE_EVENT: True}
    return logger.makeRecord(logger.name, level, __file__, 0, event_dict, (), None, extra=extra)


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
    return given if WELL_FORMED_ID.match(given) else new_request_id()


def new_request_id() -> str:
    """A random (version 4) UUID, as ``str(uuid.uuid4())`` writes it, from the same 16 random
    bytes without the UUID object made and read back (a third of the time)."""
    digits = os.urandom(16).hex()
    variant = "89ab"[int(digits[16], 16) & 3]  # the RFC 4122 variant: the top two bits are 10
    return f"{digits[:8]}-{digits[8:12]}-4{digits[13:16]}-{variant}{digits[17:20]}-{digits[20:]}"


def bind_user(request: HttpRequest, **kwargs: Any) -> None:
    # Only a user this request has already looked up: asking now could hit the database (the
    # session) while it is away, or load a session the page never needed.
    user = request.__dict__.get("user")
    wrapped = getattr(user, "_wrapped", None)
    if wrapped is not None and getattr(wrapped, "pk", None) is not None:
        structlog.contextvars.bind_contextvars(user_id=wrapped.pk)
