"""Search finds published stories by the words of their live versions; on PostgreSQL through a
GIN index."""

from __future__ import annotations

import pytest
from django.db import connection

from public.search import search_versions
from stories.models import PublishedVersion, Story
from tests.factories import publish_story

from .html import parse


def found(client, query: str) -> list[str]:
    page = parse(client.get("/search/", {"q": query}).content)
    return [h3.text for h3 in page.find_all("h3", **{"class": "story-card-title"})]


def test_search_finds_a_story_by_a_word_of_its_headline(client, demo):
    assert found(client, "optimizers") == [demo["agent-training-stack"].headline]


def test_search_finds_a_story_by_words_of_its_body(client, demo):
    # "TreeOPSD" and "critic" appear only in the body of the agentic RL story.
    assert found(client, "TreeOPSD critic") == [demo["agentic-rl-production"].headline]


def test_search_needs_every_word(client, demo):
    assert found(client, "TreeOPSD optimizers") == []


def test_words_may_come_from_different_parts_of_a_story(client, demo):
    # "grows" is in the headline only, "TreeOPSD" in the body only.
    assert found(client, "grows TreeOPSD") == [demo["agentic-rl-production"].headline]


def test_a_minus_excludes_stories_with_that_word_anywhere(client, demo):
    assert found(client, "verifiable -TreeOPSD") == [demo["agent-training-stack"].headline]


def test_a_quoted_phrase_must_appear_as_written(client, demo):
    assert found(client, '"training loop"') == [demo["agent-training-stack"].headline]
    assert found(client, '"loop training"') == []


def test_exclusions_alone_find_nothing(client, demo):
    assert found(client, "-TreeOPSD") == []


def test_search_never_finds_a_story_that_is_not_published(client, hidden):
    assert found(client, "Zebracorn") == []
    assert Story.objects.filter(headline__startswith="Zebracorn").count() == len(hidden.stories)


def test_search_reads_the_live_version_not_the_working_copy(client, demo):
    story = demo["agentic-rl-production"]
    published_headline = story.headline
    section = story.sections.order_by("position")[0]
    paragraph = section.paragraphs.order_by("position")[0]
    paragraph.markdown += " Quokkaflux appears in an edit."
    paragraph.save()
    story.headline = "Wombatreel: a headline not yet published"
    story.save()

    # An edit of the working copy is not what readers get: search does not find it yet...
    assert found(client, "Quokkaflux") == []
    assert found(client, "Wombatreel") == []
    assert found(client, "TreeOPSD critic") == [published_headline]

    publish_story(story)

    # ...until it passes the gate, when the old words that left the story stop finding it.
    assert found(client, "Quokkaflux") == ["Wombatreel: a headline not yet published"]
    assert found(client, "Wombatreel") == ["Wombatreel: a headline not yet published"]
    assert found(client, "grows TreeOPSD") == []


def test_an_empty_search_shows_the_form_and_no_results(client, demo):
    page = parse(client.get("/search/").content)

    assert page.find("input", name="q").attrs["value"] == ""
    assert not page.find_all("section", **{"class": "listing"})


def test_search_pages_are_not_indexed(client, demo):
    page = parse(client.get("/search/?q=agent").content)

    assert page.find("meta", name="robots").attrs["content"] == "noindex, follow"


def test_the_query_is_shown_back_as_text(client, demo):
    content = client.get("/search/", {"q": '"><script>window.__xss=1</script>'}).content.decode()

    assert "<script>window.__xss" not in content
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in content


@pytest.mark.postgres
def test_postgres_search_stems_words_and_ignores_stop_words(require_postgres, demo):
    published = PublishedVersion.objects.live()

    # "muons" stems to "muon"; "the" and "or" are stop words, never a reason to find nothing.
    assert [s.slug for s in search_versions(published, "the muons")] == ["agent-training-stack"]
    assert [s.slug for s in search_versions(published, "or")] == []


@pytest.mark.postgres
def test_postgres_search_uses_the_gin_index(require_postgres, demo):
    with connection.cursor() as cursor:
        # Two stories are too few for the planner to prefer the search index by itself: it
        # would rather read them all, or look each up by its primary key and check its text.
        for method in ("seqscan", "indexscan", "nestloop"):
            cursor.execute(f"SET LOCAL enable_{method} = off")
    plan = search_versions(PublishedVersion.objects.live(), "verifier").explain()

    assert "version_search_vector_gin" in plan
