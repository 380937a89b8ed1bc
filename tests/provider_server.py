"""A real manifest provider on 127.0.0.1 for tests: no mock of the HTTP client anywhere.

It speaks the Synorb REST shape (``GET {url}/manifests/by-id/{id}`` with ``Authorization:
Bearer {key}``), serves the manifests you add, and on request shows the failures a real
service shows: any status, Retry-After and other headers, slow replies, replies that trickle
in, raw (non-JSON) bodies, truncated bodies (a Content-Length larger than the body, then the
connection closes) and bodies with no Content-Length at all. ::

    def test_something(provider):                    # the fixture points the settings at it
        provider.add_manifest(manifest_payload("m1", claims=["c1", "c2"]))
        provider.script("m2", [503, Reply(status=429, headers={"Retry-After": "1"}), Reply()])
        provider.always(503)                         # the whole provider is down
        ...
        assert provider.requests[0].path == "/v1/manifests/by-id/m1"
        assert provider.requests[0].headers["Authorization"] == f"Bearer {provider.key}"

Scripted replies are used once each, in order, before the usual answer. The usual answer is
401 for a wrong key, 404 for an unknown id or path, else 200 with the manifest. A ``Reply``
without a status or body takes them from the usual answer, so ``Reply(delay=3)`` is the
usual answer, three seconds late.

The ``provider`` fixture also makes the client's timeouts and backoff small; a test can set
them again through pytest-django's ``settings`` fixture. For a worker in another process,
pass ``provider.url`` and ``provider.key`` as MANIFEST_PROVIDER_URL and MANIFEST_PROVIDER_KEY.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

import pytest

API_PREFIX = "/v1"
BY_ID = f"{API_PREFIX}/manifests/by-id/"


@dataclass(frozen=True)
class Reply:
    """One scripted reply. Unset ``status`` and ``body`` come from the usual answer.

    ``body``: bytes or str are sent as they are; anything else is sent as JSON.
    ``delay``: seconds before the status line; ``body_delay``: seconds between headers and body;
    ``drip``: seconds between each of ten pieces of the body.
    ``content_length``: the length to announce instead of the real one (larger: a truncated
    reply); ``send_length=False`` sends no Content-Length, the body ending when the connection closes.
    """

    status: int | None = None
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body_delay: float = 0.0
    drip: float = 0.0
    content_length: int | None = None
    send_length: bool = True

    @classmethod
    def truncated(cls, body: Any, *, missing: int = 100) -> Reply:
        """A 200 whose Content-Length promises ``missing`` bytes more than it sends."""
        size = len(_encode(body))
        return cls(status=200, body=body, content_length=size + missing)


@dataclass(frozen=True)
class Received:
    """One request as the server saw it; ``at`` is ``time.monotonic()`` on arrival."""

    method: str
    path: str
    manifest_id: str | None
    headers: Message
    at: float


def manifest_payload(
    manifest_id: str,
    *,
    claims: Iterable[str | Mapping[str, Any]] | None = None,
    title: str | None = None,
    source_name: str = "example-publisher",
    source_url: str = "https://example.org/source",
    published_date: dt.date | str | None = None,
) -> dict[str, Any]:
    """A valid manifest in the provider's shape. A claim given as a string is its id."""
    claims = [f"{manifest_id}-1", f"{manifest_id}-2"] if claims is None else claims
    published = published_date or dt.date.today()
    return {
        "manifest_id": manifest_id,
        "title": title or f"Manifest {manifest_id}",
        "source": {
            "name": source_name,
            "url": source_url,
            "published_date": published if isinstance(published, str) else published.isoformat(),
        },
        "brief": {"headline": f"Headline of {manifest_id}", "summary": f"Summary of {manifest_id}."},
        "signal": {
            "claims": [
                {"claim_id": claim, "text": f"Claim {claim} says something.", "type": "fact", "confidence": 0.9}
                if isinstance(claim, str)
                else dict(claim)
                for claim in claims
            ]
        },
    }


def _encode(body: Any) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return json.dumps(body).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def do_GET(self) -> None:
        self.server.provider._handle(self)

    def log_message(self, format: str, *args: Any) -> None:
        # The request log is ``provider.requests``; keep test output clean.
        pass


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    provider: ProviderServer


