"""The editor's time zone on the desk: chosen once per browser, every time shown in it, labelled.

An editor picks a zone (``/admin/stories/story/time-zone/``); it is kept in a cookie and
activated by ``DeskTimeZoneMiddleware`` for admin requests only (public pages are cached for
every reader and stay in the site's zone). ``format_when`` writes a time with its zone's name.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "desk_tz"
# A year: the choice is a preference, not a secret.
COOKIE_MAX_AGE = 365 * 24 * 3600


@cache
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def valid_zone(name: str | None) -> str | None:
    """The zone name if the system knows it, else None."""
    return name if name and len(name) < 64 and name in zone_names() else None


class DeskTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = valid_zone(request.COOKIES.get(COOKIE)) if request.path.startswith("/admin/") else None
        if name is None:
            return self.get_response(request)
        timezone.activate(zoneinfo.ZoneInfo(name))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def current_zone_name() -> str:
    return timezone.get_current_timezone_name()


def format_when(value: datetime | None) -> str:
    """'2026-12-01 11:00 CET (Europe/Paris)': in the editor's zone, named; '—' for none. A zone
    whose abbreviation is its name says it once ('2026-12-01 10:00 UTC')."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    zone, abbreviation = current_zone_name(), local.tzname()
    named = "" if zone == abbreviation else f" ({zone})"
    return f"{local:%Y-%m-%d %H:%M} {abbreviation}{named}"


def set_zone_cookie(response: HttpResponse, name: str) -> None:
    response.set_cookie(
        COOKIE,
        name,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
    )
