"""A story whose every text field holds known XSS payloads, rendered in a real browser:
no script runs and no payload becomes an element or an attribute.

The page's Content-Security-Policy would block injected scripts by itself, so the browser
here ignores it: this test proves the escaping and sanitizing, not the policy."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from editions.models import Edition
from manifests.models import Claim, Manifest
from newsroom.models import Beat, Disclosure, Newsroom, ReuseTerms, RunGuide, SponsorAd
from stories.models import Cite, Correction, Image, KeyFact, ListItem, Paragraph, RelatedLink, Section, Story
from tests.factories import publish_story

from .conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every payload sets window.__xss or calls alert() if it ever runs, and carries data-xss or
# an on* attribute if it ever becomes an element.
PAYLOADS = [
    "<script>window.__xss=1</script>",
    '<img src=x onerror="window.__xss=1" data-xss>',
    "<svg onload=window.__xss=1 data-xss><script>alert(1)</script></svg>",
    '"><script>window.__xss=1</script>',
    "'><img src=x onerror=alert(1) data-xss>",
    '<a href="javascript:window.__xss=1" data-xss>click me</a>',
    '<iframe src="javascript:window.__xss=1" data-xss></iframe>',
    "</title></textarea></style></script><script>window.__xss=1</script>",
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1 data-xss>",
    '<details open ontoggle="window.__xss=1" data-xss>',
    '<object data="javascript:window.__xss=1" data-xss></object>',
    "[markdown link](javascript:window.__xss=1)",
    "[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
    '![markdown image](x" onerror="window.__xss=1)',
    "[ref link][r]\n\n[r]: javascript:window.__xss=1",
    "<javascript:window.__xss=1>",
    "&lt;script&gt;window.__xss=1&lt;/script&gt; &#60;img src=x onerror=window.__xss=1&#62;",
    "{{ request }} {% now 'Y' %}",
]
TEXT = " ".join(PAYLOADS)
BAD_URL = "javascript:window.__xss=1"


def fitted(model: type, **values: object) -> dict[str, object]:
    """The values, each text cut to its column's length: PostgreSQL refuses longer ones, and a
    cut payload is as good an attack string as a whole one."""
    for name, value in values.items():
        max_length = getattr(model._meta.get_field(name), "max_length", None)
        if isinstance(value, str) and max_length and len(value) > max_length:
            values[name] = value[:max_length]
    return values


FIND_INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    if (el.hasAttribute('data-xss')) found.push('data-xss on <' + el.tagName + '>');
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(attr.name + ' on <' + el.tagName + '>');
      if (/^(href|src|action|formaction|data|xlink:href)$/.test(attr.name)
          && /^\\s*(javascript|data|vbscript):/i.test(attr.value)) {
        found.push(attr.name + '="' + attr.value + '" on <' + el.tagName + '>');
      }
    }
  }
  const forbidden = 'iframe, object, embed, svg, math, img, style, textarea, form:not(.search-form), ' +
    'script:not([type="application/ld+json"])';
  for (const el of document.querySelectorAll(forbidden)) found.push('element <' + el.tagName + '>');
  return found;
}"""


