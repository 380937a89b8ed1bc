"""A Content-Security-Policy for the admin (public pages send their own: newsroom/pagecache.py).

The admin's scripts are all static files of this site (Django's admin has no inline script
since 4.x; its data travels in ``data-`` attributes), so ``script-src 'self'`` holds without
``'unsafe-inline'``. Its templates and widgets, and those of admin packages, still write
``style="..."`` attributes, hence ``'unsafe-inline'`` for styles only. The policy is one
setting, ``ADMIN_CONTENT_SECURITY_POLICY``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import NoReverseMatch, get_script_prefix, reverse


def admin_prefix(urlconf: str | None) -> str | None:
    """The admin's address, as ``request.path`` starts there: under the script prefix, which
    ``reverse()`` includes (a site mounted at ``/news/`` has its admin at ``/news/admin/``)."""
    return _admin_prefix(urlconf, get_script_prefix())


@cache
def _admin_prefix(urlconf: str | None, script_prefix: str) -> str | None:
    # ``script_prefix`` only keys the memo: reverse() reads the same one itself.
    try:
        return reverse("admin:index", urlconf=urlconf)
    except NoReverseMatch:
        return None


class AdminContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        prefix = admin_prefix(getattr(request, "urlconf", None))
        if prefix and request.path.startswith(prefix) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = settings.ADMIN_CONTENT_SECURITY_POLICY
        return response
