"""The sign-in lockout backend: django-axes' check, for sign-ins made through a request."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked-out username or client; never signs anyone in itself.

    ``authenticate()`` without a request (the test client's ``login()``, a shell) has no client
    to count or lock out. Axes raises there; we let the next backend decide instead. Every
    sign-in form of ours (admin, DRF's browsable API) passes its request.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
