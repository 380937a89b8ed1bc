"""The manifest provider client: ``GET {MANIFEST_PROVIDER_URL}/manifests/by-id/{id}``.

Standard library only (http.client), so the connect timeout, the read timeout and the reply
size limit are ours to enforce exactly. Every failure is a ``ProviderError`` whose message a
person can act on, and whose ``missing`` flag tells a caller what it means for a check:

- ``missing`` is True (``ManifestNotFound``): the provider decided the manifest does not
  exist, so a check on it fails;
- ``missing`` is False (every other error): the provider could not decide (not configured,
  key rejected, down, too slow, rate limited, a broken reply), so a check on it is unknown.

Transient failures (5xx, 429, timeouts, broken connections, cut-short replies) are retried with
exponential backoff and full jitter; a ``Retry-After`` is honoured up to
``MANIFEST_PROVIDER_MAX_WAIT`` and beyond it the fetch stops and reports the wait, so a Celery
task can retry later instead of holding a worker.
"""

from __future__ import annotations

import email.utils
import http.client
import logging
import random
import re
import ssl
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from django.conf import settings

from newsroom.jsonfiles import DocumentError, JsonInputError, parse_json

from .adapters import ManifestData, SynorbAdapter

logger = logging.getLogger(__name__)

USER_AGENT = "newsroom-cms manifest client"
_CHUNK = 64 * 1024
_SHOWN_PROBLEMS = 5


class ProviderError(Exception):
    """A manifest could not be had from the provider; ``message`` says why and what to do."""

    #: True only when the provider decided the manifest does not exist.
    missing = False

    def __init__(self, message: str, *, retry_after: float | None = None):
        super().__init__(message)
        self.message = message
        #: Seconds the provider asked us to wait, when it said so (429/503 Retry-After).
        self.retry_after = retry_after


class ManifestNotFound(ProviderError):
    """The provider has no manifest with this id (HTTP 404), or no manifest can have it."""

    missing = True


class ProviderNotConfigured(ProviderError):
    """MANIFEST_PROVIDER_URL or MANIFEST_PROVIDER_KEY is unset or unusable; nothing was called."""


class ProviderKeyRejected(ProviderError):
    """The provider refused our key (HTTP 401 or 403)."""


class ProviderUnavailable(ProviderError):
    """The provider was down, too slow or rate limiting us, after every retry."""


class ProviderBadReply(ProviderError):
    """The provider answered, but not with a manifest we can use."""


class ManifestAdapter(Protocol):
    @staticmethod
    def to_manifest(payload: Any) -> ManifestData: ...


