"""Home, newsroom, beat and edition pages list published stories, page by page, each with a
JSON twin."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from stories.models import Story
from tests.factories import BeatFactory, EditionFactory, NewsroomFactory, StoryFactory, publish_story

from .html import parse
from .routes import BEAT, EDITION, NEWSROOM


def published(**fields) -> Story:
    """A story published through the gate: a story's rows alone are never listed."""
    return publish_story(StoryFactory(status=Story.Status.DRAFT, **fields))


def headlines(node) -> list[str]:
    return [h3.text for h3 in node.find_all("h3", **{"class": "story-card-title"})]


def test_home_shows_the_latest_edition_first_then_earlier_stories(client, demo):
    page = parse(client.get("/").content)

    latest = page.by_id("latest-edition")
    assert latest.find("a").attrs["href"] == "/editions/2026-10-20T00/"
    sections = page.find_all("section", **{"class": "listing"})
    assert headlines(sections[0]) == [demo["agentic-rl-production"].headline]
    assert headlines(sections[1]) == [demo["agent-training-stack"].headline]


def test_home_json_twin_lists_the_same_stories_with_their_links(client, demo):
    data = json.loads(client.get("/index.json").content)

    assert data["type"] == "home"
    assert data["latest_edition"]["id"] == "2026-10-20T00"
    assert [s["slug"] for s in data["latest_edition"]["stories"]] == ["agentic-rl-production"]
    [story] = data["stories"]
    assert story["slug"] == "agent-training-stack"
    assert story["url"] == "https://hangingcontext.com/stories/2026-10-16/agent-training-stack/"
    assert story["links"]["markdown"] == story["url"] + "index.md"
    assert story["labels"] == {"trust": "reported", "trust_text": "Reported · 4 sources"}
    assert data["links"]["rss"] == "https://hangingcontext.com/rss.xml"


def test_newsroom_page_lists_its_stories_newest_first_with_trust_labels_and_beats(client, demo):
    page = parse(client.get(NEWSROOM).content)

    assert page.find("h1").text == "Artificial Intelligence"
    assert headlines(page) == [demo["agentic-rl-production"].headline, demo["agent-training-stack"].headline]
    labels = [span.text for span in page.find_all("span", **{"class": "trust trust-confirmed"})]
    assert labels == ["Confirmed · 5 sources"]
    assert page.find("nav", **{"aria-label": "Beats"}).find("a").attrs["href"] == BEAT


def test_newsroom_and_beat_json_twins(client, demo):
    newsroom = json.loads(client.get(NEWSROOM + "index.json").content)
    beat = json.loads(client.get(BEAT + "index.json").content)

    assert newsroom["type"] == "newsroom"
    assert newsroom["beats"] == [{"slug": "research", "title": "Research", "url": "https://hangingcontext.com" + BEAT}]
    assert [s["slug"] for s in newsroom["stories"]] == ["agentic-rl-production", "agent-training-stack"]
    assert beat["type"] == "beat"
    assert beat["links"]["atom"] == "https://hangingcontext.com" + BEAT + "atom.xml"
    assert [s["slug"] for s in beat["stories"]] == ["agentic-rl-production", "agent-training-stack"]


def test_beat_page_lists_only_its_beat(client, demo):
    other = BeatFactory(newsroom=demo["agent-training-stack"].newsroom, slug="policy", title="Policy")
    published(newsroom=other.newsroom, beat=other, headline="A policy story")

    assert "A policy story" not in client.get(BEAT).content.decode()
    assert "A policy story" in client.get("/n/artificial-intelligence/policy/").content.decode()


