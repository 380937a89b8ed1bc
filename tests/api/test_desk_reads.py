"""A writer agent reads the desk: the working copies of its newsrooms' stories, drafts included,
each with its desk/1 document, and a story's runs. Never public; another newsroom's is not there."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.tokens import token_create
from stories.models import Story
from stories.services import story_import_desk

from .conftest import TRAINING_ID, bearer, body, new_document, post_json

DESK = "/api/v1/desk/stories/"


def a_draft(people, desk_id="9101", slug="a-draft-for-the-desk") -> Story:
    document = new_document(desk_id=desk_id, slug=slug, headline="A draft only the desk sees")
    document.pop("published_at", None)
    return story_import_desk(document=document, as_draft=True, actor="test").story


def test_the_desk_lists_working_copies_drafts_included_and_never_to_anyone_without_a_token(client, people):
    draft = a_draft(people)

    listed = body(client.get(DESK, **people.editor))["results"]

    by_id = {story["id"]: story for story in listed}
    assert {TRAINING_ID, str(draft.desk_id)} <= set(by_id)
    assert by_id[str(draft.desk_id)] | {"updated_at": None} == {
        "id": str(draft.desk_id),
        "slug": "a-draft-for-the-desk",
        "headline": "A draft only the desk sees",
        "newsroom": "artificial-intelligence",
        "beat": draft.beat.slug,
        "status": "draft",
        "edit_version": draft.edit_version,
        "updated_at": None,
        "published": False,
        "unpublished_changes": False,
        "url": f"http://testserver{DESK}{draft.desk_id}/",
        "runs_url": f"http://testserver{DESK}{draft.desk_id}/runs/",
    }
    assert by_id[TRAINING_ID]["published"] is True
    assert [story["id"] for story in body(client.get(DESK, {"status": "draft"}, **people.editor))["results"]] == [
        str(draft.desk_id)
    ]
    assert client.get(DESK).status_code == 401
    assert client.get(f"{DESK}{draft.desk_id}/").status_code == 401
    # Another newsroom's chief sees none of it.
    assert body(client.get(DESK, **people.outsider))["results"] == []
    assert client.get(f"{DESK}{draft.desk_id}/", **people.outsider).status_code == 404
    assert client.get(f"{DESK}{draft.desk_id}/runs/", **people.outsider).status_code == 404


def test_a_working_copy_comes_with_its_desk_1_document_to_edit_and_send_back(client, people):
    draft = a_draft(people)

    detail = body(client.get(f"{DESK}{draft.desk_id}/", **people.editor))

    assert detail["status"] == "draft"
    assert detail["document"]["id"] == str(draft.desk_id)
    assert detail["document"]["headline"] == "A draft only the desk sees"
    assert "published_at" not in detail["document"]
    # The agent edits it and submits it back on the version it read.
    document = detail["document"] | {"headline": "A draft the agent rewrote"}
    answer = post_json(
        client, "/api/v1/stories/", document, HTTP_IF_MATCH=f'"{detail["edit_version"]}"', **people.editor
    )
    assert answer.status_code == 202, answer.content
    assert Story.objects.get(pk=draft.pk).headline == "A draft the agent rewrote"


def test_a_story_s_runs_newest_first_as_the_run_endpoint_gives_each(client, people):
    draft = a_draft(people)
    first = body(
        post_json(
            client,
            "/api/v1/stories/",
            body(client.get(f"{DESK}{draft.desk_id}/", **people.editor))["document"],
            **people.editor,
        )
    )
    changed = body(client.get(f"{DESK}{draft.desk_id}/", **people.editor))["document"] | {"dek": "Another dek."}
    second = body(post_json(client, "/api/v1/stories/", changed, **people.editor))

    runs = body(client.get(f"{DESK}{draft.desk_id}/runs/", **people.editor))["results"]

    assert [run["id"] for run in runs] == [second["run"]["id"], first["run"]["id"]]
    assert runs[0] == body(client.get(f"/api/v1/runs/{runs[0]['id']}/", **people.editor))
    assert runs[1]["current"] is False


def test_the_desk_needs_the_read_scope_and_a_bad_status_is_named(client, people):
    from django.contrib.auth import get_user_model

    editor = get_user_model().objects.get(username="editor")
    submitting = bearer(token_create(user=editor, expiry=None, scopes=["submit"])[1])

    refused = client.get(DESK, **submitting)
    assert refused.status_code == 403
    assert body(refused)["error"] == "insufficient_scope"
    bad = client.get(DESK, {"status": "lost"}, **people.editor)
    assert bad.status_code == 400
    assert [problem["at"] for problem in body(bad)["problems"]] == ["status"]


def test_the_list_costs_the_same_queries_for_one_story_and_for_many(client, people):
    client.get(DESK, **people.editor)  # the token's scopes and the session warmed
    with CaptureQueriesContext(connection) as few:
        assert client.get(DESK, **people.editor).status_code == 200
    for number in range(5):
        a_draft(people, desk_id=str(9200 + number), slug=f"draft-{number}")
    with CaptureQueriesContext(connection) as many:
        assert client.get(DESK, **people.editor).status_code == 200
    assert len(many) == len(few)


def test_a_version_readers_do_not_get_yet_is_not_called_published(client, people):
    from datetime import timedelta

    from django.utils import timezone

    from stories.models import PublishedVersion

    # Published for a time still to come (a story dated ahead): readers do not get it yet.
    PublishedVersion.objects.filter(desk_id=int(TRAINING_ID)).update(published_at=timezone.now() + timedelta(days=1))

    listed = {story["id"]: story for story in body(client.get(DESK, **people.editor))["results"]}

    assert listed[TRAINING_ID]["published"] is False
    assert listed[TRAINING_ID]["unpublished_changes"] is False
