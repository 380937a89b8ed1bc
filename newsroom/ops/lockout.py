"""How a locked-out sign-in is answered, and whose address a sign-in comes from."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT proxies the entry that
    many places from the right of X-Forwarded-For. Entries further left were written by the
    client itself and would let it pick a fresh address for every try (django-ipware's default,
    the left-most entry, does exactly that, which is why this is not ipware)."""
    hops = settings.TRUSTED_PROXY_COUNT
    if hops > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR")


def login_retry_at(request: HttpRequest, credentials: dict | None) -> datetime:
    """When the pair of this sign-in, its username at its client address, is free again.

    Axes counts the failures recorded within the cool-off before now, so the lockout ends one
    cool-off after the latest failure of the username or of the address (a failure during the
    lockout is not recorded: AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT is off).
    """
    cool_off = get_cool_off(request)
    username = get_client_username(request, credentials)
    # The lockout is of the pair (AXES_LOCKOUT_PARAMETERS): the failures of this username from
    # this address.
    matching = Q(ip_address=getattr(request, "axes_ip_address", None) or client_ip(request), username=username)
    latest = AccessAttempt.objects.filter(matching).aggregate(latest=Max("attempt_time"))["latest"]
    return (latest or timezone.now()) + cool_off


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """The admin-styled lockout page (429), saying when to try again, with Retry-After."""
    retry_at = login_retry_at(request, credentials)
    seconds = max(0, math.ceil((retry_at - timezone.now()).total_seconds()))
    # The page names a minute: the first whole minute at which the lockout is surely over.
    shown = (retry_at + timedelta(seconds=59, microseconds=999999)).replace(second=0, microsecond=0)
    context = {
        **admin.site.each_context(request),
        "title": "Sign-in locked",
        "retry_at": shown,
        "minutes": max(1, math.ceil(seconds / 60)),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
    }
    response = render(request, "ops/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(seconds)
    return response
