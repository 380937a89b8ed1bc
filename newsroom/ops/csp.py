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
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase
from django.urls import NoReverseMatch, get_script_prefix, reverse


def is_admin_request(request: HttpRequest) -> bool:
    """Whether the request is for the admin's pages. By ``path_info``, which leaves the script
    prefix out: reading that prefix (a thread's, kept by asgiref) cost more than the rest of
    this check, on every request."""
    route = admin_route(getattr(request, "urlconf", None))
    return route is not None and request.path_info.startswith(route)


@cache
def admin_route(urlconf: str | None) -> str | None:
    """The admin's address within the site, as ``request.path_info`` starts there (``/admin/``
    for a site mounted at ``/news/`` too)."""
    try:
        address = reverse("admin:index", urlconf=urlconf)
    except NoReverseMatch:
        return None
    return "/" + address[len(get_script_prefix()) :]  # reverse() begins with the script prefix


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    # A test's URLconf of its own may put the admin elsewhere.
    if setting == "ROOT_URLCONF":
        admin_route.cache_clear()


class AdminContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if is_admin_request(request) and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = settings.ADMIN_CONTENT_SECURITY_POLICY
        return response
