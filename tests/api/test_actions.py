"""Publish, correct and retract through the API: chiefs only, the same services as admin."""

from __future__ import annotations

import pytest

from stories.models import Correction, PublishedVersion, Revision, Story

from .conftest import AGENTIC_ID, TRAINING_ID, body, fresh_document, new_document, post_json


def act(client, what, who, data=None, story=TRAINING_ID):
    return post_json(client, f"/api/v1/stories/{story}/{what}/", data if data is not None else {}, **who)


@pytest.fixture
def waiting(client, people, django_capture_on_commit_callbacks):
    """A story that passed its checks in a newsroom that does not publish automatically."""
    people.ai.auto_publish = False
    people.ai.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(
            client, "/api/v1/stories/", fresh_document(desk_id="9100", slug="waiting"), **people.editor
        )
    assert response.status_code == 202, response.content
    return Story.objects.get(desk_id=9100)


def test_a_chief_publishes_a_story_that_passed(client, people, waiting):
    response = act(client, "publish", people.chief, story="9100")

    assert response.status_code == 200, response.content
    assert body(response)["done"] == "published"
    assert body(response)["message"] == "Story 9100 published."
    assert body(response)["overridden"] is False
    assert body(response)["story"]["published"] is True
    assert client.get("/api/v1/stories/9100/").status_code == 200
    assert Revision.objects.filter(story=waiting, actor="api:chief", note__startswith="published").exists()


def test_publishing_a_published_story_does_nothing_and_says_so(client, people):
    response = act(client, "publish", people.chief)

    assert response.status_code == 200
    assert body(response)["done"] == "nothing"
    assert body(response)["message"] == "Story 81 is already published with this content: nothing to do."


def test_an_editor_may_not_publish(client, people, waiting):
    response = act(client, "publish", people.editor, story="9100")

    assert response.status_code == 403
    assert body(response)["error"] == "permission_denied"
    assert body(response)["message"] == "Publishing a story needs the chief role in the story's newsroom"
    assert not PublishedVersion.objects.filter(desk_id=9100).exists()


def test_a_story_that_failed_needs_an_override_reason(client, people, django_capture_on_commit_callbacks):
    people.ai.auto_publish = False
    people.ai.save()
    document = new_document(desk_id="9101", slug="a-repeat", published_at="2026-10-17T00:39:10Z")
    with django_capture_on_commit_callbacks(execute=True):
        post_json(client, "/api/v1/stories/", document, **people.editor)
    assert Story.objects.get(desk_id=9101).status == Story.Status.FAILED

    refused = act(client, "publish", people.chief, story="9101")
    overridden = act(client, "publish", people.chief, {"override_reason": "Checked by hand."}, story="9101")

    assert refused.status_code == 409
    assert body(refused)["error"] == "conflict"
    assert "cannot be published: its checks did not pass" in body(refused)["message"]
    assert overridden.status_code == 200
    assert body(overridden)["done"] == "published"
    assert body(overridden)["overridden"] is True
    assert body(overridden)["message"] == "Story 9101 published overriding its checks."


def test_a_chief_adds_a_correction(client, people):
    response = act(client, "corrections", people.chief, {"text": "An earlier version misnamed the lab."})

    assert response.status_code == 201, response.content
    answer = body(response)
    assert answer["done"] == "corrected"
    assert answer["correction"]["text"] == "An earlier version misnamed the lab."
    assert answer["correction"]["position"] == 0
    detail = body(client.get(f"/api/v1/stories/{TRAINING_ID}/"))
    assert detail["corrections"][-1]["text"] == "An earlier version misnamed the lab."


@pytest.mark.parametrize(
    ("data", "at"), [({}, "text"), ({"text": ""}, "text"), ({"text": 5}, "text"), ({"text": "x" * 5001}, "text")]
)
def test_a_correction_needs_its_text(client, people, data, at):
    response = act(client, "corrections", people.chief, data)

    assert response.status_code == 400
    assert body(response)["problems"][0]["at"] == at
    assert not Correction.objects.exists()


def test_a_chief_retracts_and_retracting_again_does_nothing(client, people):
    first = act(client, "retract", people.chief, {"reason": "The study was withdrawn."})
    again = act(client, "retract", people.chief, {"reason": "Twice."})

    assert first.status_code == 200
    assert body(first)["done"] == "retracted"
    assert again.status_code == 200
    assert body(again)["done"] == "nothing"
    assert body(again)["message"] == "Story 81 is already retracted: nothing to do."
    assert client.get(f"/api/v1/stories/{TRAINING_ID}/").status_code == 410
    assert TRAINING_ID not in [item["id"] for item in body(client.get("/api/v1/stories/"))["results"]]


def test_a_retracted_story_cannot_be_corrected(client, people):
    act(client, "retract", people.chief, {"reason": "Withdrawn."})

    response = act(client, "corrections", people.chief, {"text": "Too late."})

    assert response.status_code == 409
    assert body(response)["message"] == "Only a published story can be corrected; this one is retracted"


def test_a_draft_cannot_be_retracted(client, people, waiting):
    response = act(client, "retract", people.chief, {"reason": "Never out."}, story="9100")

    assert response.status_code == 409
    assert "Only a published story can be retracted" in body(response)["message"]


@pytest.mark.parametrize(("what", "data"), [("corrections", {"text": "No."}), ("retract", {"reason": "No."})])
def test_an_editor_may_not_correct_or_retract(client, people, what, data):
    response = act(client, what, people.editor, data)

    assert response.status_code == 403
    assert client.get(f"/api/v1/stories/{TRAINING_ID}/").status_code == 200


@pytest.mark.parametrize("what", ["publish", "corrections", "retract"])
def test_another_newsrooms_chief_finds_no_such_story(client, people, what):
    response = act(client, what, people.outsider, {"text": "x", "reason": "x"}, story=AGENTIC_ID)

    assert response.status_code == 404
    assert body(response)["error"] == "not_found"
    assert client.get(f"/api/v1/stories/{AGENTIC_ID}/").status_code == 200


@pytest.mark.parametrize("what", ["publish", "corrections", "retract"])
def test_actions_need_a_token(client, demo, what):
    response = post_json(client, f"/api/v1/stories/{TRAINING_ID}/{what}/", {"text": "x", "reason": "x"})

    assert response.status_code == 401


@pytest.mark.parametrize("story", ["abc", "0", "99999999999999999999999", "12345", "081", "\u0668\u0661", "\u00b2"])
def test_an_action_on_an_id_that_names_no_story_is_a_404(client, people, story):
    assert act(client, "publish", people.chief, story=story).status_code == 404


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_actions_answer_post_only(client, people, method):
    response = getattr(client, method)(f"/api/v1/stories/{TRAINING_ID}/publish/", **people.chief)

    assert response.status_code == 405
    assert body(response)["error"] == "method_not_allowed"
