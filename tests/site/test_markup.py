"""Paragraph markdown becomes HTML that cannot carry script."""

from __future__ import annotations

import pytest

from stories.markup import http_url, render_markdown
from stories.pages import CitedClaim, CiteLink
from stories.render import escape, render_cites


def test_markdown_formatting_and_links_are_kept_with_nofollow_noopener():
    html = render_markdown('Some **bold**, *em* and `code`; see [the paper](https://example.org/p "Paper").')

    assert "<strong>bold</strong>" in html
    assert "<em>em</em>" in html
    assert "<code>code</code>" in html
    assert '<a href="https://example.org/p" title="Paper" rel="nofollow noopener">the paper</a>' in html


@pytest.mark.parametrize(
    "markdown",
    [
        "<script>window.__xss=1</script>",
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)><circle/></svg>",
        '<a href="javascript:alert(1)">x</a>',
        "<iframe src=https://evil.example></iframe>",
        "<div style='background:url(javascript:alert(1))'>x</div>",
    ],
)
def test_raw_html_is_shown_as_text_never_as_markup(markdown):
    html = render_markdown(markdown)

    assert "<" + markdown[1:4] not in html
    assert "&lt;" in html


@pytest.mark.parametrize(
    "markdown",
    [
        "[click](javascript:alert(1))",
        "[click](JAVASCRIPT:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[click](vbscript:msgbox(1))",
        "<javascript:alert(1)>",
        "[click][ref]\n\n[ref]: javascript:alert(1)",
    ],
)
def test_links_to_script_or_data_urls_are_not_links(markdown):
    html = render_markdown(markdown)

    assert "<a" not in html
    assert "href" not in html


def test_an_image_is_a_plain_link_never_an_image_in_the_page():
    html = render_markdown("![tracker](https://tracker.example/pixel.gif)")

    assert "<img" not in html
    assert '<a href="https://tracker.example/pixel.gif" rel="nofollow noopener">tracker</a>' in html


def test_a_heading_in_a_paragraph_stays_text_so_sections_own_the_headings():
    html = render_markdown("# Not a heading\n\nBody")

    assert "<h1" not in html
    assert "<p># Not a heading</p>" in html


def test_entities_stay_text():
    html = render_markdown("&lt;script&gt;alert(1)&lt;/script&gt; &#60;b&#62;")

    assert "<script" not in html
    assert "<b>" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.org/a?b=c", "https://example.org/a?b=c"),
        ("http://example.org", "http://example.org"),
        ("javascript:alert(1)", ""),
        (" JavaScript:alert(1)", ""),
        ("data:text/html,<script>", ""),
        ("//evil.example/x", ""),
        ("/relative/path", ""),
        ("https://example.org/\nx", ""),
    ],
)
def test_only_absolute_web_addresses_from_stored_data_become_links(url, expected):
    assert http_url(url) == expected


def test_stored_text_written_into_a_block_is_escaped_for_elements_and_attributes():
    # The story page's blocks put stored text both between tags and inside quoted attributes,
    # so all five characters must be escaped, quotes of either kind included.
    payload = """<img src=x onerror='a'> "q" & b"""

    escaped = escape(payload)

    assert escaped == "&lt;img src=x onerror=&#39;a&#39;&gt; &#34;q&#34; &amp; b"
    assert type(escaped) is str  # a plain text, which the block then marks safe as a whole
    cites = render_cites([CiteLink('m"1', 1, [CitedClaim("c1", payload)])])
    assert 'href="#manifest-m&#34;1"' in cites
    assert "<img" not in cites
    assert escaped in cites
