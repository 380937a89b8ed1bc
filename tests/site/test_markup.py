"""Paragraph markdown becomes HTML that cannot carry script; stored text is shown as text."""

from __future__ import annotations

import pytest

from manifests.models import Claim
from public.markup import http_url, render_markdown
from tests.factories import publish_story

from .html import parse
from .routes import TRAINING


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


def test_a_claim_text_with_quotes_and_script_is_shown_as_text_on_the_page(client, demo):
    # The cites put stored text between tags; the story page puts text inside quoted
    # attributes too (meta tags): every special character must come out escaped.
    payload = """<img src=x onerror='a'> "q" & b <script>window.__xss=1</script>"""
    story = demo["agent-training-stack"]
    cite = story.cites.filter(paragraph__isnull=False).order_by("paragraph__section__position", "paragraph__position")[
        0
    ]
    Claim.objects.filter(manifest__manifest_id=cite.manifest_id, claim_id=cite.claim_ids[0]).update(text=payload)
    story.headline = 'A "quoted" <b>headline</b>'
    story.save()
    publish_story(story)  # the page is rendered when published, with the store's claim texts

    content = client.get(TRAINING).content.decode()
    page = parse(content)

    assert "<img" not in content
    assert "<script>window.__xss" not in content
    assert "<b>headline" not in content
    assert "&lt;img src=x onerror=&#x27;a&#x27;&gt; &quot;q&quot; &amp; b &lt;script&gt;" in content
    claims = page.find_all("div", class_="paragraph")[0].find("details").find_all("li")
    assert claims[0].text == f"{cite.claim_ids[0]} {payload}"
    meta = {m.attrs.get("property"): m.attrs.get("content") for m in page.find("head").find_all("meta")}
    assert meta["og:title"] == 'A "quoted" <b>headline</b>'