class ProviderServer:
    """The test provider. ``start()``/``stop()``, or use it as a context manager."""

    def __init__(self, *, key: str = "test-provider-key") -> None:
        self.key = key
        self.manifests: dict[str, dict[str, Any]] = {}
        self.requests: list[Received] = []
        self._scripts: dict[str, deque[Reply]] = {}
        self._always: Reply | None = None
        self._lock = threading.Lock()
        # Set on stop, so a reply sleeping through a long delay ends with the test.
        self._stopping = threading.Event()
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.provider = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}{API_PREFIX}"

    def start(self) -> ProviderServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ProviderServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def add_manifest(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Serve this manifest (provider shape) under its ``manifest_id``; returns it."""
        payload = dict(payload)
        with self._lock:
            self.manifests[payload["manifest_id"]] = payload
        return payload

    def script(self, manifest_id: str, replies: Iterable[Reply | int]) -> None:
        """Queue replies for this id, used once each in order; an int is a bare status."""
        queued = [Reply(status=reply) if isinstance(reply, int) else reply for reply in replies]
        with self._lock:
            self._scripts.setdefault(manifest_id, deque()).extend(queued)

    def always(self, reply: Reply | int | None) -> None:
        """Answer every request without a script this way (e.g. 503: the provider is down); None ends it."""
        self._always = Reply(status=reply) if isinstance(reply, int) else reply

    def requests_for(self, manifest_id: str) -> list[Received]:
        return [request for request in self.requests if request.manifest_id == manifest_id]

    # --- the server side ----------------------------------------------------------------------

    def _handle(self, handler: _Handler) -> None:
        path = handler.path.split("?", 1)[0]
        tail = path[len(BY_ID) :] if path.startswith(BY_ID) else None
        manifest_id = unquote(tail) if tail and "/" not in tail else None
        with self._lock:
            received = Received(handler.command, handler.path, manifest_id, handler.headers, time.monotonic())
            self.requests.append(received)
            queue = self._scripts.get(manifest_id) if manifest_id is not None else None
            reply = (queue.popleft() if queue else None) or self._always or Reply()
            usual_status, usual_body = self._usual(handler, manifest_id)
        status = reply.status or usual_status
        body = reply.body
        if body is None:
            body = usual_body if status == usual_status else {"error": _phrase(status)}
        data = _encode(body)
        # One request a connection, as the client makes them; also ends the handler on stop.
        handler.close_connection = True
        try:
            if self._stopping.wait(reply.delay):
                return
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            if status == 401:
                handler.send_header("WWW-Authenticate", 'Bearer realm="manifests"')
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            if reply.send_length:
                length = len(data) if reply.content_length is None else reply.content_length
                handler.send_header("Content-Length", str(length))
            handler.send_header("Connection", "close")
            handler.end_headers()
            if self._stopping.wait(reply.body_delay):
                return
            if reply.drip:
                piece = max(1, -(-len(data) // 10))
                for start in range(0, len(data), piece):
                    handler.wfile.write(data[start : start + piece])
                    handler.wfile.flush()
                    if self._stopping.wait(reply.drip):
                        return
            else:
                handler.wfile.write(data)
        except ConnectionError:
            # The client hung up (a reply over its size limit, or its timeout): what clients do.
            pass

    def _usual(self, handler: _Handler, manifest_id: str | None) -> tuple[int, Any]:
        if manifest_id is None:
            return 404, {"error": "not found"}
        if handler.headers.get("Authorization") != f"Bearer {self.key}":
            return 401, {"error": "invalid or missing API key"}
        if manifest_id not in self.manifests:
            return 404, {"error": f"no manifest with id {manifest_id!r}"}
        return 200, self.manifests[manifest_id]


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "error"


@pytest.fixture
def provider(settings) -> Iterator[ProviderServer]:
    """A running test provider, with the settings pointing at it and small timeouts."""
    with ProviderServer() as server:
        settings.MANIFEST_PROVIDER_URL = server.url
        settings.MANIFEST_PROVIDER_KEY = server.key
        settings.MANIFEST_PROVIDER_CONNECT_TIMEOUT = 2
        settings.MANIFEST_PROVIDER_READ_TIMEOUT = 2
        settings.MANIFEST_PROVIDER_MAX_RETRIES = 2
        settings.MANIFEST_PROVIDER_BACKOFF_BASE = 0.01
        settings.MANIFEST_PROVIDER_MAX_WAIT = 2
        yield server
