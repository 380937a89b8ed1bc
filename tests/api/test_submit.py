"""Submitting desk/1 documents with a token: create, update, stale versions, roles, runs."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from stories.models import PublishedVersion, Story
from tests.site.conftest import seed
from tests.workflow.test_undecided import undecided_run
from verification.gate import story_apply_verdict
from verification.models import VerificationRun

from .conftest import TRAINING_ID, bearer, body, fresh_document, new_document, post_json

STORIES = "/api/v1/stories/"


def submit(client, document, who, capture, **headers):
    # The checks are queued after commit and run at once (eager tasks).
    with capture(execute=True):
        return post_json(client, STORIES, document, **who, **headers)


def test_a_new_story_is_created_submitted_and_answered_with_its_run(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9001", slug="a-new-story")

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks)

    assert response.status_code == 202, response.content
    answer = body(response)
    story = Story.objects.get(desk_id=9001)
    run = VerificationRun.objects.get(story=story)
    assert answer["done"] == "created"
    assert answer["story"]["id"] == "9001"
    assert answer["story"]["url"] == "http://testserver/api/v1/stories/9001/"
    assert answer["story"]["edit_version"] == story.edit_version
    # Answered as committed: the checks are queued after commit (here, run when the test's
    # commit hooks run, as a worker would take them).
    assert answer["run"] == {"id": run.pk, "status": "pending", "url": f"http://testserver/api/v1/runs/{run.pk}/"}
    assert response["Location"] == answer["run"]["url"]
    assert run.started_by == "api:editor"
    assert run.is_finished


def test_a_story_published_with_the_same_content_is_left_alone(client, people, django_capture_on_commit_callbacks):
    runs = VerificationRun.objects.count()

    response = submit(client, seed("agent-training-stack"), people.editor, django_capture_on_commit_callbacks)

    assert response.status_code == 200, response.content
    assert body(response)["done"] == "unchanged"
    assert body(response)["story"]["published"] is True
    assert VerificationRun.objects.count() == runs


def test_an_update_changes_the_working_copy_not_what_readers_get(client, people, django_capture_on_commit_callbacks):
    people.ai.auto_publish = False
    people.ai.save()
    live_before = client.get(f"/api/v1/stories/{TRAINING_ID}/").content
    document = seed("agent-training-stack")
    document["dek"] = "A dek rewritten by the writer agent."

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks)

    assert response.status_code == 202, response.content
    assert body(response)["done"] == "updated"
    assert body(response)["story"]["unpublished_changes"] is True
    assert Story.objects.get(desk_id=81).dek == "A dek rewritten by the writer agent."
    assert Story.objects.get(desk_id=81).status == Story.Status.VERIFIED
    # Readers get the version they had until a chief publishes the new one.
    assert client.get(f"/api/v1/stories/{TRAINING_ID}/").content == live_before


def test_an_update_naming_the_current_edit_version_goes_through(client, people, django_capture_on_commit_callbacks):
    version = Story.objects.get(desk_id=81).edit_version
    document = seed("agent-training-stack") | {"dek": "Changed on the version read."}

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks, HTTP_IF_MATCH=f'"{version}"')

    assert response.status_code == 202, response.content
    assert body(response)["story"]["edit_version"] == version + 1


def test_an_update_naming_a_stale_edit_version_is_a_409_and_changes_nothing(
    client, people, django_capture_on_commit_callbacks
):
    story = Story.objects.get(desk_id=81)
    stale = story.edit_version - 1
    document = seed("agent-training-stack") | {"dek": "Written on an old version."}

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks, HTTP_IF_MATCH=f'"{stale}"')

    assert response.status_code == 409
    answer = body(response)
    assert answer["error"] == "stale_version"
    assert answer["problems"][0]["at"] == "If-Match"
    assert f"you edited version {stale}, it is now at version {story.edit_version}" in answer["message"]
    assert Story.objects.get(desk_id=81).dek == story.dek


def test_an_edit_version_for_a_story_that_does_not_exist_is_a_409(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9002", slug="not-there-yet")

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks, HTTP_IF_MATCH='"4"')

    assert response.status_code == 409
    assert body(response)["error"] == "stale_version"
    assert not Story.objects.filter(desk_id=9002).exists()


@pytest.mark.parametrize("value", ["four", '"-1"', '"1" , "2"', "*"])
def test_an_if_match_that_is_not_an_edit_version_is_a_400(client, people, value, django_capture_on_commit_callbacks):
    response = submit(
        client, seed("agent-training-stack"), people.editor, django_capture_on_commit_callbacks, HTTP_IF_MATCH=value
    )

    assert response.status_code == 400
    assert body(response)["problems"][0]["at"] == "If-Match"


def test_a_token_of_one_newsroom_cannot_write_to_another(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9003", slug="into-the-wrong-newsroom")

    response = submit(client, document, people.outsider, django_capture_on_commit_callbacks)

    assert response.status_code == 403
    assert body(response)["error"] == "permission_denied"
    message = "You have no role in the newsroom 'artificial-intelligence', so you cannot write there"
    assert body(response)["problems"] == [{"at": "newsroom", "message": message}]
    assert not Story.objects.filter(desk_id=9003).exists()


def test_nor_by_moving_another_newsrooms_story_into_its_own(client, people, django_capture_on_commit_callbacks):
    # The document names the outsider's newsroom, but its id is a story of the AI newsroom.
    document = seed("agent-training-stack") | {"newsroom": "other-desk", "dek": "Taken over."}

    response = submit(client, document, people.outsider, django_capture_on_commit_callbacks)

    # A 404, as the story's other addresses answer the outsider: a 403 would say the id exists.
    assert response.status_code == 404
    assert body(response)["error"] == "not_found"
    assert body(response)["problems"][0]["at"] == "id"
    assert body(response)["message"] == "No story with the id '81' in a newsroom where you have a role."
    story = Story.objects.get(desk_id=81)
    assert story.newsroom == people.ai
    assert story.dek != "Taken over."


def test_a_newsroom_that_does_not_exist_is_refused_not_created(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9004", slug="nowhere", newsroom="no-such-newsroom")

    response = submit(client, document, people.chief, django_capture_on_commit_callbacks)

    assert response.status_code == 403
    assert not Story.objects.filter(desk_id=9004).exists()


def test_an_invalid_document_is_a_400_with_desk_paths(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9005", slug="Bad Slug")
    document["key_facts"][0]["text"] = 7
    del document["headline"]

    response = submit(client, document, people.editor, django_capture_on_commit_callbacks)

    assert response.status_code == 400
    answer = body(response)
    assert answer["error"] == "invalid"
    at = {problem["at"] for problem in answer["problems"]}
    assert {"slug", "key_facts[0].text", "headline"} <= at
    assert not Story.objects.filter(desk_id=9005).exists()


@pytest.mark.parametrize("value", [[], "a string", 81, None])
def test_a_body_that_is_not_an_object_is_a_400(client, people, value, django_capture_on_commit_callbacks):
    response = submit(client, value, people.editor, django_capture_on_commit_callbacks)

    assert response.status_code == 400
    assert body(response)["problems"][0]["at"] == "$"


def test_a_retracted_story_is_not_brought_back(client, people, django_capture_on_commit_callbacks):
    retract = post_json(client, f"/api/v1/stories/{TRAINING_ID}/retract/", {"reason": "Wrong."}, **people.chief)
    assert retract.status_code == 200

    response = submit(client, seed("agent-training-stack"), people.chief, django_capture_on_commit_callbacks)

    assert response.status_code == 400
    assert body(response)["problems"][0]["at"] == "id"
    assert client.get(f"/api/v1/stories/{TRAINING_ID}/").status_code == 410


def test_a_submission_without_a_token_is_a_401(client, demo):
    response = post_json(client, STORIES, seed("agent-training-stack"))

    assert response.status_code == 401
    assert body(response)["error"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "header",
    ["Bearer nope", "Bearer " + "a" * 64, "Bearer", "Bearer a b", "Bearer \xe9\xe9", "Token " + "a" * 64],
)
def test_a_token_that_is_unknown_or_malformed_is_a_401(client, demo, header):
    response = post_json(client, STORIES, {}, HTTP_AUTHORIZATION=header)

    assert response.status_code == 401
    assert set(body(response)) == {"error", "message", "problems"}


def test_an_expired_token_is_a_401(client, people, django_capture_on_commit_callbacks):
    import datetime as dt

    from django.contrib.auth import get_user_model

    from .conftest import token_of

    token = token_of(get_user_model().objects.get(username="editor"), expiry=dt.timedelta(seconds=-1))

    response = post_json(client, STORIES, seed("agent-training-stack"), **bearer(token))

    assert response.status_code == 401


def test_reads_ignore_credentials_and_stay_published_only(client, people):
    # A chief's token sees nothing more through the read API than anyone.
    anonymous = client.get(STORIES).content

    assert client.get(STORIES, **people.chief).content == anonymous
    assert client.get(STORIES, HTTP_AUTHORIZATION="Bearer broken").status_code == 200


# --- Runs ---------------------------------------------------------------------------------------


def test_a_run_shows_its_state_and_problems_at_desk_paths(client, people, django_capture_on_commit_callbacks):
    # The same text as a published seed under another id, a day later: the repeat check fails it.
    document = new_document(desk_id="9006", slug="a-repeat-of-the-seed", published_at="2026-10-17T00:39:10Z")
    run_url = body(submit(client, document, people.editor, django_capture_on_commit_callbacks))["run"]["url"]

    response = client.get(run_url, **people.editor)

    assert response.status_code == 200
    run = body(response)
    stored = VerificationRun.objects.get(pk=run["id"])
    assert run["status"] == stored.status == "failed"
    assert run["finished"] is True
    assert run["current"] is True
    assert run["story"] == "9006"
    assert {check["name"] for check in run["checks"]} == {check["name"] for check in stored.checks}
    assert run["problems"]
    assert {"check", "status", "code", "at", "message"} == set(run["problems"][0])
    assert any(problem["check"] == "not_repeat" and problem["code"] == "repeat" for problem in run["problems"])
    assert run["retry_at"] is None  # decided: nothing runs again by itself


def submitted_undecided(client, people, capture, **document):
    """A story submitted through the API whose checks could not decide, as a worker records it
    when the provider is down; the verdict applied, which sets the run's retry time."""
    with capture(execute=False):  # the checks are left for the test to record, not run
        response = post_json(client, STORIES, new_document(**document), **people.editor)
    assert response.status_code == 202, response.content
    run = undecided_run(Story.objects.get(desk_id=int(document["desk_id"])))
    story_apply_verdict(run=run)
    run.refresh_from_db()
    return run


