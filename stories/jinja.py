"""The Jinja2 environment for the pages rendered with Jinja2 (the story page, whose render
anew is the site's hot path); every other page, and the admin, stay on Django templates.

Autoescape is on (Django's backend sets it), and Django's ``SafeString`` passes through
unescaped as markupsafe's ``Markup`` does, so the HTML blocks of ``stories.render`` and the
sanitized markdown keep their contract. The filters are those of the Django templates.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

from .markup import http_url, render_inline_markdown


def environment(**options: Any) -> Environment:
    # As Django templates do: a page ends with the newline its template ends with.
    options.setdefault("keep_trailing_newline", True)
    env = Environment(**options)
    env.filters.update({"http_url": http_url, "inline_markdown": render_inline_markdown})
    return env
