"""The manifest provider client and manifests_fetch, against a real HTTP server on 127.0.0.1."""

import datetime as dt
import email.utils
import socket
import time
from urllib.parse import quote

import pytest

from manifests.models import Manifest
from manifests.provider import (
    ManifestNotFound,
    ProviderBadReply,
    ProviderClient,
    ProviderKeyRejected,
    ProviderNotConfigured,
    ProviderUnavailable,
    backoff_delay,
    parse_retry_after,
)
from manifests.services import manifests_fetch
from tests.factories import ClaimFactory, ManifestFactory
from tests.provider_server import Reply, manifest_payload

pytestmark = pytest.mark.django_db


def fetch_one(manifest_id: str, **options):
    return manifests_fetch(manifest_ids=[manifest_id], **options)[manifest_id]


# --- success and reuse ----------------------------------------------------------------------


def test_it_fetches_and_stores_a_manifest_with_its_claims(provider):
    provider.add_manifest(
        manifest_payload(
            "m1",
            claims=["c-b", {"claim_id": "c-a", "text": "Revenue rose 30.7%.", "type": "metric", "confidence": 0.5}],
            title="A title",
            source_name="the-publisher",
            published_date="2026-10-15T08:00:00Z",
        )
    )

    outcome = fetch_one("m1")

    assert outcome.status == "fetched"
    assert outcome.ok
    assert outcome.message == "fetched from the provider with 2 claims"
    manifest = Manifest.objects.get(manifest_id="m1")
    assert outcome.manifest == manifest
    assert manifest.origin == Manifest.Origin.PROVIDER
    assert manifest.fetched_at is not None
    assert manifest.title == "A title"
    assert manifest.source_name == "the-publisher"
    assert manifest.published_date == dt.date(2026, 10, 15)
    assert manifest.brief_headline == "Headline of m1"
    claims = list(manifest.claims.values_list("claim_id", "text", "type", "confidence"))
    assert claims == [("c-b", "Claim c-b says something.", "fact", 0.9), ("c-a", "Revenue rose 30.7%.", "metric", 0.5)]


def test_it_reuses_a_stored_manifest_without_a_request(provider):
    claim = ClaimFactory(manifest=ManifestFactory(manifest_id="m1"))

    outcome = fetch_one("m1")

    assert outcome.status == "stored"
    assert outcome.manifest == claim.manifest
    assert outcome.message == "already stored with 1 claim (origin: file)"
    assert provider.requests == []


def test_it_reuses_a_fetched_manifest_on_the_next_call(provider):
    provider.add_manifest(manifest_payload("m1"))

    assert fetch_one("m1").status == "fetched"
    assert fetch_one("m1").status == "stored"
    assert len(provider.requests) == 1


def test_it_fetches_a_manifest_known_only_from_a_story_import(provider):
    ManifestFactory(manifest_id="m1", origin=Manifest.Origin.STORY_IMPORT, title="From the story")
    provider.add_manifest(manifest_payload("m1", title="From the provider"))

    outcome = fetch_one("m1")

    assert outcome.status == "fetched"
    manifest = Manifest.objects.get(manifest_id="m1")
    assert manifest.origin == Manifest.Origin.PROVIDER
    assert manifest.title == "From the provider"
    assert manifest.claims.count() == 2


def test_it_fetches_a_stored_manifest_again_on_refresh(provider):
    ClaimFactory(manifest=ManifestFactory(manifest_id="m1"), claim_id="old")
    provider.add_manifest(manifest_payload("m1", claims=["new"]))

    outcome = fetch_one("m1", refresh=True)

    assert outcome.status == "fetched"
    assert list(outcome.manifest.claims.values_list("claim_id", flat=True)) == ["new"]


def test_it_keeps_the_stored_copy_when_a_refresh_finds_nothing(provider):
    ClaimFactory(manifest=ManifestFactory(manifest_id="m1"), claim_id="kept")

    outcome = fetch_one("m1", refresh=True)

    assert outcome.status == "missing"
    assert "stored copy was kept" in outcome.message
    assert list(outcome.manifest.claims.values_list("claim_id", flat=True)) == ["kept"]


