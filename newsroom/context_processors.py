from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import get_urlconf, reverse
from django.utils.safestring import SafeString


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


def _render_chrome(site_name: str, urlconf: str, static_url: str) -> SimpleNamespace:
    context = {"site_name": site_name, "links": _site_links(urlconf, static_url)}

    def part(template_name: str) -> SafeString:
        return SafeString(render_to_string(template_name, context, using="django").rstrip("\n"))

    return SimpleNamespace(
        feeds=part("_feed_links.html"), header=part("_site_header.html"), footer=part("_site_footer.html")
    )


# The same for every page of a site: rendered once and shared by every page (the
# public pages and the admin alike), rather than written in each and rendered on every page.
_chrome = lru_cache(maxsize=8)(_render_chrome)


def site(request: HttpRequest) -> dict[str, Any]:
    """The site's name, base URL, the links every page carries (the 404 page included) and the
    frame around every page's own content: the site feeds, header and footer."""
    urlconf, static_url = get_urlconf() or settings.ROOT_URLCONF, settings.STATIC_URL
    # Rendered again for every page while templates reload (DEBUG), so an edit shows at once.
    chrome = _render_chrome if settings.DEBUG else _chrome
    return {
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "links": _site_links(urlconf, static_url),
        "chrome": chrome(settings.SITE_NAME, urlconf, static_url),
    }
