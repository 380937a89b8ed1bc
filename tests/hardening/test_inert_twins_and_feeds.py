"""What a writer types into a story never becomes script, an image or an active link in its
Markdown twin or its feeds, whichever renderer reads them; nor does a newline in a one-line
field start a heading."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from django.utils import timezone
from markdown_it import MarkdownIt

from public.pages import _markdown, _text
from stories.models import Correction, Image, ListItem, RelatedLink, Story
from tests.factories import CiteFactory, KeyFactFactory, ParagraphFactory, SectionFactory, StoryFactory, publish_story

PAYLOAD = '<script>alert(1)</script> <img src=x onerror="alert(2)"> [click](javascript:alert(3))'
# Paragraphs are Markdown: every way CommonMark spells a link or an image too.
PARAGRAPH = (
    f"{PAYLOAD}\n\n"
    "<javascript:alert(4)> [ent](jav&#x61;script:alert(5)) [up](JAVASCRIPT:alert(6)) "
    "![pic](https://evil.example/x.png) [ref] [ref][] \\[escaped](javascript:alert(7))\n\n"
    "[ref]: javascript:alert(8)\n"
    "[M1: 2000]: javascript:alert(9)"
)
SAFE_PARAGRAPH = "A fine [link](https://example.org/fine) and <https://example.org/auto>."


class Elements(HTMLParser):
    """Every element and attribute of an HTML text."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(name, value or "") for name, value in attrs]


def assert_inert(html: str) -> Elements:
    found = Elements(html)
    assert "script" not in found.tags
    assert "img" not in found.tags
    assert not [name for name, _ in found.attrs if name.startswith("on")]
    hrefs = [value for name, value in found.attrs if name in ("href", "src")]
    assert all(href.startswith(("https://", "http://")) for href in hrefs), hrefs
    return found


