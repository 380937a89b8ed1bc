"""Stories through the API: the detail is the JSON twin, lists filter and page, and both
answer conditional requests."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from stories.models import PublishedVersion, Story
from stories.services import story_add_correction, story_retract
from tests.factories import BeatFactory, NewsroomFactory
from tests.site.conftest import add_story

from .conftest import AGENTIC_ID, TRAINING_ID, body, results

STORIES = "/api/v1/stories/"


def ids(client, **params) -> list[str]:
    return [story["id"] for story in results(client, STORIES, **params)]


@pytest.mark.parametrize("slug", ["agent-training-stack", "agentic-rl-production"])
def test_the_detail_is_the_json_twin_byte_for_byte(client, demo, slug):
    story = demo[slug]
    twin = client.get(story.get_absolute_url() + "index.json")

    response = client.get(f"/api/v1/stories/{story.desk_id}/")

    assert twin.status_code == response.status_code == 200
    assert response.content == twin.content
    assert response["Content-Type"] == twin["Content-Type"] == "application/json"
    assert response["Link"] == f'<{story.live_version.absolute_url()}>; rel="canonical"; type="text/html"'


# "081" and "٨١" (81 in Arabic-Indic digits) are not written as desk/1 ids, though int() reads 81;
# "²" is a digit to str.isdigit that int() refuses.
@pytest.mark.parametrize(
    "story_id", ["abc", "0", "-81", "81.0", "99999999999999999999999", "9" * 19, "081", "\u0668\u0661", "\u00b2"]
)
def test_an_id_that_names_no_story_is_not_found(client, demo, story_id):
    response = client.get(f"/api/v1/stories/{story_id}/")

    assert response.status_code == 404
    assert body(response)["error"] == "not_found"


# --- Filters ------------------------------------------------------------------------------------


def test_filters_by_newsroom_beat_edition_and_trust(client, demo):
    elsewhere = NewsroomFactory(slug="climate")
    like = SimpleNamespace(
        newsroom=elsewhere,
        beat=BeatFactory(newsroom=elsewhere, slug="oceans"),
        edition=demo["agent-training-stack"].edition,
    )
    other = add_story(
        status=Story.Status.PUBLISHED,
        headline="Climate story",
        published_at=timezone.now() - dt.timedelta(hours=1),
        like=like,
    )
    other_id = str(other.desk_id)

    assert ids(client, newsroom="climate") == [other_id]
    assert ids(client, newsroom="artificial-intelligence") == [AGENTIC_ID, TRAINING_ID]
    assert ids(client, beat="oceans") == [other_id]
    assert ids(client, newsroom="climate", beat="research") == []
    assert ids(client, edition="2026-10-20T00") == [AGENTIC_ID]
    assert ids(client, trust="confirmed") == [AGENTIC_ID]
    assert set(ids(client, trust="reported")) == {TRAINING_ID, other_id}


def test_filters_by_publication_time(client, demo):
    assert ids(client, published_after="2026-10-17T00:00:00Z") == [AGENTIC_ID]
    assert ids(client, published_before="2026-10-17") == [TRAINING_ID]
    assert ids(client, published_after="2026-10-16T00:39:10Z", published_before="2026-10-20T00:54:40Z") == [TRAINING_ID]


def test_filters_by_a_cited_manifest(client, demo):
    assert ids(client, cites="1792067182956183080") == [TRAINING_ID]
    assert ids(client, cites="1792439777014362933") == [AGENTIC_ID]
    assert ids(client, cites="not-a-manifest") == []


def test_searches_what_the_live_version_says(client, demo):
    training = demo["agent-training-stack"].live_version
    word = training.headline.split()[0]

    assert TRAINING_ID in ids(client, q=f'"{training.headline}"')
    assert ids(client, q=f'"{training.headline}" -{word}') == []
    assert ids(client, q="zzzunfindable") == []


@pytest.mark.parametrize(
    ("params", "at"),
    [
        ({"trust": "certain"}, "trust"),
        ({"published_after": "yesterday"}, "published_after"),
        ({"published_before": "2026-13-45"}, "published_before"),
        ({"q": "x" * 201}, "q"),
    ],
)
def test_a_filter_value_that_cannot_be_used_is_a_400_naming_it(client, demo, params, at):
    response = client.get(STORIES, params)

    error = body(response)
    assert response.status_code == 400
    assert error["error"] == "invalid"
    assert [problem["at"] for problem in error["problems"]] == [at]
    assert error["problems"][0]["message"]


# --- Pages --------------------------------------------------------------------------------------


def many_stories(like: Story, count: int) -> list[Story]:
    now = timezone.now()
    return [
        add_story(
            status=Story.Status.PUBLISHED,
            headline=f"Story {number}",
            published_at=now - dt.timedelta(minutes=number + 1),
            like=like,
        )
        for number in range(count)
    ]


def test_pages_follow_their_cursors_through_every_story_once(client, demo):
    many_stories(demo["agent-training-stack"], 5)
    expected = list(PublishedVersion.objects.live().values_list("desk_id", flat=True))

    seen, url = [], f"{STORIES}?page_size=2"
    while url:
        page = body(client.get(url))
        assert len(page["results"]) <= 2
        seen += [int(story["id"]) for story in page["results"]]
        url = page["next"]

    assert seen == expected
    assert len(seen) == 7


def test_a_page_holds_twenty_by_default(client, demo):
    many_stories(demo["agent-training-stack"], 21)

    page = body(client.get(STORIES))

    assert len(page["results"]) == 20
    assert page["next"]


@pytest.mark.parametrize("size", ["101", "0", "-1", "ten", "1e3"])
def test_the_page_size_is_capped_at_one_hundred(client, demo, size):
    response = client.get(STORIES, {"page_size": size})

    error = body(response)
    assert response.status_code == 400
    assert error["problems"] == [{"at": "page_size", "message": f"Must be a whole number from 1 to 100, not {size!r}."}]


def test_a_page_of_one_hundred_is_allowed(client, demo):
    assert len(results(client, STORIES, page_size="100")) == 2


@pytest.mark.parametrize("cursor", ["garbage", "cD1ub3QtYS1kYXRl", "cD05OTk5OTk5OTk5OTk5OTk5OTk5OTk5"])
def test_a_cursor_the_api_did_not_give_is_a_400(client, demo, cursor):
    response = client.get(STORIES, {"cursor": cursor})

    assert response.status_code == 400
    assert [problem["at"] for problem in body(response)["problems"]] == ["cursor"]


@pytest.mark.parametrize("count", [3, 30])
def test_a_page_of_stories_costs_the_same_queries_whatever_its_size(client, demo, count, django_assert_num_queries):
    many_stories(demo["agent-training-stack"], count - 2)

    # When the stories last changed (for Last-Modified), then the page with its newsroom, beat
    # and edition joined in.
    with django_assert_num_queries(2):
        page = results(client, STORIES, page_size=50)

    assert len(page) == count


def test_a_story_detail_is_one_query(client, demo, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert client.get(f"/api/v1/stories/{TRAINING_ID}/").status_code == 200


# --- Conditional requests -----------------------------------------------------------------------


@pytest.mark.parametrize("path", [STORIES, f"/api/v1/stories/{TRAINING_ID}/"])
def test_a_current_etag_or_date_gets_a_304(client, demo, path):
    first = client.get(path)
    etag, modified = first["ETag"], first["Last-Modified"]

    by_etag = client.get(path, HTTP_IF_NONE_MATCH=etag)
    by_date = client.get(path, HTTP_IF_MODIFIED_SINCE=modified)
    stale = client.get(path, HTTP_IF_NONE_MATCH='"something-else"')

    assert first["Cache-Control"] == "no-cache"
    assert (by_etag.status_code, by_etag.content, by_etag["ETag"]) == (304, b"", etag)
    assert by_date.status_code == 304
    assert stale.status_code == 200
    assert stale.content == first.content


def test_the_detail_is_last_modified_when_its_version_changed(client, demo):
    version = demo["agent-training-stack"].live_version

    response = client.get(f"/api/v1/stories/{TRAINING_ID}/")

    assert response["Last-Modified"] == http_date(version.modified_at.timestamp())


@pytest.mark.parametrize("path", [STORIES, f"/api/v1/stories/{TRAINING_ID}/"])
def test_a_correction_changes_the_validators(client, demo, path):
    first = client.get(path)
    chief = get_user_model().objects.create_superuser("chief", password="x" * 12)

    story_add_correction(story=demo["agent-training-stack"], text="The date was wrong.", user=chief)

    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert b"The date was wrong." in again.content or path == STORIES


def test_a_retraction_makes_the_list_modified_later(client, demo):
    first = client.get(STORIES)
    chief = get_user_model().objects.create_superuser("chief", password="x" * 12)
    # HTTP dates are whole seconds: retract in a later one than the first answer's.
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=2)):
        story_retract(story=demo["agent-training-stack"], user=chief, reason="Gone")
        again = client.get(STORIES, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])

    assert again.status_code == 200
    assert TRAINING_ID not in {story["id"] for story in body(again)["results"]}


@pytest.mark.parametrize("path", [STORIES, "/api/v1/newsrooms/", "/api/v1/manifests/"])
def test_every_list_carries_an_etag_that_answers_304(client, demo, path):
    first = client.get(path)

    assert first.status_code == 200
    assert client.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# --- Stored list pages --------------------------------------------------------------------------


def test_a_list_page_asked_again_is_answered_from_the_cache_with_one_query(client, demo, django_assert_num_queries):
    first = client.get(STORIES, {"page_size": 1})

    with django_assert_num_queries(1):  # when the stories last changed: the stored page's key
        again = client.get(STORIES, {"page_size": 1})

    assert again.content == first.content
    assert again["ETag"] == first["ETag"]


def test_a_search_is_never_stored(client, demo):
    with CaptureQueriesContext(connection) as first:
        client.get(STORIES, {"q": "agent"})
    with CaptureQueriesContext(connection) as again:
        client.get(STORIES, {"q": "agent"})

    # Asked again, it costs what it cost the first time: the page query ran again.
    assert len(again) == len(first)
    assert any("LIMIT" in query["sql"].upper() for query in again.captured_queries)


def test_a_renamed_beat_shows_in_the_next_list_at_once(client, demo, django_capture_on_commit_callbacks):
    assert {story["beat"] for story in results(client, STORIES)} == {"research"}
    beat = demo["agent-training-stack"].beat

    with django_capture_on_commit_callbacks(execute=True):
        beat.slug = "frontier-research"
        beat.save()

    assert {story["beat"] for story in results(client, STORIES)} == {"frontier-research"}


def test_a_story_published_later_shows_in_the_next_list_at_once(client, demo):
    assert len(results(client, STORIES)) == 2

    many_stories(demo["agent-training-stack"], 1)

    assert len(results(client, STORIES)) == 3


def test_a_scheduled_story_shows_once_its_time_comes(client, demo):
    scheduled = add_story(
        status=Story.Status.PUBLISHED,
        headline="Scheduled",
        published_at=timezone.now() + dt.timedelta(hours=1),
        like=demo["agent-training-stack"],
    )
    assert str(scheduled.desk_id) not in ids(client)

    with time_machine.travel(timezone.now() + dt.timedelta(hours=2)):
        assert str(scheduled.desk_id) in ids(client)


@pytest.mark.parametrize("path", [STORIES, f"/api/v1/stories/{TRAINING_ID}/"])
def test_head_gets_the_validators_without_the_body(client, demo, path):
    get = client.get(path)

    head = client.head(path)

    assert head.status_code == 200
    assert head.content == b""
    assert head["ETag"] == get["ETag"]
    assert head["Last-Modified"] == get["Last-Modified"]
