"""Idempotency-Key on POSTs: the same key, user and request within a day get the first answer
again, and the work is done once."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.utils import timezone

from api.models import IdempotentRequest
from stories.models import Correction, Story
from verification.models import VerificationRun

from .conftest import TRAINING_ID, bearer, body, new_document, post_json, token_of

CORRECTIONS = f"/api/v1/stories/{TRAINING_ID}/corrections/"


def correct(client, who, text="The vote was 9 to 4.", key="key-1"):
    return post_json(client, CORRECTIONS, {"text": text}, HTTP_IDEMPOTENCY_KEY=key, **who)


def corrections() -> int:
    return Correction.objects.filter(story__desk_id=int(TRAINING_ID)).count()


def test_the_same_key_and_request_get_the_first_answer_and_the_work_is_done_once(client, people):
    first = correct(client, people.chief)
    again = correct(client, people.chief)

    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert corrections() == 1


def test_a_submission_sent_twice_with_one_key_is_checked_once(client, people, django_capture_on_commit_callbacks):
    document = new_document(desk_id="9400", slug="sent-twice")
    with django_capture_on_commit_callbacks(execute=True):
        first = post_json(client, "/api/v1/stories/", document, HTTP_IDEMPOTENCY_KEY="submit-9400", **people.editor)
        again = post_json(client, "/api/v1/stories/", document, HTTP_IDEMPOTENCY_KEY="submit-9400", **people.editor)

    assert first.status_code == again.status_code == 202
    assert again.content == first.content
    assert again["Location"] == first["Location"]
    assert VerificationRun.objects.filter(story__desk_id=9400).count() == 1
    assert Story.objects.get(desk_id=9400).edit_version == 1


def test_the_same_key_with_another_body_is_a_422_and_does_nothing(client, people):
    correct(client, people.chief, text="The vote was 9 to 4.")

    response = correct(client, people.chief, text="The line is 3.2 kilometres long.")

    assert response.status_code == 422
    assert body(response)["error"] == "idempotency_key_reused"
    assert [problem["at"] for problem in body(response)["problems"]] == ["Idempotency-Key"]
    assert corrections() == 1


def test_the_same_key_at_another_address_is_a_422(client, people):
    correct(client, people.chief)

    response = post_json(
        client, f"/api/v1/stories/{TRAINING_ID}/retract/", {"reason": "x"}, HTTP_IDEMPOTENCY_KEY="key-1", **people.chief
    )

    assert response.status_code == 422
    assert Story.objects.get(desk_id=int(TRAINING_ID)).status != Story.Status.RETRACTED


def test_keys_are_each_users_own(client, people):
    admin = get_user_model().objects.create_superuser("root", password="x-unused-password")

    correct(client, people.chief)
    other = correct(client, bearer(token_of(admin)))

    assert other.status_code == 201
    assert "Idempotent-Replayed" not in other
    assert corrections() == 2


def test_a_key_is_new_again_after_a_day_and_old_keys_are_pruned(client, people, settings):
    settings.API_IDEMPOTENCY_SECONDS = 86400
    correct(client, people.chief)
    IdempotentRequest.objects.update(created_at=timezone.now() - dt.timedelta(days=1, seconds=1))

    again = correct(client, people.chief)

    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again
    assert corrections() == 2
    assert IdempotentRequest.objects.count() == 1  # the old one pruned, the new one kept


def test_a_refusal_is_not_kept_so_the_key_may_be_sent_again(client, people):
    refused = post_json(client, CORRECTIONS, {"text": 5}, HTTP_IDEMPOTENCY_KEY="key-1", **people.chief)

    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert correct(client, people.chief).status_code == 201


def test_a_key_whose_first_request_is_still_answered_is_a_409(client, people):
    first = correct(client, people.chief)
    # As while the first request is at work: claimed, no answer yet.
    IdempotentRequest.objects.update(status_code=None, body="")

    response = correct(client, people.chief)

    assert first.status_code == 201
    assert response.status_code == 409
    assert body(response)["error"] == "idempotency_key_in_use"
    assert body(response)["problems"][0]["at"] == "Idempotency-Key"
    assert corrections() == 1


def test_a_claim_left_by_a_dead_process_is_taken_over(client, people):
    correct(client, people.chief, key="key-3")
    # As a process that died after claiming the key: no answer, long ago.
    IdempotentRequest.objects.filter(key="key-3").update(
        status_code=None, body="", created_at=timezone.now() - dt.timedelta(minutes=10)
    )

    response = correct(client, people.chief, key="key-3")

    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert IdempotentRequest.objects.get(key="key-3").status_code == 201


@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "é"])
def test_a_key_that_is_not_visible_ascii_is_a_400_naming_it(client, people, key):
    response = post_json(client, CORRECTIONS, {"text": "t"}, HTTP_IDEMPOTENCY_KEY=key, **people.chief)

    assert response.status_code == 400
    assert [problem["at"] for problem in body(response)["problems"]] == ["Idempotency-Key"]
    assert corrections() == 0


def test_the_schema_documents_the_header_on_every_post(client, db):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)

    for path, operations in schema["paths"].items():
        if "post" not in operations:
            continue
        operation = operations["post"]
        assert "Idempotency-Key" in {parameter["name"] for parameter in operation["parameters"]}, path
        assert "422" in operation["responses"], path
        answers = operation["responses"]
        replayed = [code for code, answer in answers.items() if "Idempotent-Replayed" in answer.get("headers", {})]
        assert replayed, path
        assert all(code.startswith("2") for code in replayed), path
