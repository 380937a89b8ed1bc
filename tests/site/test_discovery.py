"""Feeds, sitemaps, robots.txt and llms.txt: how readers' tools and crawlers find stories."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.utils import timezone

from stories.models import Story
from tests.factories import StoryFactory, publish_story

from .html import parse
from .routes import AGENTIC, BEAT, NEWSROOM, TRAINING

SITE = "https://hangingcontext.com"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"


def rss_links(content: bytes) -> list[str]:
    return [item.findtext("link") for item in ET.fromstring(content).iter("item")]


def atom_links(content: bytes) -> list[str]:
    return [entry.find(f"{ATOM}link").get("href") for entry in ET.fromstring(content).iter(f"{ATOM}entry")]


@pytest.mark.parametrize("prefix", ["/", NEWSROOM, BEAT])
def test_rss_and_atom_feeds_list_published_stories_newest_first_with_absolute_links(client, demo, prefix):
    expected = [SITE + AGENTIC, SITE + TRAINING]

    rss = client.get(prefix + "rss.xml")
    atom = client.get(prefix + "atom.xml")

    assert rss["Content-Type"] == "application/rss+xml; charset=utf-8"
    assert atom["Content-Type"] == "application/atom+xml; charset=utf-8"
    assert rss_links(rss.content) == expected
    assert atom_links(atom.content) == expected
    channel = ET.fromstring(rss.content).find("channel")
    assert channel.find("{http://www.w3.org/2005/Atom}link").get("href") == SITE + prefix + "rss.xml"


def test_feed_items_carry_headline_dek_date_and_categories(client, demo):
    item = ET.fromstring(client.get("/rss.xml").content).find("channel/item")

    assert item.findtext("title") == demo["agentic-rl-production"].headline
    # The dek, then what was checked on this version, as its page says it.
    assert item.findtext("description") == (
        demo["agentic-rl-production"].dek
        + "<p><strong>Checked.</strong> Every server-side check passed on this version.</p>"
    )
    assert item.findtext("pubDate") == "Tue, 20 Oct 2026 00:54:40 +0000"
    assert [c.text for c in item.findall("category")] == ["Artificial Intelligence", "Research"]


@pytest.mark.parametrize(
    ("path", "feeds"),
    [
        ("/", ["/rss.xml", "/atom.xml"]),
        (NEWSROOM, ["/rss.xml", "/atom.xml", NEWSROOM + "rss.xml", NEWSROOM + "atom.xml"]),
        (BEAT, ["/rss.xml", "/atom.xml", BEAT + "rss.xml", BEAT + "atom.xml"]),
        (TRAINING, ["/rss.xml", "/atom.xml", NEWSROOM + "rss.xml", NEWSROOM + "atom.xml"]),
    ],
)
def test_pages_advertise_their_feeds_in_the_head(client, demo, path, feeds):
    head = parse(client.get(path).content).find("head")
    advertised = [
        link.attrs["href"]
        for link in head.find_all("link", rel="alternate")
        if link.attrs["type"] in ("application/rss+xml", "application/atom+xml")
    ]

    assert advertised == feeds


def test_sitemap_lists_every_public_page_with_absolute_urls(client, demo):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    locations = [url.findtext(f"{SITEMAP}loc") for url in root.iter(f"{SITEMAP}url")]

    assert set(locations) == {
        SITE + "/",
        SITE + NEWSROOM,
        SITE + BEAT,
        SITE + "/editions/2026-10-20T00/",
        SITE + "/editions/2026-10-16T00/",
        SITE + AGENTIC,
        SITE + TRAINING,
    }


def test_news_sitemap_holds_only_the_last_two_days(client, demo):
    like = demo["agent-training-stack"]
    fresh = StoryFactory(
        newsroom=like.newsroom,
        beat=like.beat,
        headline="Fresh & new",
        published_at=timezone.now() - dt.timedelta(hours=5),
        status=Story.Status.DRAFT,
    )
    old = StoryFactory(
        newsroom=like.newsroom,
        beat=like.beat,
        headline="Three days old",
        published_at=timezone.now() - dt.timedelta(days=3),
        status=Story.Status.DRAFT,
    )
    fresh = publish_story(fresh)
    publish_story(old)

    root = ET.fromstring(client.get("/news-sitemap.xml").content)
    urls = list(root.iter(f"{SITEMAP}url"))

    assert [url.findtext(f"{SITEMAP}loc") for url in urls] == [SITE + fresh.get_absolute_url()]
    news = urls[0].find(f"{NEWS}news")
    assert news.findtext(f"{NEWS}title") == "Fresh & new"
    assert news.findtext(f"{NEWS}publication/{NEWS}name") == "Hanging Context"
    assert news.findtext(f"{NEWS}publication_date") == fresh.published_at.isoformat()


def test_robots_txt_points_at_both_sitemaps(client, demo):
    response = client.get("/robots.txt")

    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert f"Sitemap: {SITE}/sitemap.xml" in lines
    assert f"Sitemap: {SITE}/news-sitemap.xml" in lines
    assert "Disallow: /admin/" in lines


def test_llms_txt_lists_newsrooms_and_recent_stories_with_their_markdown_twins(client, demo):
    text = client.get("/llms.txt").content.decode()

    assert text.startswith("# Hanging Context\n")
    assert f"- [Artificial Intelligence]({SITE}{NEWSROOM})" in text
    assert f"- [{demo['agentic-rl-production'].headline}]({SITE}{AGENTIC}index.md)" in text
    assert f"- [{demo['agent-training-stack'].headline}]({SITE}{TRAINING}index.md)" in text
    assert text.index(AGENTIC) < text.index(TRAINING)


def test_llms_txt_keeps_a_headline_with_brackets_on_one_link_line(client, demo, django_capture_on_commit_callbacks):
    story = demo["agent-training-stack"]
    story.headline = "A [bracketed]\nheadline"
    story.save()
    assert "bracketed" not in client.get("/llms.txt").content.decode()  # not published yet
    with django_capture_on_commit_callbacks(execute=True):
        publish_story(story)

    text = client.get("/llms.txt").content.decode()

    assert f"- [A \\[bracketed\\] headline]({SITE}{TRAINING}index.md)" in text
