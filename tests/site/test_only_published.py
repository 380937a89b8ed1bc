"""Only published stories reach readers, on every route; editors can preview the rest."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from stories.models import Story

from .routes import EDITION, PUBLIC_ROUTES


def twins(story: Story) -> list[str]:
    url = story.get_absolute_url()
    return [url, url + "index.json", url + "index.md"]


@pytest.mark.parametrize("path", PUBLIC_ROUTES)
def test_no_route_shows_a_story_that_is_not_published(client, hidden, path):
    response = client.get(path)

    assert response.status_code == 200
    content = response.content.decode()
    for marker in hidden.markers:  # each hidden story's headline, also in its dek and body
        assert marker not in content


@pytest.mark.parametrize("path", ["/", "/n/artificial-intelligence/", EDITION, "/rss.xml", "/sitemap.xml", "/llms.txt"])
def test_the_published_stories_do_appear_beside_the_hidden_ones(client, hidden, path):
    content = client.get(path).content.decode()

    assert "agent-training-stack" in content


def test_the_address_of_a_story_that_is_not_published_is_not_found(client, hidden):
    for story in hidden.stories:
        expected = 410 if story.status == Story.Status.RETRACTED else 404
        for path in twins(story):
            response = client.get(path)
            assert response.status_code == expected, (story.headline, path)
            assert "zebracorn" not in response.content.decode().lower()


def test_a_retracted_story_says_it_was_withdrawn(client, hidden):
    retracted = next(s for s in hidden.stories if s.status == Story.Status.RETRACTED)

    response = client.get(retracted.get_absolute_url())

    assert response.status_code == 410
    assert "This story has been withdrawn" in response.content.decode()


def test_a_logged_in_reader_who_is_not_staff_cannot_preview(client, hidden):
    user = get_user_model().objects.create_user("reader", password="x" * 12)
    client.force_login(user)

    for story in hidden.stories:
        assert client.get(story.get_absolute_url()).status_code in (404, 410)


def test_staff_preview_a_draft_marked_private_and_noindex(client, hidden, admin_user):
    draft = hidden.stories[0]
    client.force_login(admin_user)

    for path in twins(draft):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == "private, no-store"
        assert response["X-Robots-Tag"] == "noindex, nofollow"
        assert "ETag" not in response
        assert "Zebracorn draft" in response.content.decode()
    page = client.get(draft.get_absolute_url()).content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in page
    assert "Preview." in page


def test_a_preview_is_never_kept_in_the_page_cache(client, hidden, admin_user):
    draft = hidden.stories[0]
    client.force_login(admin_user)
    assert client.get(draft.get_absolute_url()).status_code == 200
    client.logout()

    assert client.get(draft.get_absolute_url()).status_code == 404


def test_an_edition_with_no_published_story_is_not_found(client, hidden):
    from editions.models import Edition

    Edition.objects.create(key="2026-11-01T05")
    story = hidden.stories[0]
    story.edition_id = "2026-11-01T05"
    story.save()

    assert client.get("/editions/2026-11-01T05/").status_code == 404
    assert client.get("/editions/2026-11-01T05/index.json").status_code == 404
