"""Filters for the plain-text pages (llms.txt): keep a writer's text on one Markdown line."""

import re

from django import template

register = template.Library()


@register.filter
def oneline(value: object) -> str:
    """Whitespace collapsed, and the brackets that would end a Markdown link text escaped."""
    text = re.sub(r"\s+", " ", str(value)).strip()
    return text.replace("[", "\\[").replace("]", "\\]")