# CommonMark as GitHub, editors and most static-site tools render it: raw HTML passed through.
def rendered(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": True}).render(markdown)


@pytest.fixture
def hostile_story(db, site_url) -> Story:
    story = StoryFactory(
        status=Story.Status.DRAFT,
        headline=f"Headline {PAYLOAD}",
        dek=f"A dek\n# Injected heading\n\n- injected item\n{PAYLOAD}",
        published_at=timezone.now() - dt.timedelta(hours=1),
    )
    KeyFactFactory(story=story, position=0, text=f"1. Fact\n## Fact heading {PAYLOAD}")
    section = SectionFactory(story=story, position=0, heading=f"Heading {PAYLOAD}\n# Another")
    paragraph = ParagraphFactory(section=section, story=story, position=0, markdown=PARAGRAPH)
    # Ids may hold any character but spaces, "/", "?" and "#".
    CiteFactory(paragraph=paragraph, story=story, position=0, claim_ids=["<img\tsrc=x\tonerror=alert(12)>"])
    ParagraphFactory(section=section, story=story, position=1, markdown=SAFE_PARAGRAPH)
    for position, kind in enumerate(ListItem.Kind.values):
        ListItem.objects.create(story=story, kind=kind, position=position, text=f"> {kind} {PAYLOAD}")
    Correction.objects.create(
        story=story, position=0, published_at=timezone.now() - dt.timedelta(minutes=5), text=f"Fixed\n# {PAYLOAD}"
    )
    RelatedLink.objects.create(
        story=story,
        position=0,
        url="https://example.org/x><img/src=x/onerror=alert(10)>",
        headline=f"Related {PAYLOAD}](javascript:alert(11))",
        slug="related",
    )
    Image.objects.create(story=story, position=0, url="https://example.org/i.png", alt=PAYLOAD, caption=PAYLOAD)
    return publish_story(story)


def test_a_twin_of_a_story_carrying_every_payload_is_inert(client, hostile_story):
    response = client.get(hostile_story.get_absolute_url() + "index.md")
    assert response.status_code == 200
    twin = response.content.decode()

    html = rendered(twin)

    found = assert_inert(html)
    assert found.tags.count("h1") == 1  # the headline's alone: no newline started another
    assert "Injected heading" not in "".join(line for line in html.splitlines() if line.startswith("<h"))
    assert "<h2>Another</h2>" not in html
    assert "<h2>Fact heading" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # what was typed, shown as text
    assert 'href="https://example.org/fine"' in html  # a plain web link is still a link...
    assert 'href="https://example.org/auto"' in html  # ...in a paragraph with no unsafe one
    # The related link's address cannot end its "(…)" early.
    assert 'href="https://example.org/x%3E%3Cimg/src=x/onerror=alert%2810%29%3E"' in html


def test_the_twin_shows_the_words_as_typed_and_the_page_does(client, hostile_story):
    twin = client.get(hostile_story.get_absolute_url() + "index.md").content.decode()
    text = Elements(rendered(twin))

    assert "\n# Headline &lt;script>alert(1)&lt;/script> &lt;img src=x" in twin
    assert "\nA dek # Injected heading - injected item &lt;script>" in twin
    assert "\n- 1\\. Fact ## Fact heading &lt;script>" in twin
    assert "\\[click\\](javascript:alert(3))" in twin
    assert text.tags  # rendered, not refused


@pytest.mark.parametrize(
    ("typed", "twin"),
    [
        ("# heading", "\\# heading"),
        ("> quote", "\\> quote"),
        ("- item", "\\- item"),
        ("12. item", "12\\. item"),
        ("2026) year", "2026\\) year"),
        ("a\n===", "a ==="),
        ("back\\slash [x]", "back\\\\slash \\[x\\]"),
        ("<b>bold</b>", "&lt;b>bold&lt;/b>"),
    ],
)
def test_a_plain_text_field_is_one_inert_line(typed, twin):
    assert _text(typed) == twin


def test_markdown_with_only_safe_links_is_kept_as_written():
    written = "Some *emphasis*, a [link](https://example.org/) and `code`.\n\n- a list\n- of two"

    assert _markdown(written) == written


def test_a_reference_definition_cannot_turn_citation_markers_into_links():
    twin = _markdown("Text.\n\n[M1: 2000]: https://evil.example/")

    assert "<a" not in rendered(twin + "\n\n[M1: 2000]")


@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_a_feed_of_a_story_carrying_every_payload_carries_only_safe_html(client, hostile_story, path):
    response = client.get(path)
    assert response.status_code == 200
    root = ET.fromstring(response.content)

    if path == "/rss.xml":
        descriptions = [item.findtext("description") for item in root.iter("item")]
    else:
        summaries = root.iter("{http://www.w3.org/2005/Atom}summary")
        descriptions = [summary.text for summary in summaries if summary.get("type") == "html"]
    assert len(descriptions) == 1
    description = descriptions[0]  # the HTML a feed reader renders

    found = assert_inert(description)
    # The dek is plain text, given as HTML text; the only tags are the label's own paragraph.
    assert set(found.tags) <= {"p", "strong"}
    # The fixture publishes without checks: the feed says so, with the reason.
    assert "Published without server-side checks. The reason: test fixture" in text_of(description)
    assert "<script>alert(1)</script>" in text_of(description)  # shown as typed


def text_of(html: str) -> str:
    parts: list[str] = []
    parser = HTMLParser(convert_charrefs=True)
    parser.handle_data = parts.append
    parser.feed(html)
    return "".join(parts)


def test_a_heading_written_in_a_paragraph_reads_as_text_as_on_the_page():
    twin = _markdown("Intro\n# Injected\n\n- ## in a list\n\nUnder\n===\n\n```sh\n# a shell comment\n```")

    html = rendered(twin)

    assert not [tag for tag in Elements(html).tags if tag in ("h1", "h2", "h3", "h4", "h5", "h6")]
    assert "# Injected" in html
    assert '<code class="language-sh"># a shell comment\n</code>' in html  # code is left as written