def test_an_undecided_run_shows_when_its_checks_run_again(client, people, settings, django_capture_on_commit_callbacks):
    settings.VERIFY_UNKNOWN_RETRY_SECONDS = 300
    stored = submitted_undecided(client, people, django_capture_on_commit_callbacks, desk_id="9011", slug="undecided")

    run = body(client.get(f"/api/v1/runs/{stored.pk}/", **people.editor))

    assert run["status"] == "unknown"
    assert run["finished"] is True
    assert datetime.fromisoformat(run["retry_at"]) == stored.retry_at == stored.finished_at + timedelta(seconds=300)


def test_a_decided_run_shows_no_retry_time(client, people):
    passed = VerificationRun.objects.filter(story__desk_id=int(TRAINING_ID)).first()

    run = body(client.get(f"/api/v1/runs/{passed.pk}/", **people.editor))

    assert run["status"] == "passed"
    assert run["retry_at"] is None


def test_an_undecided_run_whose_story_was_submitted_again_shows_no_retry_time(
    client, people, django_capture_on_commit_callbacks
):
    # The sweep leaves such a run alone (its story's newer run decides), so its stored time holds nothing.
    document = {"desk_id": "9012", "slug": "submitted-again"}
    stored = submitted_undecided(client, people, django_capture_on_commit_callbacks, **document)
    again = submit(client, new_document(**document), people.editor, django_capture_on_commit_callbacks)
    assert again.status_code == 202, again.content

    run = body(client.get(f"/api/v1/runs/{stored.pk}/", **people.editor))

    assert VerificationRun.objects.get(pk=stored.pk).retry_at is not None
    assert run["status"] == "unknown"
    assert run["retry_at"] is None


