"""Shared fixtures. Tests needing PostgreSQL, Redis or a browser skip with a reason under a
plain ``make test``; ``.ci/run`` sets REQUIRE_SERVICES=1, which turns every such skip into a
failure so CI always runs them."""

from __future__ import annotations

import os
import shutil

import pytest
from django.conf import settings
from django.db import connection

from tests.provider_server import provider  # noqa: F401  (the test manifest provider fixture)

REQUIRE_SERVICES = os.getenv("REQUIRE_SERVICES", "") == "1"
CHROMIUM = os.getenv("CHROMIUM_PATH", "/usr/bin/chromium")


def skip_or_fail(reason: str) -> None:
    """Skip with the reason, or fail when the run promised every service would be there."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture
def require_postgres(db) -> None:
    if connection.vendor != "postgresql":
        skip_or_fail("this test needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom")


@pytest.fixture
def require_redis() -> str:
    if not settings.REDIS_URL:
        skip_or_fail("this test needs Redis: set REDIS_URL=redis://127.0.0.1:6379/0")
    return settings.REDIS_URL


@pytest.fixture
def require_chromium() -> str:
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        skip_or_fail(f"this test needs Debian chromium at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture
def site_url(settings) -> str:
    settings.SITE_URL = "https://hangingcontext.com"
    return settings.SITE_URL
