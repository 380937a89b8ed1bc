"""Links from stored data: see ``stories.markup.http_url``."""

from django import template

from public.markup import http_url as _http_url

register = template.Library()


@register.filter
def http_url(value: object) -> str:
    """The URL when it is an absolute http(s) URL, else the empty string."""
    return _http_url(value)
