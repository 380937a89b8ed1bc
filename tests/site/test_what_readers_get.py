"""Readers get a story's live version, on every path: an edit of its working copy shows
nowhere until a publish passes the gate; a correction and a retraction show everywhere at once."""

from __future__ import annotations

import datetime as dt
import json
import xml.etree.ElementTree as ET

import pytest

from editions.models import Edition
from newsroom.pagecache import pages_changed
from stories.models import Story
from stories.services import story_add_correction, story_retract
from tests.factories import BeatFactory, publish_story

from .html import parse
from .routes import BEAT, EDITION, LISTINGS, NEWSROOM, TRAINING

SITE = "https://hangingcontext.com"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
FORMS = [TRAINING, TRAINING + "index.json", TRAINING + "index.md"]
FEEDS = ["/rss.xml", "/atom.xml", NEWSROOM + "rss.xml", NEWSROOM + "atom.xml", BEAT + "rss.xml", BEAT + "atom.xml"]
# Everything a reader (or a reader's tool) can fetch that shows the training story.
SHOWN_ON = [*FORMS, *LISTINGS, EDITION, EDITION + "index.json", "/news-sitemap.xml", "/search/?q=optimizers"]
POLICY = "/n/artificial-intelligence/policy/"
NEW_EDITION = "/editions/2026-10-21T00/"


def contents(client, paths: list[str]) -> dict[str, tuple[int, str]]:
    responses = {path: client.get(path) for path in paths}
    return {path: (response.status_code, response.content.decode()) for path, response in responses.items()}


def sitemap_locations(client) -> list[str]:
    root = ET.fromstring(client.get("/sitemap.xml").content)
    return [url.findtext(f"{SITEMAP}loc") for url in root.iter(f"{SITEMAP}url")]


def found(client, query: str) -> list[str]:
    page = parse(client.get("/search/", {"q": query}).content)
    return [h3.text for h3 in page.find_all("h3", class_="story-card-title")]


def edit(story: Story) -> Story:
    """Edit a story's working copy everywhere a reader could notice: headline, dek, a key
    fact, a paragraph, its beat and its edition. Not published."""
    story.headline = "Quokkaflux: an edited headline"
    story.dek = "An edited dek."
    story.beat = BeatFactory(newsroom=story.newsroom, slug="policy", title="Policy")
    story.edition = Edition.objects.create(key="2026-10-21T00")
    story.save()
    fact = story.key_facts.order_by("position")[0]
    fact.text = "An edited key fact."
    fact.save()
    paragraph = story.paragraphs.order_by("section__position", "position")[0]
    paragraph.markdown = "An edited paragraph about wombatreels."
    paragraph.save()
    return story


@pytest.fixture
def edited(demo) -> Story:
    return edit(demo["agent-training-stack"])


def test_an_edit_of_the_working_copy_shows_nothing_new_on_any_path(client, demo):
    # Rendered while the story's rows still hold what was published...
    before = contents(client, SHOWN_ON)
    edit(demo["agent-training-stack"])
    # ...and rendered anew from the database after the edit: nothing comes from the page cache.
    pages_changed()
    after = contents(client, SHOWN_ON)

    assert after == before
    assert "agent-training-stack" not in client.get(POLICY).content.decode()
    assert client.get(NEW_EDITION).status_code == 404
    assert found(client, "Quokkaflux") == []
    assert found(client, "wombatreels") == []


def test_an_edit_reaches_every_path_once_published(client, demo, edited, django_capture_on_commit_callbacks):
    old_json = json.loads(client.get(TRAINING + "index.json").content)
    locations = sitemap_locations(client)

    with django_capture_on_commit_callbacks(execute=True):
        publish_story(edited)

    page = parse(client.get(TRAINING).content)
    assert page.find("h1").text == "Quokkaflux: an edited headline"
    assert "An edited key fact." in page.text
    assert "wombatreels" in page.text
    document = json.loads(client.get(TRAINING + "index.json").content)
    assert (document["headline"], document["dek"], document["beat"], document["edition"]) == (
        "Quokkaflux: an edited headline",
        "An edited dek.",
        "policy",
        "2026-10-21T00",
    )
    # The address and the first publication time stay what readers were first given.
    assert (document["url"], document["published_at"]) == (old_json["url"], old_json["published_at"])
    assert "An edited paragraph about wombatreels." in client.get(TRAINING + "index.md").content.decode()
    for path in ["/", "/index.json", NEWSROOM, NEWSROOM + "index.json", POLICY, NEW_EDITION, "/llms.txt", *FEEDS[:4]]:
        assert "Quokkaflux" in client.get(path).content.decode(), path
    # It left the beat and the edition it was in.
    assert "agent-training-stack" not in client.get(BEAT).content.decode()
    assert client.get(EDITION).status_code == 404
    assert SITE + NEW_EDITION in sitemap_locations(client)
    assert set(sitemap_locations(client)) - {SITE + NEW_EDITION, SITE + POLICY} == set(locations) - {SITE + EDITION}
    assert found(client, "wombatreels") == ["Quokkaflux: an edited headline"]


def atom_updated(client, path: str, url: str) -> dt.datetime:
    root = ET.fromstring(client.get(path).content)
    [entry] = [e for e in root.iter(f"{ATOM}entry") if e.find(f"{ATOM}link").get("href") == url]
    return dt.datetime.fromisoformat(entry.findtext(f"{ATOM}updated"))


def test_a_correction_reaches_the_page_twins_feeds_and_json_ld_at_once(
    client, demo, edited, admin_user, django_capture_on_commit_callbacks
):
    contents(client, [*FORMS, *FEEDS])  # stored in the page cache

    with django_capture_on_commit_callbacks(execute=True):
        correction = story_add_correction(story=edited, text="A benchmark was misnamed.", user=admin_user)

    content = client.get(TRAINING).content.decode()
    page = parse(content)
    assert "A benchmark was misnamed." in page.find("div", class_="correction-notice").text
    assert "A benchmark was misnamed." in page.by_id("corrections").text
    ld = json.loads(page.find("script", type="application/ld+json").text)
    assert [item["text"] for item in ld["correction"]] == ["A benchmark was misnamed."]
    document = json.loads(client.get(TRAINING + "index.json").content)
    assert [item["text"] for item in document["corrections"]] == ["A benchmark was misnamed."]
    assert "A benchmark was misnamed." in client.get(TRAINING + "index.md").content.decode()
    for path in ("/atom.xml", NEWSROOM + "atom.xml", BEAT + "atom.xml"):
        assert atom_updated(client, path, SITE + TRAINING) == correction.published_at, path
    # The correction goes onto what readers were given, not onto the unpublished edit.
    assert "Quokkaflux" not in content
    assert document["headline"] != edited.headline
    assert "agent-training-stack" in client.get(BEAT).content.decode()


def test_a_retraction_gives_410_at_once_and_the_story_leaves_every_listing(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    contents(client, SHOWN_ON)  # stored in the page cache

    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=demo["agent-training-stack"], user=admin_user, reason="Sources withdrawn.")

    for path in FORMS:
        response = client.get(path)
        assert response.status_code == 410, path
        assert "optimizers" not in response.content.decode(), path
    assert "This story has been withdrawn" in client.get(TRAINING).content.decode()
    for path in [*LISTINGS, "/news-sitemap.xml"]:
        assert "agent-training-stack" not in client.get(path).content.decode(), path
    # Its edition held nothing else.
    assert client.get(EDITION).status_code == 404
    assert client.get(EDITION + "index.json").status_code == 404
    assert found(client, "optimizers") == []