def test_edition_page_groups_its_stories_by_newsroom(client, demo):
    edition = demo["agent-training-stack"].edition
    climate = NewsroomFactory(slug="climate", title="Climate")
    published(newsroom=climate, edition=edition, headline="Sea ice at a low")

    page = parse(client.get(EDITION).content)
    data = json.loads(client.get(EDITION + "index.json").content)

    groups = page.find_all("section", **{"class": "listing"})
    assert [group.find("h2").text for group in groups] == ["Artificial Intelligence", "Climate"]
    assert headlines(groups[1]) == ["Sea ice at a low"]
    assert [(group["slug"], len(group["story_ids"])) for group in data["newsrooms"]] == [
        ("artificial-intelligence", 1),
        ("climate", 1),
    ]


def test_listings_are_paginated_and_a_page_that_is_not_there_is_404(client, demo):
    newsroom = demo["agent-training-stack"].newsroom
    beat = demo["agent-training-stack"].beat
    start = timezone.now() - dt.timedelta(days=1)
    for number in range(25):
        published(
            newsroom=newsroom,
            beat=beat,
            headline=f"Filler {number:02d}",
            published_at=start + dt.timedelta(minutes=number),
        )

    first = parse(client.get(NEWSROOM).content)
    second = parse(client.get(NEWSROOM + "?page=2").content)
    data = json.loads(client.get(NEWSROOM + "index.json?page=2").content)

    assert len(headlines(first)) == 20
    assert headlines(first)[0] == "Filler 24"
    assert len(headlines(second)) == 7
    assert first.find("a", rel="next").attrs["href"] == "?page=2"
    assert data["page"] == 2
    assert data["pages"] == 2
    assert data["count"] == 27
    assert data["next"] is None
    assert data["previous"] == "https://hangingcontext.com" + NEWSROOM + "index.json?page=1"
    for bad in ("?page=3", "?page=0", "?page=abc"):
        assert client.get(NEWSROOM + bad).status_code == 404


@pytest.mark.parametrize("path", ["/n/nowhere/", "/n/artificial-intelligence/nothing/", "/editions/2030-01-01T00/"])
def test_unknown_newsrooms_beats_and_editions_are_404(client, demo, path):
    assert client.get(path).status_code == 404
    assert client.get(path + "index.json").status_code == 404


def test_reuse_terms_for_people_and_machines(client, demo):
    page = parse(client.get("/terms/reuse/").content)
    data = json.loads(client.get("/.well-known/reuse.json").content)

    assert page.find("h1").text == "Reuse terms"
    assert "Hanging Context, with provenance by Synorb" in page.text
    assert data["attribution"] == "Hanging Context, with provenance by Synorb"
    assert data["license_url"] == "https://hangingcontext.com/terms/reuse/"


def test_home_with_no_stories_says_so(client, db):
    page = parse(client.get("/").content)

    assert page.find("p", **{"class": "empty"}).text == "No stories yet."


def test_listing_uses_an_edition_created_for_it(client, demo):
    EditionFactory(key="2026-11-02T10")
    published(
        newsroom=demo["agent-training-stack"].newsroom,
        beat=demo["agent-training-stack"].beat,
        edition_id="2026-11-02T10",
        headline="Newest edition story",
    )

    page = parse(client.get("/").content)

    assert page.by_id("latest-edition").find("a").attrs["href"] == "/editions/2026-11-02T10/"
    assert headlines(page.find_all("section", **{"class": "listing"})[0]) == ["Newest edition story"]


def test_a_story_whose_rows_say_published_is_not_listed_until_published_through_the_gate(
    client, demo, django_capture_on_commit_callbacks
):
    story = StoryFactory(
        newsroom=demo["agent-training-stack"].newsroom,
        beat=demo["agent-training-stack"].beat,
        headline="Rows alone",
        status=Story.Status.PUBLISHED,
    )

    for path in ("/", NEWSROOM, BEAT, NEWSROOM + "index.json"):
        assert "Rows alone" not in client.get(path).content.decode(), path
    assert client.get(story.get_absolute_url()).status_code == 404

    with django_capture_on_commit_callbacks(execute=True):  # the listings cached above go stale
        publish_story(story)

    for path in ("/", NEWSROOM, BEAT, NEWSROOM + "index.json"):
        assert "Rows alone" in client.get(path).content.decode(), path
