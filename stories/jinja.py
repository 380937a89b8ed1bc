"""The Jinja2 environment for the pages rendered with Jinja2 (the story page, whose render
anew is the site's hot path); every other page, and the admin, stay on Django templates.

Autoescape is on (Django's backend sets it), and Django's ``SafeString`` passes through
unescaped as markupsafe's ``Markup`` does, so the HTML blocks of ``stories.render`` and the
sanitized markdown keep their contract. The filters are those of the Django templates.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template import engines
from django.template.backends.jinja2 import Jinja2, Template
from django.template.loader import select_template

from jinja2 import Environment

from .markup import http_url, render_inline_markdown

ENGINE = "jinja2"


def environment(**options: Any) -> Environment:
    # As Django templates do: a page ends with the newline its template ends with.
    options.setdefault("keep_trailing_newline", True)
    env = Environment(**options)
    env.filters.update({"http_url": http_url, "inline_markdown": render_inline_markdown})
    return env


@lru_cache(maxsize=1024)
def _select(engine: Jinja2, names: tuple[str, ...]) -> Template:
    return select_template(list(names), using=ENGINE)


def page_template(names: list[str]) -> Template:
    """The first of ``names`` that exists, for a page that names per-object overrides first.

    Remembered, misses included, while templates do not reload (DEBUG off), as Django's cached
    template loader does: otherwise each render of a story page asks the disk for the override
    templates that are not there.
    """
    engine = engines[ENGINE]
    if engine.env.auto_reload:
        return select_template(names, using=ENGINE)
    # The engine is part of the key: tests that change TEMPLATES get new engines.
    return _select(engine, tuple(names))