def test_a_run_is_not_found_for_another_newsroom_and_needs_a_token(client, people):
    run = VerificationRun.objects.filter(story__desk_id=81).first()

    assert client.get(f"/api/v1/runs/{run.pk}/", **people.editor).status_code == 200
    outsider = client.get(f"/api/v1/runs/{run.pk}/", **people.outsider)
    anonymous = client.get(f"/api/v1/runs/{run.pk}/")

    assert outsider.status_code == 404
    assert body(outsider)["error"] == "not_found"
    assert anonymous.status_code == 401
    assert client.get("/api/v1/runs/999999999/", **people.editor).status_code == 404
    assert client.get("/api/v1/runs/99999999999999999999999/", **people.editor).status_code == 404


def test_a_newsroom_that_publishes_automatically_publishes_a_passing_submission(
    client, people, django_capture_on_commit_callbacks
):
    submit(client, fresh_document(desk_id="9007", slug="goes-out"), people.editor, django_capture_on_commit_callbacks)

    assert client.get("/api/v1/stories/9007/").status_code == 200


def test_otherwise_a_passing_submission_waits_for_a_chief(client, people, django_capture_on_commit_callbacks):
    people.ai.auto_publish = False
    people.ai.save()

    submit(client, fresh_document(desk_id="9008", slug="waits"), people.editor, django_capture_on_commit_callbacks)

    assert Story.objects.get(desk_id=9008).status == Story.Status.VERIFIED
    assert not PublishedVersion.objects.filter(desk_id=9008).exists()
    assert client.get("/api/v1/stories/9008/").status_code == 404


def test_a_run_costs_a_fixed_number_of_queries(client, people, django_assert_num_queries):
    run = VerificationRun.objects.filter(story__desk_id=81).first()

    # The token and its user, the token's scopes, the user's newsrooms, the run with its story.
    with django_assert_num_queries(4):
        assert client.get(f"/api/v1/runs/{run.pk}/", **people.editor).status_code == 200