@pytest.fixture
def payload_story(transactional_db) -> Story:
    """A story published through the gate, its newsroom, beat, edition, manifests, claims and site texts, all
    written by an attacker. A fixture, so it is in the database before the browser opens."""
    now = timezone.now()
    newsroom = Newsroom.objects.create(**fitted(Newsroom, slug="xss-room", title=TEXT, description=TEXT))
    beat = Beat.objects.create(**fitted(Beat, newsroom=newsroom, slug="xss-beat", title=TEXT, description=TEXT))
    edition = Edition.objects.create(**fitted(Edition, key=now.strftime("%Y-%m-%dT%H"), title=TEXT))
    manifest = Manifest.objects.create(
        **fitted(
            Manifest, manifest_id="7001", title=TEXT, source_name=TEXT, source_url=BAD_URL, published_date=now.date()
        )
    )
    Claim.objects.create(**fitted(Claim, manifest=manifest, claim_id="8001", position=0, text=TEXT))
    texts = {
        "disclosure": Disclosure.objects.create(
            **fitted(Disclosure, text=TEXT, effective_from=now - dt.timedelta(days=1))
        ),
        "reuse_terms": ReuseTerms.objects.create(
            **fitted(
                ReuseTerms,
                version="1",
                summary=TEXT,
                attribution=TEXT,
                link_rule=TEXT,
                keep_ids_rule=TEXT,
                no_endorsement=TEXT,
                effective_from=now - dt.timedelta(days=1),
            )
        ),
        "run_guide": RunGuide.objects.create(
            **fitted(
                RunGuide,
                title=TEXT,
                summary=TEXT,
                steps=[{"n": 1, "title": TEXT, "text": TEXT}],
                mcp_url=BAD_URL,
                connect_url=BAD_URL,
                request_url_template=TEXT + "{manifest_id}",
                request_headers=[["Authorization", TEXT]],
                effective_from=now - dt.timedelta(days=1),
            )
        ),
        "sponsor": SponsorAd.objects.create(
            **fitted(
                SponsorAd,
                label=TEXT,
                title=TEXT,
                text=TEXT,
                cta_label=TEXT,
                cta_url=BAD_URL,
                note=TEXT,
                effective_from=now - dt.timedelta(days=1),
            )
        ),
    }
    story = Story.objects.create(
        **fitted(
            Story,
            desk_id=666,
            slug="xss",
            dateline=now.date(),
            status=Story.Status.DRAFT,
            published_at=now - dt.timedelta(minutes=5),
            newsroom=newsroom,
            beat=beat,
            edition=edition,
            audience=TEXT,
            angle=TEXT,
            headline=TEXT,
            dek=TEXT,
            writer_agent=TEXT,
            writer_run_id=TEXT,
            **texts,
        )
    )
    fact = KeyFact.objects.create(**fitted(KeyFact, story=story, position=0, text=TEXT, self_reported=True))
    Cite.objects.create(
        **fitted(Cite, story=story, key_fact=fact, position=0, manifest_id="7001", claim_ids=["8001", TEXT[:90]])
    )
    for position, payload in enumerate(PAYLOADS):
        section = Section.objects.create(**fitted(Section, story=story, position=position, heading=payload))
        paragraph = Paragraph.objects.create(
            **fitted(Paragraph, story=story, section=section, position=0, markdown=payload)
        )
        Cite.objects.create(
            **fitted(Cite, story=story, paragraph=paragraph, position=0, manifest_id="7001", claim_ids=["8001"])
        )
    Paragraph.objects.create(**fitted(Paragraph, story=story, section=section, position=1, markdown=TEXT))
    Image.objects.create(
        **fitted(Image, story=story, position=0, url=BAD_URL, alt=TEXT, caption=TEXT, credit=TEXT[:300])
    )
    Image.objects.create(
        **fitted(Image, story=story, position=1, url="data:image/svg+xml,<svg onload=alert(1)>", alt=TEXT)
    )
    for position, kind in enumerate(ListItem.Kind.values):
        ListItem.objects.create(**fitted(ListItem, story=story, kind=kind, position=position, text=TEXT))
    Correction.objects.create(**fitted(Correction, story=story, position=0, published_at=now, text=TEXT))
    RelatedLink.objects.create(**fitted(RelatedLink, story=story, position=0, url=BAD_URL, headline=TEXT, slug="x"))
    # Readers get what the gate froze: the page is rendered from these rows when published.
    publish_story(story)
    # With what the test reads of it loaded now: once the browser is open, no query may run.
    return Story.objects.select_related("newsroom", "beat", "edition").get(pk=story.pk)


def test_no_payload_runs_or_becomes_markup_on_any_page(payload_story, browser):
    story = payload_story
    url = story.get_absolute_url()
    pages = [
        url,
        "/",
        story.newsroom.get_absolute_url(),
        f"/n/{story.newsroom.slug}/{story.beat.slug}/",
        story.edition.get_absolute_url(),
        "/search/?q=" + "script",
        "/terms/reuse/",
    ]
    findings = {}
    for path in pages:
        page = browser.page(bypass_csp=True)
        response = page.goto(browser.url(path))
        assert response.status == 200, path
        page.wait_for_load_state("load")
        ran = page.evaluate("() => window.__xss")
        injected = page.evaluate(FIND_INJECTED)
        if ran or injected:
            findings[path] = {"ran": ran, "injected": injected}
        if path == url:
            screenshot(page, "xss-story-desktop")
            # The payloads are shown to the reader as the text that was written.
            assert "<script>window.__xss=1</script>" in page.locator("h1").inner_text()
            assert "[markdown link](javascript:window.__xss=1)" in page.locator(".story-body").inner_text()
            # The JSON-LD block was not broken out of and still holds the headline intact.
            ld = json.loads(page.locator('script[type="application/ld+json"]').text_content())
            assert ld["headline"] == fitted(Story, headline=TEXT)["headline"]
        page.context.close()

    assert findings == {}
    assert browser.dialogs == []
    assert browser.console_errors == []


def test_the_twins_of_a_payload_story_are_inert_text(payload_story, browser):
    story = payload_story
    for suffix, kind in (("index.json", "application/json"), ("index.md", "text/markdown; charset=utf-8")):
        page = browser.page(bypass_csp=True)
        response = page.goto(browser.url(story.get_absolute_url() + suffix))
        assert response.headers["content-type"] == kind
        assert page.evaluate("() => window.__xss") is None
        page.context.close()

    assert browser.dialogs == []
