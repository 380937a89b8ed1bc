"""A filter for the XML a template writes (the news sitemap): what is stored stays well-formed."""

from django import template

from newsroom.cleantext import xml_safe

register = template.Library()


@register.filter(name="xml_safe")
def xml_safe_filter(value: object) -> str:
    """The text without the characters XML 1.0 cannot carry (a control character stored before
    the door refused them); autoescaping still applies."""
    return xml_safe(str(value))
