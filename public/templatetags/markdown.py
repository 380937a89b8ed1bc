from django import template
from django.utils.safestring import SafeString

from public.markup import render_inline_markdown

register = template.Library()


@register.filter
def inline_markdown(value: object) -> SafeString:
    """One line of markdown as sanitized HTML (see ``stories.markup``)."""
    return render_inline_markdown(str(value))