def test_it_gives_one_outcome_per_distinct_id_in_order(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m3", [Reply(status=503)] * 3)
    ClaimFactory(manifest=ManifestFactory(manifest_id="m4"))

    outcomes = manifests_fetch(manifest_ids=["m3", "m1", "m2", "m1", "m4"])

    assert {key: outcome.status for key, outcome in outcomes.items()} == {
        "m3": "error",
        "m1": "fetched",
        "m2": "missing",
        "m4": "stored",
    }
    assert list(outcomes) == ["m3", "m1", "m2", "m4"]
    assert len(provider.requests_for("m1")) == 1


# --- retries, timeouts and rate limits ------------------------------------------------------


def test_it_retries_after_a_500(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [500])

    outcome = fetch_one("m1")

    assert outcome.status == "fetched"
    assert len(provider.requests) == 2


def test_it_gives_up_after_persistent_500s(provider, settings):
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 3
    provider.add_manifest(manifest_payload("m1"))
    provider.always(500)

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert isinstance(outcome.error, ProviderUnavailable)
    assert outcome.message == "the provider answered HTTP 500 Internal Server Error; gave up after 4 attempts"
    assert len(provider.requests) == 4
    assert not Manifest.objects.exists()


def test_it_backs_off_between_attempts_within_the_cap(provider, settings):
    settings.MANIFEST_PROVIDER_BACKOFF_BASE = 10
    settings.MANIFEST_PROVIDER_MAX_WAIT = 0.2
    provider.always(503)

    fetch_one("m1")

    gaps = [later.at - earlier.at for earlier, later in zip(provider.requests, provider.requests[1:], strict=False)]
    assert len(gaps) == 2
    assert all(gap < 1 for gap in gaps)


@pytest.mark.parametrize("attempt", [1, 2, 3, 8])
def test_backoff_grows_exponentially_with_full_jitter_up_to_the_cap(attempt):
    bound = min(30, 0.5 * 2 ** (attempt - 1))

    delays = [backoff_delay(attempt, base=0.5, cap=30) for _ in range(500)]

    assert all(0 <= delay <= bound for delay in delays)
    assert min(delays) < bound * 0.2
    assert max(delays) > bound * 0.8


def test_it_gives_up_on_a_reply_slower_than_the_read_timeout(provider, settings):
    settings.MANIFEST_PROVIDER_READ_TIMEOUT = 0.3
    provider.add_manifest(manifest_payload("m1"))
    provider.always(Reply(delay=30))  # ends with the test: the server's sleep is cut short on stop

    started = time.monotonic()
    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert outcome.message == "no complete reply from the provider within 0.3 s; gave up after 3 attempts"
    assert len(provider.requests) == 3
    # Each attempt ended at the client's own timeout: all three (about 1 s with the backoff) end
    # long before one reply would have come. (A bound near 1 s failed on a loaded machine.)
    assert time.monotonic() - started < 10


def test_it_gives_up_on_a_reply_that_trickles_in_past_the_read_timeout(provider, settings):
    # Each piece comes well within the timeout; the whole reply does not.
    settings.MANIFEST_PROVIDER_READ_TIMEOUT = 0.5
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 0
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [Reply(drip=0.15)])

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert "no complete reply from the provider within 0.5 s" in outcome.message


def test_it_accepts_a_slow_reply_within_the_read_timeout(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [Reply(delay=0.2, body_delay=0.2)])

    assert fetch_one("m1").status == "fetched"


def test_it_honours_retry_after_seconds(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [Reply(status=429, headers={"Retry-After": "1"})])

    outcome = fetch_one("m1")

    assert outcome.status == "fetched"
    first, second = provider.requests
    assert second.at - first.at >= 0.95


def test_it_honours_retry_after_as_an_http_date(provider):
    provider.add_manifest(manifest_payload("m1"))
    when = email.utils.format_datetime(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2), usegmt=True)
    provider.script("m1", [Reply(status=503, headers={"Retry-After": when})])

    outcome = fetch_one("m1")

    assert outcome.status == "fetched"
    first, second = provider.requests
    # An HTTP-date has whole seconds, so the wait is between one and two seconds.
    assert second.at - first.at >= 0.9


def test_it_stops_when_retry_after_is_longer_than_the_max_wait(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [Reply(status=429, headers={"Retry-After": "3600"})])

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert outcome.error.retry_after == 3600
    assert "asks us to wait 3600 s" in outcome.message
    assert len(provider.requests) == 1


def test_it_retries_when_the_connection_is_refused(provider, settings):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    settings.MANIFEST_PROVIDER_URL = f"http://127.0.0.1:{port}/v1"

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert outcome.message.startswith("cannot connect to the provider")
    assert outcome.message.endswith("gave up after 3 attempts")


