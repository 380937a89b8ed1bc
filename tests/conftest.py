"""Shared fixtures. Tests needing PostgreSQL, Redis or a browser skip with a reason under a
plain ``make test``. ``REQUIRE_SERVICES`` names the services a run promises (a comma-separated
list of postgres, redis, chromium, or 1 for all): ``.ci/run`` sets it, which turns any such skip
into a failure, so CI always runs them."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from newsroom.models import SiteText
from stories.desk import parse_utc
from tests.factories import add_site_texts
from tests.provider_server import provider  # noqa: F401  (the test manifest provider fixture)

SEEDS = Path(__file__).resolve().parents[1] / "stories" / "fixtures" / "seeds"

_required = {name.strip() for name in os.getenv("REQUIRE_SERVICES", "").split(",") if name.strip()}
REQUIRE_SERVICES = {"postgres", "redis", "chromium"} if "1" in _required else _required
CHROMIUM = os.getenv("CHROMIUM_PATH", "/usr/bin/chromium")


def skip_or_fail(reason: str, service: str | None = None) -> None:
    """Skip with the reason, or fail when the run promised the service would be there."""
    if service in REQUIRE_SERVICES or (service is None and REQUIRE_SERVICES):
        pytest.fail(f"REQUIRE_SERVICES={os.getenv('REQUIRE_SERVICES')} but {reason}")
    pytest.skip(reason)


@pytest.fixture
def require_postgres(db) -> None:
    if connection.vendor != "postgresql":
        skip_or_fail(
            "this test needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom", "postgres"
        )


@pytest.fixture
def require_redis() -> str:
    if not settings.REDIS_URL:
        skip_or_fail("this test needs Redis: set REDIS_URL=redis://127.0.0.1:6379/0", "redis")
    return settings.REDIS_URL


@pytest.fixture
def require_chromium() -> str:
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        skip_or_fail(f"this test needs Debian chromium at {CHROMIUM} (apt-get install chromium)", "chromium")
    return CHROMIUM


@pytest.fixture
def site_url(settings) -> str:
    settings.SITE_URL = "https://hangingcontext.com"
    return settings.SITE_URL


@pytest.fixture
def seed_site_texts(db) -> dict[str, dict[str, SiteText]]:
    """The site-wide texts the two seeds carry, added as load_demo adds them (an import never
    adds one): each in force from the publication of the first seed that carries it. Returns
    each seed's versions by the story's field name, by the seed's slug."""
    documents = [json.loads(path.read_text()) for path in SEEDS.glob("*.json")]
    return {
        document["slug"]: add_site_texts(document, effective_from=parse_utc(document["published_at"]))
        for document in sorted(documents, key=lambda document: document["published_at"])
    }


@pytest.fixture(autouse=True)
def own_cache_keys(settings):
    """With Redis as the cache, each test keys its entries under a prefix of its own: xdist
    workers share the Redis database, and a page one test stored must never answer another's
    request. (The public-site tests use a local-memory cache of their own instead.)"""
    default = settings.CACHES["default"]
    if "Redis" in default["BACKEND"]:
        settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}


@pytest.fixture(autouse=True)
def closed_cache_breakers() -> Iterator[None]:
    """Each test starts with the cache breakers closed: one that an earlier test's timeout opened
    (on a busy machine, CACHE_TIMEOUT_SECONDS is short) would otherwise skip the cache for this one
    until its next PING. The breakers a test made for its own servers (a closed port, a hung
    Redis) are forgotten after it, so their probes stop instead of PINGing a port long gone and
    logging into a closed stream at the end of the run."""
    from newsroom import cache as redis_cache

    for breaker in list(redis_cache._breakers.values()):
        if breaker.current_state != "closed":
            breaker.close()
    location = settings.CACHES["default"].get("LOCATION", "")
    # The run's own cache keeps its breaker: Django's cache clients hold on to theirs.
    kept = set(redis_cache._breakers) | {location if isinstance(location, str) else ",".join(location)}
    yield
    with redis_cache._breakers_lock:
        for made in set(redis_cache._breakers) - kept:
            redis_cache._breakers.pop(made, None)
            redis_cache._probes.pop(made, None)
