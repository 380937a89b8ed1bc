"""The story page shows a reader the story and the evidence it rests on."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from manifests.models import Claim
from public.pages import long_date
from stories.services import story_add_correction, version_rerender
from tests.factories import publish_story

from .conftest import AGENTIC, TRAINING, seed
from .html import parse


def test_story_page_shows_every_part_of_the_story(client, demo):
    document = seed("agent-training-stack")
    page = parse(client.get(TRAINING).content)
    article = page.find("article")

    assert page.find("h1").text == document["headline"]
    assert document["dek"] in article.find("p", **{"class": "dek"}).text
    assert page.find("span", **{"class": "trust trust-reported"}).text == "Reported · 4 sources"
    assert page.find("a", href="/n/artificial-intelligence/").text == "Artificial Intelligence"
    assert page.find("a", href="/editions/2026-10-16T00/").text == "2026-10-16T00"
    assert page.find("time", datetime="2026-10-16T00:39:10+00:00").text == "16 October 2026, 00:39 UTC"

    facts = page.find_all("li", **{"class": "key-fact"})
    assert [fact.find("span", **{"class": "fact-text"}).text for fact in facts] == [
        fact["text"] for fact in document["key_facts"]
    ]
    badges = [fact for fact in facts if fact.find_all("span", **{"class": "badge"})]
    assert len(badges) == sum(fact["self_reported"] for fact in document["key_facts"])

    headings = [h2.text for h2 in article.find_all("h2")]
    for section in document["sections"]:
        assert section["heading"] in headings
    paragraphs = [div.find("p").text for div in article.find_all("div", **{"class": "paragraph"})]
    assert paragraphs == [" ".join(p["markdown"].split()) for s in document["sections"] for p in s["paragraphs"]]

    unresolved = page.find("section", **{"class": "unresolved"})
    assert [li.text for li in unresolved.find_all("li")] == document["unresolved"]
    card = page.find("section", **{"class": "decision-card"}).text
    for texts in document["decision_card"].values():
        for text in texts:
            assert text in card
    assert "muse" in page.find("p", **{"class": "writer"}).text


def test_story_page_ledger_lists_every_cited_manifest_with_title_publisher_link_and_date(client, demo):
    document = seed("agent-training-stack")
    page = parse(client.get(TRAINING).content)
    entries = page.find_all("li", **{"class": "ledger-entry"})

    assert [entry.attrs["id"] for entry in entries] == [f"manifest-{m}" for m in document["cited_manifest_ids"]]
    for entry, manifest in zip(entries, document["manifests"], strict=True):
        link = entry.find("a")
        assert link.text == manifest["title"]
        assert link.attrs["href"] == manifest["source_url"]
        assert manifest["source_name"] in entry.text
        assert entry.find("time").attrs["datetime"] == manifest["published_date"]
        assert entry.find("time").text == long_date(dt.date.fromisoformat(manifest["published_date"]))
        assert manifest["manifest_id"] in entry.text


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (dt.date(2026, 1, 5), "5 January 2026"),
        (dt.date(2026, 10, 15), "15 October 2026"),
        (dt.date(2025, 12, 31), "31 December 2025"),
    ],
)
def test_dates_are_written_day_month_name_year_in_english(day, text):
    assert long_date(day) == text


def test_every_cite_links_to_its_manifest_in_the_ledger_and_reveals_its_claims(client, demo):
    document = seed("agent-training-stack")
    page = parse(client.get(TRAINING).content)
    ledger_ids = {entry.attrs["id"] for entry in page.find_all("li", **{"class": "ledger-entry"})}
    first = document["sections"][0]["paragraphs"][0]

    paragraph = page.find_all("div", **{"class": "paragraph"})[0]
    cites = paragraph.find_all("li", **{"class": "cite"})
    assert len(cites) == len(first["cites"])
    for cite, expected in zip(cites, first["cites"], strict=True):
        href = cite.find("a").attrs["href"]
        assert href == f"#manifest-{expected['manifest_id']}"
        assert href[1:] in ledger_ids
        claims = cite.find("details").find_all("li")
        assert [claim.find("code").text for claim in claims] == expected["claim_ids"]
    # The demo store holds claim texts: a reader can read what each claim says.
    claim = Claim.objects.get(claim_id=first["cites"][0]["claim_ids"][0])
    assert claim.text in paragraph.find("details").text


def first_claims(client) -> list:
    return parse(client.get(TRAINING).content).find_all("div", class_="paragraph")[0].find("details").find_all("li")


def test_claim_text_comes_only_from_the_manifest_the_claim_is_cited_with(
    client, demo, django_capture_on_commit_callbacks
):
    # A claim id cited with the wrong manifest must not borrow the text of its own manifest.
    story = demo["agent-training-stack"]
    cite = story.cites.filter(paragraph__isnull=False).order_by("paragraph__section__position", "paragraph__position")[
        0
    ]
    claim = Claim.objects.get(claim_id=cite.claim_ids[0])
    cite.manifest_id = "1792043738156041460"  # another manifest this story cites
    cite.save()
    # An edit of the working copy: readers still get the published cite, with its text.
    assert claim.text in first_claims(client)[0].text
    with django_capture_on_commit_callbacks(execute=True):
        publish_story(story)

    paragraph = parse(client.get(TRAINING).content).find_all("div", **{"class": "paragraph"})[0]
    claims = paragraph.find("details").find_all("li")

    assert claims[0].find("code").text == claim.claim_id
    assert claim.text not in claims[0].text
    assert "claim text not in our store" in claims[0].text


def test_page_offers_the_run_guide_sponsor_disclosure_reuse_related_and_twins(client, demo):
    document = seed("agent-training-stack")
    page = parse(client.get(TRAINING).content)

    guide = page.find("section", **{"class": "run-guide"})
    assert guide.find("h2").text == document["run_these_manifests"]["title"]
    assert [pre.text for pre in guide.find_all("pre")] == [
        " ".join(document["run_these_manifests"]["commands"][key].split()) for key in ("one", "all")
    ]
    ad = page.find("aside", **{"class": "sponsor"})
    assert ad.find("p", **{"class": "ad-label"}).text.startswith("Advertisement")
    assert ad.find("h2").text == document["sponsor"]["title"]
    assert ad.find("a").attrs["rel"] == "sponsored noopener"
    assert page.find("section", **{"class": "disclosure"}).find("p").text == document["disclosure"]
    assert document["reuse"]["attribution"] in page.find("section", **{"class": "reuse"}).text
    related = page.find("section", **{"class": "related"})
    assert [a.attrs["href"] for a in related.find_all("a")] == [link["url"] for link in document["related"]]
    forms = {a.attrs["href"] for a in page.find("nav", **{"class": "story-forms"}).find_all("a")}
    assert {document["links"]["json"], document["links"]["markdown"]} <= forms


def test_corrections_are_shown_at_the_top_and_in_full_at_the_foot(client, demo, admin_user):
    story_add_correction(story=demo["agent-training-stack"], text="The loss was misnamed.", user=admin_user)

    page = parse(client.get(TRAINING).content)

    assert "The loss was misnamed." in page.find("div", **{"class": "correction-notice"}).text
    foot = page.by_id("corrections")
    assert foot.find("h2").text == "Corrections"
    assert "The loss was misnamed." in foot.find("li").text
    # The notice sits in the header, before the key facts.
    content = client.get(TRAINING).content.decode()
    assert content.index("correction-notice") < content.index('id="key-facts"')


def test_head_has_canonical_opengraph_twitter_and_twin_alternates(client, demo):
    document = seed("agentic-rl-production")
    head = parse(client.get(AGENTIC).content).find("head")

    assert head.find("link", rel="canonical").attrs["href"] == document["url"]
    assert head.find("link", rel="alternate", type="application/json").attrs["href"] == document["links"]["json"]
    assert head.find("link", rel="alternate", type="text/markdown").attrs["href"] == document["links"]["markdown"]
    meta = {m.attrs.get("property") or m.attrs.get("name"): m.attrs.get("content") for m in head.find_all("meta")}
    assert meta["og:type"] == "article"
    assert meta["og:title"] == document["headline"]
    assert meta["og:description"] == document["dek"]
    assert meta["og:url"] == document["url"]
    assert meta["article:published_time"] == "2026-10-20T00:54:40+00:00"
    assert meta["twitter:card"] == "summary"
    assert meta["twitter:title"] == document["headline"]
    assert "robots" not in meta  # published pages are indexable


def test_json_ld_is_a_news_article_citing_every_manifest(client, demo):
    document = seed("agentic-rl-production")
    script = parse(client.get(AGENTIC).content).find("script", type="application/ld+json")
    data = json.loads(script.text)

    assert data["@type"] == "NewsArticle"
    assert data["headline"] == document["headline"]
    assert data["datePublished"] == document["published_at"]
    assert data["url"] == data["mainEntityOfPage"] == document["url"]
    assert [c["identifier"] for c in data["citation"]] == document["cited_manifest_ids"]
    assert [c["url"] for c in data["citation"]] == [m["source_url"] for m in document["manifests"]]
    assert data["license"] == document["reuse"]["license_url"]
    assert "correction" not in data


def test_json_ld_lists_corrections(client, demo, admin_user):
    correction = story_add_correction(
        story=demo["agentic-rl-production"], text="A figure was off by one.", user=admin_user
    )

    script = parse(client.get(AGENTIC).content).find("script", type="application/ld+json")
    corrections = json.loads(script.text)["correction"]

    assert corrections == [
        {
            "@type": "CorrectionComment",
            "text": "A figure was off by one.",
            "datePublished": f"{correction.published_at:%Y-%m-%dT%H:%M:%SZ}",
        }
    ]


def json_ld(client, path: str) -> dict:
    return json.loads(parse(client.get(path).content).find("script", type="application/ld+json").text)


def test_json_ld_cannot_be_closed_by_what_a_writer_types(client, demo, django_capture_on_commit_callbacks):
    story = demo["agentic-rl-production"]
    published_headline = story.headline
    story.headline = "</script><script>window.__xss=1</script><!--"
    story.save()
    assert json_ld(client, AGENTIC)["headline"] == published_headline  # not published yet
    with django_capture_on_commit_callbacks(execute=True):
        publish_story(story)

    content = client.get(AGENTIC).content.decode()
    start = content.index('<script type="application/ld+json">')
    block = content[start : content.index("</script>", start)]

    assert "<" not in block[len('<script type="application/ld+json">') :]
    assert json.loads(block.split(">", 1)[1])["headline"] == story.headline


@pytest.mark.parametrize(
    "path", ["/stories/2026-10-16/no-such-story/", "/stories/2026-02-30/agent-training-stack/", "/n/nowhere/"]
)
def test_an_unknown_address_gets_the_friendly_404_page(client, demo, path):
    response = client.get(path)

    assert response.status_code == 404
    page = parse(response.content)
    assert page.find("h1").text == "We couldn\u2019t find that page"
    assert "Read the latest stories" in [link.text for link in page.find_all("a", href="/")]


def test_a_newsroom_can_give_its_stories_their_own_template(
    client, demo, settings, tmp_path, django_capture_on_commit_callbacks
):
    # Published with the default template; the override applies when the page is rendered again.
    assert client.get(TRAINING).content.decode().startswith("<!doctype html>")
    folder = tmp_path / "stories" / "story"
    folder.mkdir(parents=True)
    (folder / "artificial-intelligence.html").write_text("Custom page for {{ document.headline }}")
    settings.TEMPLATES = [{**engine, "DIRS": [tmp_path, *engine["DIRS"]]} for engine in settings.TEMPLATES]
    with django_capture_on_commit_callbacks(execute=True):  # the page cache hears of the change
        assert version_rerender(version=demo["agent-training-stack"].live_version)

    response = client.get(TRAINING)

    assert response.content.decode() == f"Custom page for {seed('agent-training-stack')['headline']}"


def test_every_page_carries_the_same_site_header_and_footer_whenever_it_is_rendered(client, demo):
    # The story page is rendered when published, with no request; the home page per request;
    # both take the same frame (newsroom.context_processors).
    story_page, home = (parse(client.get(path).content.decode()) for path in (TRAINING, "/"))

    for landmark in ("header", "footer"):
        frame = f"site-{landmark}"
        assert story_page.find(landmark, class_=frame).text == home.find(landmark, class_=frame).text
    header, footer = story_page.find("header", class_="site-header"), story_page.find("footer", class_="site-footer")
    assert [link.attrs["href"] for link in header.find_all("a")] == ["/", "/", "/search/", "/terms/reuse/"]
    assert [link.attrs["href"] for link in footer.find_all("a")] == [
        "/rss.xml",
        "/atom.xml",
        "/sitemap.xml",
        "/llms.txt",
        "/terms/reuse/",
    ]


def test_the_site_frame_follows_the_site_name_once_pages_are_rendered_again(
    client, demo, settings, django_capture_on_commit_callbacks
):
    settings.SITE_NAME = "The Other Desk"
    # A release that changes what every page shows renders the stored pages again.
    with django_capture_on_commit_callbacks(execute=True):
        assert version_rerender(version=demo["agent-training-stack"].live_version)

    page = parse(client.get(TRAINING).content.decode())

    assert page.find("a", class_="site-name").text == "The Other Desk"
    assert page.find("footer", class_="site-footer").text.startswith("The Other Desk:")
    assert page.find("link", type="application/rss+xml").attrs["title"] == "The Other Desk: latest stories (RSS)"