class _Transient(Exception):
    """A failure worth another attempt."""

    def __init__(self, reason: str, *, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or an HTTP-date); None if unusable."""
    if value is None:
        return None
    value = value.strip()
    if re.fullmatch(r"[0-9]+", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(attempt: int, *, base: float, cap: float) -> float:
    """Seconds to wait after failed attempt ``attempt`` (1, 2, …): exponential, with full jitter.

    Full jitter (a uniform draw up to the exponential bound) spreads the retries of many
    workers that failed together, instead of sending them back in one wave.
    """
    return random.uniform(0, min(cap, base * 2 ** (attempt - 1)))


@dataclass(frozen=True)
class ProviderClient:
    """One provider's address, key and limits. Build it with ``from_settings()``."""

    base_url: str
    key: str = field(repr=False)
    connect_timeout: float = 5
    #: The most time the provider has for its whole reply (status line, headers and body),
    #: so a reply that trickles in a byte at a time cannot hold a worker forever.
    read_timeout: float = 20
    max_retries: int = 3
    max_reply_bytes: int = 2 * 1024 * 1024
    backoff_base: float = 0.5
    max_wait: float = 30
    adapter: type[ManifestAdapter] = SynorbAdapter

    def __post_init__(self) -> None:
        if not self.base_url:
            raise ProviderNotConfigured(
                "no manifest provider is configured: set MANIFEST_PROVIDER_URL (and MANIFEST_PROVIDER_KEY)"
            )
        parts = urlsplit(self.base_url)
        if parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
            raise ProviderNotConfigured(
                f"MANIFEST_PROVIDER_URL must be an http(s) URL with a host and no query, not {self.base_url!r}"
            )
        if parts.username or parts.password:
            # The key goes in a header; credentials in the URL would leak into logs.
            raise ProviderNotConfigured("MANIFEST_PROVIDER_URL must not hold credentials: use MANIFEST_PROVIDER_KEY")
        if not self.key:
            raise ProviderNotConfigured("MANIFEST_PROVIDER_KEY is not set: the provider needs a key")
        if not self.key.isprintable() or any(character.isspace() for character in self.key):
            raise ProviderNotConfigured("MANIFEST_PROVIDER_KEY must not contain spaces or control characters")

    @classmethod
    def from_settings(cls) -> ProviderClient:
        """The client the settings describe; ProviderNotConfigured when they describe none."""
        return cls(
            base_url=settings.MANIFEST_PROVIDER_URL.rstrip("/"),
            key=settings.MANIFEST_PROVIDER_KEY,
            connect_timeout=settings.MANIFEST_PROVIDER_CONNECT_TIMEOUT,
            read_timeout=settings.MANIFEST_PROVIDER_READ_TIMEOUT,
            max_retries=max(0, settings.MANIFEST_PROVIDER_MAX_RETRIES),
            max_reply_bytes=settings.MANIFEST_PROVIDER_MAX_REPLY_BYTES,
            backoff_base=settings.MANIFEST_PROVIDER_BACKOFF_BASE,
            max_wait=settings.MANIFEST_PROVIDER_MAX_WAIT,
        )

    def url_for(self, manifest_id: str) -> str:
        """The one URL asked for this id: the base URL, then the id as a single escaped segment."""
        # safe="" escapes '/', '?', '#' and spaces too, so no id can leave the base URL's path.
        return f"{self.base_url.rstrip('/')}/manifests/by-id/{quote(manifest_id, safe='')}"

    def fetch(self, manifest_id: str) -> ManifestData:
        """The manifest with this id, mapped by the adapter; a ProviderError says why not."""
        if not isinstance(manifest_id, str) or manifest_id.strip(".") == "":
            # '', '.' and '..' would name the collection or its parent, not a manifest.
            raise ManifestNotFound(f"{manifest_id!r} is not a manifest id")
        url = self.url_for(manifest_id)
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                payload = self._get(url)
                break
            except _Transient as transient:
                if attempt == attempts:
                    raise ProviderUnavailable(
                        f"{transient.reason}; gave up after {attempts} attempt{'s' if attempts > 1 else ''}",
                        retry_after=transient.retry_after,
                    ) from None
                wait = transient.retry_after
                if wait is None:
                    wait = backoff_delay(attempt, base=self.backoff_base, cap=self.max_wait)
                elif wait > self.max_wait:
                    raise ProviderUnavailable(
                        f"{transient.reason}; the provider asks us to wait {wait:.0f} s, longer than "
                        f"MANIFEST_PROVIDER_MAX_WAIT ({self.max_wait} s): try again later",
                        retry_after=wait,
                    ) from None
                logger.warning(
                    "manifest %r: %s; attempt %d of %d, next in %.2f s",
                    manifest_id,
                    transient.reason,
                    attempt,
                    attempts,
                    wait,
                )
                time.sleep(wait)
        return self._to_manifest(manifest_id, payload)

    # --- one attempt --------------------------------------------------------------------------

    def _get(self, url: str) -> Any:
        parts = urlsplit(url)
        connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        connection = connection_class(parts.netloc, timeout=self.connect_timeout)
        response = None
        try:
            try:
                connection.connect()
            except TimeoutError:
                raise _Transient(f"no connection to the provider within {self.connect_timeout} s") from None
            except ssl.SSLCertVerificationError as error:
                raise ProviderUnavailable(
                    f"the provider's TLS certificate is not trusted ({error.verify_message}): "
                    "check MANIFEST_PROVIDER_URL"
                ) from None
            except OSError as error:
                raise _Transient(f"cannot connect to the provider: {error.strerror or error}") from None
            sock = connection.sock
            deadline = time.monotonic() + self.read_timeout
            try:
                sock.settimeout(self.read_timeout)
                connection.request(
                    "GET",
                    parts.path,
                    headers={
                        "Authorization": f"Bearer {self.key}",
                        "Accept": "application/json",
                        "User-Agent": USER_AGENT,
                    },
                )
                response = connection.getresponse()
                return self._read_reply(response, sock, deadline)
            except TimeoutError:
                raise _Transient(f"no complete reply from the provider within {self.read_timeout} s") from None
            except http.client.IncompleteRead as error:
                raise _Transient(f"the reply was cut short after {len(error.partial):,} bytes") from None
            except (http.client.HTTPException, OSError) as error:
                raise _Transient(f"the connection to the provider failed: {error or type(error).__name__}") from None
        finally:
            if response is not None:
                response.close()
            connection.close()

    def _read_reply(self, response: http.client.HTTPResponse, sock: Any, deadline: float) -> Any:
        status = response.status
        phrase = _phrase(status, response.reason)
        if status == 200:
            body = self._read_body(response, sock, deadline)
            try:
                return parse_json(body, limit=self.max_reply_bytes)
            except JsonInputError as error:
                raise ProviderBadReply(f"the provider's reply cannot be read: {error}") from None
        if status in (401, 403):
            raise ProviderKeyRejected(
                f"the provider rejected the key (HTTP {status} {phrase}): check MANIFEST_PROVIDER_KEY"
            )
        if status == 404:
            raise ManifestNotFound("the provider has no manifest with this id (HTTP 404)")
        if status == 429 or 500 <= status <= 599:
            retry_after = parse_retry_after(response.getheader("Retry-After"))
            raise _Transient(f"the provider answered HTTP {status} {phrase}", retry_after=retry_after)
        if 300 <= status <= 399:
            # Never followed: the key must only ever reach the configured base URL.
            location = (response.getheader("Location") or "")[:200]
            raise ProviderBadReply(
                f"the provider answered HTTP {status}, a redirect to {location!r}, which is not followed: "
                "check MANIFEST_PROVIDER_URL"
            )
        raise ProviderBadReply(f"the provider answered HTTP {status} {phrase}, which this client does not expect")

    def _read_body(self, response: http.client.HTTPResponse, sock: Any, deadline: float) -> bytes:
        limit = self.max_reply_bytes
        declared_header = response.getheader("Content-Length")
        declared = int(declared_header) if declared_header and declared_header.strip().isdecimal() else None
        if declared is not None and declared > limit:
            raise ProviderBadReply(
                f"the reply is {declared:,} bytes; MANIFEST_PROVIDER_MAX_REPLY_BYTES allows {limit:,}: not read"
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            sock.settimeout(remaining)
            # read1: at most one socket read, so the deadline is checked between reads and a
            # reply over the limit is dropped as soon as it passes it, not read to its end.
            chunk = response.read1(_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise ProviderBadReply(
                    f"the reply is over {limit:,} bytes, the limit MANIFEST_PROVIDER_MAX_REPLY_BYTES: stopped reading"
                )
            chunks.append(chunk)
        if declared is not None and size < declared:
            raise _Transient(f"the reply was cut short: {size:,} of {declared:,} bytes")
        return b"".join(chunks)

    def _to_manifest(self, manifest_id: str, payload: Any) -> ManifestData:
        if not isinstance(payload, dict):
            raise ProviderBadReply(f"the provider's reply is {_json_type(payload)}, not a manifest object")
        try:
            data = self.adapter.to_manifest(payload)
        except DocumentError as error:
            shown = "; ".join(str(problem) for problem in error.problems[:_SHOWN_PROBLEMS])
            more = len(error.problems) - _SHOWN_PROBLEMS
            raise ProviderBadReply(
                f"the provider's reply is not a valid manifest: {shown}" + (f" (and {more} more)" if more > 0 else "")
            ) from None
        except (KeyError, TypeError, ValueError) as error:
            # An adapter slip on an odd reply must not crash a check; log it to fix the adapter.
            logger.exception("manifest %r: the adapter failed on the provider's reply", manifest_id)
            raise ProviderBadReply(f"the provider's reply could not be mapped: {error!r}") from None
        if data.manifest_id != manifest_id:
            raise ProviderBadReply(
                f"asked for manifest {manifest_id!r}, the provider answered with {data.manifest_id!r}"
            )
        return data


def fetch_manifest(manifest_id: str) -> ManifestData:
    """One manifest from the configured provider (see ``ProviderClient.fetch``)."""
    return ProviderClient.from_settings().fetch(manifest_id)


def _phrase(status: int, reason: str) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        # A status we do not know: show the provider's own words, but not a page of them.
        return reason[:80]


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "a JSON array"
    if isinstance(value, str):
        return "a JSON string"
    if isinstance(value, bool):
        return "a JSON boolean"
    if isinstance(value, int | float):
        return "a JSON number"
    return "JSON null" if value is None else "not a JSON object"
