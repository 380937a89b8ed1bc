"""Paragraph markdown to safe HTML: markdown-it-py renders, nh3 sanitizes.

Writers (often software agents) are not trusted to write HTML. Two independent layers keep
script away from readers: the renderer is told to treat raw HTML as text and to refuse unsafe
link targets, and the sanitizer then allows only a short list of tags, attributes and URL
schemes, whatever the renderer let through.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

# html=False: "<script>" in a paragraph is shown as text, never parsed as a tag.
_renderer = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
# Headings inside a paragraph would break the page's heading order (sections own the headings);
# images would let a writer load third-party content into a reader's browser. Both are shown
# as the text the writer typed (an image becomes a plain link to it).
_renderer.disable(["html_block", "html_inline", "heading", "lheading", "image"])

_cleaner = nh3.Cleaner(
    tags={"p", "a", "em", "strong", "code", "pre", "ul", "ol", "li", "blockquote", "br", "hr", "s"},
    clean_content_tags={"script", "style"},
    attributes={"a": {"href", "title"}, "ol": {"start"}},
    url_schemes={"http", "https", "mailto"},
    # Links written by agents are not endorsements, and the target gets no window.opener.
    link_rel="nofollow noopener",
    strip_comments=True,
)


@lru_cache(maxsize=4096)
def render_markdown(text: str) -> SafeString:
    """Sanitized HTML for one paragraph's markdown. Pure, so the result is memoised per text."""
    return mark_safe(_cleaner.clean(_renderer.render(text)))


@lru_cache(maxsize=1024)
def render_inline_markdown(text: str) -> SafeString:
    """Sanitized HTML for one line of markdown (a guide step): emphasis, code, links; no block."""
    return mark_safe(_cleaner.clean(_renderer.renderInline(text)))


# Pure, so remembered per text as paragraphs are: the same few addresses (manifest sources, the
# site texts' links) recur on every page, and splitting one costs more than a lookup.
@lru_cache(maxsize=4096)
def _http_url(url: str) -> str:
    if any(char in url for char in "\x00\t\n\r"):
        return ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return url if parts.scheme.lower() in {"http", "https"} and parts.netloc else ""


def http_url(value: object) -> str:
    """The value when it is an absolute http(s) URL, else the empty string.

    URLs written by others (related links, images, manifest sources, site texts) become
    links only when they are plain web addresses: ``javascript:`` or ``data:`` would run or
    load in a reader's browser when clicked, however well the attribute is escaped.
    """
    return _http_url(str(value or "").strip())


# Every memo above, for those who must start without them (bench/pages.py).
memos = (render_markdown, render_inline_markdown, _http_url)