# --- answers that decide, and answers that cannot -------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
def test_it_reports_a_rejected_key(provider, status):
    provider.add_manifest(manifest_payload("m1"))
    provider.script("m1", [status])

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert isinstance(outcome.error, ProviderKeyRejected)
    assert "rejected the key" in outcome.message
    assert "MANIFEST_PROVIDER_KEY" in outcome.message
    assert len(provider.requests) == 1


def test_it_reports_a_wrong_key_as_rejected(provider, settings):
    settings.MANIFEST_PROVIDER_KEY = "not-the-key"
    provider.add_manifest(manifest_payload("m1"))

    outcome = fetch_one("m1")

    assert isinstance(outcome.error, ProviderKeyRejected)
    assert outcome.message == "the provider rejected the key (HTTP 401 Unauthorized): check MANIFEST_PROVIDER_KEY"


def test_it_reports_a_404_as_missing(provider):
    outcome = fetch_one("m1")

    assert outcome.status == "missing"
    assert isinstance(outcome.error, ManifestNotFound)
    assert outcome.error.missing
    assert outcome.message == "the provider has no manifest with this id (HTTP 404)"
    assert len(provider.requests) == 1


def test_it_reports_a_story_import_manifest_the_provider_lacks_as_missing(provider):
    known = ManifestFactory(manifest_id="m1", origin=Manifest.Origin.STORY_IMPORT)

    outcome = fetch_one("m1")

    assert outcome.status == "missing"
    assert outcome.manifest == known
    assert "stored copy" not in outcome.message


def _payload_with(**changes):
    payload = manifest_payload("m1")
    payload.update(changes)
    return payload


BAD_REPLIES = {
    "non-JSON": (Reply(status=200, body=b"<html>Bad gateway</html>"), "cannot be read: not JSON"),
    "empty": (Reply(status=200, body=b""), "cannot be read: not JSON"),
    "not UTF-8": (Reply(status=200, body=b'{"a": "\xff"}'), "cannot be read: not UTF-8"),
    "JSON array": (Reply(status=200, body=[manifest_payload("m1")]), "is a JSON array, not a manifest object"),
    "JSON string": (Reply(status=200, body=b'"m1"'), "is a JSON string, not a manifest object"),
    "JSON null": (Reply(status=200, body=b"null"), "is JSON null, not a manifest object"),
    "a claim id that is a number": (
        Reply(status=200, body=_payload_with(signal={"claims": [{"claim_id": 7, "text": "x"}]})),
        "not a valid manifest: signal.claims[0].claim_id: must be a string, not a number",
    ),
    "no source": (
        Reply(status=200, body={"manifest_id": "m1", "title": "t", "signal": {"claims": []}}),
        "not a valid manifest: source: is required",
    ),
    "another manifest": (
        Reply(status=200, body=manifest_payload("m2")),
        "asked for manifest 'm1', the provider answered with 'm2'",
    ),
    "a NUL character": (Reply(status=200, body=_payload_with(title="a\x00b")), "title: must not contain U+0000 NULL"),
    "a redirect": (
        Reply(status=302, headers={"Location": "http://elsewhere.example/m1"}),
        "a redirect to 'http://elsewhere.example/m1', which is not followed",
    ),
    "a 400": (Reply(status=400), "HTTP 400 Bad Request, which this client does not expect"),
}


@pytest.mark.parametrize("case", BAD_REPLIES)
def test_it_reports_a_bad_reply_as_an_error_without_retrying(provider, case):
    reply, message = BAD_REPLIES[case]
    provider.script("m1", [reply])

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert isinstance(outcome.error, ProviderBadReply)
    assert message in outcome.message
    assert len(provider.requests) == 1
    assert not Manifest.objects.exists()


def test_it_reports_a_truncated_body_after_retrying(provider):
    provider.add_manifest(manifest_payload("m1"))
    provider.always(Reply.truncated(manifest_payload("m1"), missing=500))

    outcome = fetch_one("m1")

    assert outcome.status == "error"
    assert isinstance(outcome.error, ProviderUnavailable)
    assert "the reply was cut short" in outcome.message
    assert len(provider.requests) == 3


def test_it_refuses_a_reply_announced_over_the_size_limit(provider, settings):
    settings.MANIFEST_PROVIDER_MAX_REPLY_BYTES = 10_000
    provider.script("m1", [Reply(status=200, body=b" " * 20_000)])

    outcome = fetch_one("m1")

    assert isinstance(outcome.error, ProviderBadReply)
    assert outcome.message == "the reply is 20,000 bytes; MANIFEST_PROVIDER_MAX_REPLY_BYTES allows 10,000: not read"


