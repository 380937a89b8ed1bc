"""Paragraph markdown to safe HTML: markdown-it-py renders, nh3 sanitizes.

Writers (often software agents) are not trusted to write HTML. Two independent layers keep
script away from readers: the renderer is told to treat raw HTML as text and to refuse unsafe
link targets, and the sanitizer then allows only a short list of tags, attributes and URL
schemes, whatever the renderer let through.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
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


# For the Markdown twin: the same parser with every link target let through, to find them.
_link_finder = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_link_finder.validateLink = lambda url: True
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_SAFE_SCHEMES = {"http", "https", "mailto"}


def _safe_href(href: str) -> bool:
    scheme = _SCHEME.match(href)
    return scheme is None or scheme.group(1).lower() in _SAFE_SCHEMES


@lru_cache(maxsize=4096)
def has_unsafe_links(text: str) -> bool:
    """Whether markdown, rendered by any CommonMark renderer, would make a link the page does
    not: a target outside http(s) and mailto (``javascript:``, ``data:``, however it is
    spelled with entities), an image (the page shows none), or a link reference definition
    (which would turn the twin's ``[M1: …]`` citation markers into links)."""
    env: dict[str, Any] = {}
    tokens = _link_finder.parse(text, env)
    if env.get("references"):
        return True
    for token in tokens:
        for child in token.children or ():
            if child.type == "image" or (child.type == "link_open" and not _safe_href(str(child.attrs["href"]))):
                return True
    return False


_CONTAINER_MARKS = re.compile(r"(?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])*")


def without_headings(text: str) -> str:
    """The markdown with each heading's marker escaped (``\\# …``, an underline ``\\===``):
    the page shows a heading written in a paragraph as text, and in the twin it would break the
    order of the story's own headings. Lines in code blocks are left as they are."""
    lines = text.split("\n")
    for token in _link_finder.parse(text):
        if token.type != "heading_open" or token.map is None:
            continue
        start, end = token.map
        # ATX: the first "#" of the first line; setext: the underline, the block's last line.
        at = start if token.markup.startswith("#") else end - 1
        line = lines[at]
        marker = _CONTAINER_MARKS.match(line).end()  # after indentation, quote and list marks
        lines[at] = line[:marker] + "\\" + line[marker:]
    return "\n".join(lines)


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
memos = (render_markdown, render_inline_markdown, _http_url, has_unsafe_links)
