from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import get_urlconf, reverse


@lru_cache(maxsize=8)
def _site_links(urlconf: str, static_url: str) -> SimpleNamespace:
    # Every page links to these; reversing them once per URLconf, not ten times per render,
    # is a measurable part of rendering a page anew.
    return SimpleNamespace(
        home=reverse("home", urlconf),
        search=reverse("search", urlconf),
        reuse_terms=reverse("reuse-terms", urlconf),
        rss=reverse("site-rss", urlconf),
        atom=reverse("site-atom", urlconf),
        sitemap=reverse("sitemap", urlconf),
        llms=reverse("llms-txt", urlconf),
        stylesheet=static("css/site.css"),
        icon=static("favicon.svg"),
    )


def site(request: HttpRequest) -> dict[str, Any]:
    """The site's name, base URL and the links every page carries (the 404 page included)."""
    return {
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "links": _site_links(get_urlconf() or settings.ROOT_URLCONF, settings.STATIC_URL),
    }
