"""A story page is rendered when it is published, never per request: on a cold page cache a
reader's request costs one query (the stored artifact), whatever the story's size, and none
once the page is cached."""

from __future__ import annotations

import datetime as dt

import pytest

from newsroom.pagecache import pages_changed

from .conftest import big_story
from .routes import AGENTIC, TRAINING

# The live version's stored artifact, found by its address (dateline and slug).
STORY_PAGE_QUERIES = 1
FORMS = ["", "index.json", "index.md"]


@pytest.mark.parametrize("form", FORMS)
def test_a_story_page_costs_one_query_whatever_the_story_size(client, db, site_url, django_assert_num_queries, form):
    small = big_story(sections=1, paragraphs=1, cites=1)
    large = big_story(sections=30, paragraphs=10, cites=4)  # 300 paragraphs, 1,200 cites

    for story in (small, large):
        path = story.get_absolute_url() + form
        with django_assert_num_queries(STORY_PAGE_QUERIES):
            assert client.get(path).status_code == 200
        with django_assert_num_queries(0):  # from the page cache
            assert client.get(path).status_code == 200


@pytest.mark.parametrize("path", [TRAINING, AGENTIC])
def test_a_seed_story_page_costs_one_query_on_a_cold_cache_and_none_warm(client, demo, django_assert_num_queries, path):
    with django_assert_num_queries(STORY_PAGE_QUERIES):
        first = client.get(path)
    with django_assert_num_queries(0):
        again = client.get(path)

    assert first.status_code == again.status_code == 200
    assert again.content == first.content


def test_a_stale_story_page_costs_one_query_again(client, demo, django_assert_num_queries):
    client.get(TRAINING)
    pages_changed()

    with django_assert_num_queries(STORY_PAGE_QUERIES):
        assert client.get(TRAINING).status_code == 200


def test_the_page_served_is_the_stored_artifact_byte_for_byte(client, demo):
    version = demo["agent-training-stack"].live_version

    assert client.get(TRAINING).content.decode() == version.page_html
    assert client.get(TRAINING + "index.json").content.decode() == version.document
    assert client.get(TRAINING + "index.md").content.decode() == version.markdown


def test_a_story_at_another_address_with_the_same_slug_is_not_served(client, db, site_url):
    # The address is the date and the slug together: neither alone finds a story.
    story = big_story(sections=1, paragraphs=1, cites=1)
    version = story.live_version
    day = version.dateline.isoformat()
    next_day = (version.dateline + dt.timedelta(days=1)).isoformat()

    assert client.get(f"/stories/{day}/{version.slug}/").status_code == 200
    assert client.get(f"/stories/{next_day}/{version.slug}/").status_code == 404
    assert client.get(f"/stories/{day}/other-{version.slug}/").status_code == 404
