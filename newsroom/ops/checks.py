"""System checks for the sign-in lockout's order, which django-axes' own checks do not cover
(they only look for its backend and middleware somewhere in the lists)."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.core.checks import Error, Tags, register
from django.utils.module_loading import import_string

AXES_MIDDLEWARE = "axes.middleware.AxesMiddleware"


@register(Tags.security)
def lockout_backend_first(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    backends = list(settings.AUTHENTICATION_BACKENDS)
    first = import_string(backends[0]) if backends else None
    if isinstance(first, type) and issubclass(first, AxesStandaloneBackend):
        return []
    return [
        Error(
            "The sign-in lockout backend is not the first of AUTHENTICATION_BACKENDS.",
            hint="Put newsroom.ops.auth.LockoutBackend first: a backend before it signs in locked-out users.",
            id="ops.E001",
        )
    ]


@register(Tags.security)
def lockout_middleware_last(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    middleware = list(settings.MIDDLEWARE)
    if middleware and middleware[-1] == AXES_MIDDLEWARE:
        return []
    return [
        Error(
            f"{AXES_MIDDLEWARE} is not the last entry of MIDDLEWARE.",
            hint="django-axes needs its middleware last, after sessions and authentication, to answer lockouts.",
            id="ops.E002",
        )
    ]