def test_it_stops_reading_an_unannounced_reply_over_the_size_limit(provider, settings):
    settings.MANIFEST_PROVIDER_MAX_REPLY_BYTES = 10_000
    provider.script("m1", [Reply(status=200, body=b" " * 5_000_000, send_length=False)])

    started = time.monotonic()
    outcome = fetch_one("m1")

    assert isinstance(outcome.error, ProviderBadReply)
    assert "over 10,000 bytes" in outcome.message
    assert "stopped reading" in outcome.message
    assert time.monotonic() - started < 1


# --- where requests go ----------------------------------------------------------------------


def test_it_sends_the_key_as_a_bearer_token(provider):
    provider.add_manifest(manifest_payload("m1"))

    fetch_one("m1")

    (request,) = provider.requests
    assert request.method == "GET"
    assert request.path == "/v1/manifests/by-id/m1"
    assert request.headers["Authorization"] == f"Bearer {provider.key}"
    assert request.headers["Accept"] == "application/json"


@pytest.mark.parametrize("manifest_id", ["a/b", "what?x=1", "with space", "../../admin", "#top", "é%41"])
def test_it_percent_encodes_the_id_and_stays_on_the_base_url(provider, manifest_id):
    outcome = fetch_one(manifest_id)

    (request,) = provider.requests
    assert request.path == "/v1/manifests/by-id/" + quote(manifest_id, safe="")
    assert request.manifest_id == manifest_id
    assert outcome.status == "missing"


@pytest.mark.parametrize("manifest_id", ["", ".", ".."])
def test_it_never_asks_for_an_id_that_names_no_manifest(provider, manifest_id):
    outcome = fetch_one(manifest_id)

    assert outcome.status == "missing"
    assert "is not a manifest id" in outcome.message
    assert provider.requests == []


@pytest.mark.parametrize(
    ("url", "key", "message"),
    [
        ("", "k", "no manifest provider is configured: set MANIFEST_PROVIDER_URL"),
        ("ftp://127.0.0.1/v1", "k", "MANIFEST_PROVIDER_URL must be an http(s) URL"),
        ("http://127.0.0.1/v1?x=1", "k", "MANIFEST_PROVIDER_URL must be an http(s) URL"),
        ("http://user:pw@127.0.0.1/v1", "k", "must not hold credentials"),
        (None, "", "MANIFEST_PROVIDER_KEY is not set"),
        (None, "two words", "MANIFEST_PROVIDER_KEY must not contain spaces"),
    ],
)
def test_it_refuses_to_call_an_unconfigured_provider(provider, settings, url, key, message):
    settings.MANIFEST_PROVIDER_URL = provider.url if url is None else url
    settings.MANIFEST_PROVIDER_KEY = key
    provider.add_manifest(manifest_payload("m1"))
    ManifestFactory(manifest_id="m2", origin=Manifest.Origin.STORY_IMPORT)

    outcomes = manifests_fetch(manifest_ids=["m1", "m2"])

    assert {outcome.status for outcome in outcomes.values()} == {"error"}
    assert all(isinstance(outcome.error, ProviderNotConfigured) for outcome in outcomes.values())
    assert message in outcomes["m1"].message
    assert outcomes["m2"].manifest.manifest_id == "m2"
    assert provider.requests == []


def test_it_needs_no_provider_for_stored_manifests(settings):
    settings.MANIFEST_PROVIDER_URL = ""
    ClaimFactory(manifest=ManifestFactory(manifest_id="m1"))

    assert fetch_one("m1").status == "stored"


def test_the_client_keeps_its_key_out_of_its_repr():
    client = ProviderClient(base_url="https://provider.example/v1", key="s3cret")

    assert "s3cret" not in repr(client)
    assert client.url_for("a/b c") == "https://provider.example/v1/manifests/by-id/a%2Fb%20c"


# --- Retry-After ----------------------------------------------------------------------------

NOW = dt.datetime(2026, 10, 16, 12, 0, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 0 ", 0.0),
        ("Fri, 16 Oct 2026 12:00:30 GMT", 30.0),
        ("Fri, 16 Oct 2026 11:00:00 GMT", 0.0),
        ("soon", None),
        ("-5", None),
        ("1.5", None),
        (None, None),
    ],
)
def test_it_reads_retry_after_as_seconds_or_an_http_date(value, seconds):
    assert parse_retry_after(value, now=NOW) == seconds
