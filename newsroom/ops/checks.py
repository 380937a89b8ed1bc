"""System checks for the sign-in lockout's order, which django-axes' own checks do not cover
(they only look for its backend and middleware somewhere in the lists), and for the admin's
messages, which its own check (admin.E409, silenced) looks for as an entry of MIDDLEWARE."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.core.checks import Error, Tags, register
from django.utils.module_loading import import_string

AXES_MIDDLEWARE = "axes.middleware.AxesMiddleware"
ADMIN_ENTRY = "newsroom.scoped.admin_middleware"  # its middleware: newsroom.scoped.ADMIN_MIDDLEWARE
MESSAGES_MIDDLEWARE = "django.contrib.messages.middleware.MessageMiddleware"


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


@register(Tags.admin)
def admin_messages(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    middleware = list(settings.MIDDLEWARE)
    if MESSAGES_MIDDLEWARE in middleware:
        return []
    if ADMIN_ENTRY in middleware:
        # Sessions first: the messages middleware keeps messages there when a cookie cannot.
        sessions = "django.contrib.sessions.middleware.SessionMiddleware"
        if sessions in middleware and middleware.index(sessions) < middleware.index(ADMIN_ENTRY):
            return []
    return [
        Error(
            f"The admin's messages need {ADMIN_ENTRY} (which runs {MESSAGES_MIDDLEWARE} for the admin's "
            "pages) after SessionMiddleware in MIDDLEWARE, or the messages middleware itself.",
            hint="Restore the admin's entry in MIDDLEWARE, after the sessions and authentication middleware.",
            id="ops.E003",
        )
    ]
