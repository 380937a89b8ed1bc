"""The MCP door at /mcp/, driven by the SDK's own client against a real server (live_server)."""

from __future__ import annotations

import json

import httpx2

from newsroom.models import ReuseTerms
from stories import desk
from stories.models import PublishedVersion, Story
from tests.api.conftest import TRAINING_ID, new_document
from tests.mcp.conftest import call, connect, pytestmark  # noqa: F401
from verification.models import VerificationRun

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def answer(result):
    """A tool result's structured content, which its text repeats."""
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def ok(result):
    assert not result.is_error, result.structured_content
    return answer(result)


def refused(result, code):
    assert result.is_error
    error = answer(result)
    assert error["error"] == code, error
    return error


# --- The door ------------------------------------------------------------------------------------


def test_it_initializes_and_lists_its_tools_and_resources(door, tokens):
    async def work(session):
        return await session.list_tools(), await session.list_resources()

    tools, resources = connect(door, tokens.editor, work)

    assert [tool.name for tool in tools.tools] == [
        "search_stories",
        "get_story",
        "get_manifest",
        "submit_story",
        "get_run",
        "publish_story",
    ]
    assert {str(resource.uri) for resource in resources.resources} == {"desk://terms/reuse", "desk://schema/desk-1"}


def test_a_request_without_a_valid_token_is_refused_with_401(door, tokens):
    with httpx2.Client(timeout=30) as http:
        anonymous = http.post(door, json=INITIALIZE, headers=ACCEPT)
        unknown = http.post(door, json=INITIALIZE, headers=ACCEPT | {"Authorization": "Bearer " + "0" * 64})
        known = http.post(door, json=INITIALIZE, headers=ACCEPT | {"Authorization": f"Bearer {tokens.editor}"})

    assert anonymous.status_code == 401
    assert anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    assert anonymous.json()["error"] == "not_authenticated"
    assert unknown.status_code == 401
    assert unknown.json() == {"error": "authentication_failed", "message": "Invalid token.", "problems": []}
    assert known.status_code == 200
    assert known.json()["result"]["serverInfo"]["name"] == "newsroom"


def test_arguments_that_do_not_fit_a_tool_are_refused_in_the_api_error_shape(door, tokens):
    error = refused(call(door, tokens.editor, "search_stories", query="agent", limit=0), "invalid")

    assert [problem["at"] for problem in error["problems"]] == ["limit"]


# --- Reading: live published versions only --------------------------------------------------------


def test_search_finds_live_stories_only(door, tokens, hidden):
    found = ok(call(door, tokens.chief, "search_stories", query="agent"))
    # Every hidden story has "Zebracorn" in its headline and body: a draft, a retracted story,
    # one scheduled for tomorrow ... none is found, even by a chief of their newsroom.
    nothing = ok(call(door, tokens.chief, "search_stories", query="Zebracorn"))

    assert {story["id"] for story in found["results"]} == {"81", "278"}
    assert found["results"][0]["url"].startswith("http")
    assert nothing == {"results": []}


def test_a_story_comes_with_the_text_of_the_claims_each_part_cites(door, tokens):
    got = ok(call(door, tokens.editor, "get_story", id=TRAINING_ID))

    live = PublishedVersion.objects.get(desk_id=int(TRAINING_ID))
    assert got["story"] == json.loads(live.document)
    first = got["evidence"][0]
    fact = got["story"]["key_facts"][0]
    assert first["at"] == "key_facts[0]"
    assert first["text"] == fact["text"]
    assert [claim["claim_id"] for claim in first["claims"]] == fact["cites"][0]["claim_ids"]
    assert all(claim["text"] for claim in first["claims"])
    paragraphs = [part for part in got["evidence"] if part["at"].startswith("sections[")]
    assert paragraphs[0]["at"] == "sections[0].paragraphs[0]"
    assert paragraphs[0]["markdown"] == got["story"]["sections"][0]["paragraphs"][0]["markdown"]


def test_a_story_that_is_not_live_is_not_found_or_withdrawn(door, tokens, hidden):
    draft, retracted = hidden.stories[0], hidden.stories[4]
    PublishedVersion.objects.filter(desk_id=int(TRAINING_ID)).update(withdrawn_at=retracted.published_at)

    refused(call(door, tokens.chief, "get_story", id=str(draft.desk_id)), "not_found")
    refused(call(door, tokens.chief, "get_story", id=TRAINING_ID), "withdrawn")


def test_a_manifest_comes_with_its_claims(door, tokens):
    story = json.loads(PublishedVersion.objects.get(desk_id=int(TRAINING_ID)).document)
    manifest_id = story["cited_manifest_ids"][0]

    got = ok(call(door, tokens.editor, "get_manifest", manifest_id=manifest_id))

    assert got["manifest_id"] == manifest_id
    assert got["claims"]
    refused(call(door, tokens.editor, "get_manifest", manifest_id="no-such-manifest"), "not_found")


def test_the_resources_are_the_reuse_terms_in_force_and_the_desk_schema(door, tokens):
    async def work(session):
        terms = await session.read_resource("desk://terms/reuse")
        schema = await session.read_resource("desk://schema/desk-1")
        return terms.contents[0].text, schema.contents[0].text

    terms, schema = connect(door, tokens.editor, work)

    assert json.loads(schema) == desk.schema()
    assert json.loads(terms)["version"] == ReuseTerms.objects.in_force().version


# --- Writing: submit, read the run, publish -------------------------------------------------------


def submitted_repeat(door, token):
    # The same text as a published seed under another id, a day later: the repeat check fails it.
    document = new_document(desk_id="9006", slug="a-repeat-of-the-seed", published_at="2026-10-17T00:39:10Z")
    return ok(call(door, token, "submit_story", document=document))


def test_a_submitted_document_goes_through_the_checks_and_its_run_has_problems_with_codes(door, tokens):
    submission = submitted_repeat(door, tokens.editor)

    assert submission["done"] == "created"
    assert submission["story"]["id"] == "9006"
    assert submission["story"]["published"] is False
    stored = VerificationRun.objects.get(story__desk_id=9006)
    assert submission["run"]["id"] == stored.pk
    assert stored.started_by == "api:editor"
    run = ok(call(door, tokens.editor, "get_run", run_id=stored.pk))
    assert run["status"] == "failed"
    assert run["finished"] is True
    assert any(problem["check"] == "not_repeat" and problem["code"] == "repeat" for problem in run["problems"])


def test_a_document_the_checks_at_the_door_refuse_is_answered_with_its_problems(door, tokens):
    document = new_document(desk_id="9007", slug="no-headline")
    del document["headline"]

    error = refused(call(door, tokens.editor, "submit_story", document=document), "invalid")

    assert error["problems"] == [{"at": "headline", "message": "is required"}]
    assert not Story.objects.filter(desk_id=9007).exists()


def test_another_newsrooms_stories_and_runs_are_not_found_and_its_newsroom_is_forbidden(door, tokens):
    run_id = submitted_repeat(door, tokens.editor)["run"]["id"]

    refused(call(door, tokens.outsider, "get_run", run_id=run_id), "not_found")
    refused(call(door, tokens.outsider, "publish_story", id="9006", override_reason="Because"), "not_found")
    error = refused(
        call(door, tokens.outsider, "submit_story", document=new_document(desk_id="9008", slug="elsewhere")),
        "permission_denied",
    )
    assert error["problems"][0]["at"] == "newsroom"
    # The taken id, in a newsroom where the outsider has no role: not there, as in the API.
    moved = new_document(desk_id="9006", slug="a-repeat-of-the-seed", newsroom="other-desk")
    refused(call(door, tokens.outsider, "submit_story", document=moved), "not_found")


def test_only_a_chief_publishes_and_only_through_the_gate(door, tokens):
    submitted_repeat(door, tokens.editor)

    refused(call(door, tokens.editor, "publish_story", id="9006", override_reason="Because"), "permission_denied")
    gate = refused(call(door, tokens.chief, "publish_story", id="9006"), "conflict")
    assert not PublishedVersion.objects.filter(desk_id=9006).exists(), gate
    published = ok(call(door, tokens.chief, "publish_story", id="9006", override_reason="A follow-up, on purpose"))

    assert published["done"] == "published"
    assert published["overridden"] is True
    assert PublishedVersion.objects.get(desk_id=9006).published_by == "api:chief"


def test_a_body_that_is_not_strict_json_or_too_large_is_refused_in_the_api_error_shape(door, tokens, settings):
    headers = ACCEPT | {"Authorization": f"Bearer {tokens.editor}"}
    twice = b'{"jsonrpc": "2.0", "jsonrpc": "2.0", "id": 1, "method": "ping"}'
    settings.API_MAX_BODY_BYTES = 100
    with httpx2.Client(timeout=30) as http:
        malformed = http.post(door, content=twice, headers=headers)
        too_large = http.post(door, content=json.dumps(INITIALIZE | {"padding": "x" * 100}), headers=headers)

    assert malformed.status_code == 400
    assert malformed.json()["error"] == "malformed"
    assert malformed.json()["problems"][0]["at"] == "jsonrpc"
    assert too_large.status_code == 413
    assert too_large.json()["error"] == "too_large"


def test_a_tokens_requests_are_throttled_as_at_the_api(door, tokens, settings):
    rest = dict(settings.REST_FRAMEWORK)
    settings.REST_FRAMEWORK = rest | {"DEFAULT_THROTTLE_RATES": rest["DEFAULT_THROTTLE_RATES"] | {"token": "2/minute"}}
    headers = ACCEPT | {"Authorization": f"Bearer {tokens.editor}"}
    with httpx2.Client(timeout=30) as http:
        answers = [http.post(door, json=INITIALIZE, headers=headers) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[0].headers["RateLimit-Remaining"] == "1"
    assert answers[2].json()["error"] == "throttled"
    assert int(answers[2].headers["Retry-After"]) > 0


def test_a_token_does_only_what_its_scopes_allow_whatever_its_user_may(door, tokens):
    # The chief's token made with the read scope alone: it reads, and neither submits nor publishes.
    assert ok(call(door, tokens.chief_reading, "search_stories", query="agent"))
    error = refused(
        call(door, tokens.chief_reading, "submit_story", document=new_document(desk_id="9010", slug="scoped")),
        "insufficient_scope",
    )
    assert error["problems"] == [{"at": "Authorization", "message": error["message"]}]
    assert "'submit'" in error["message"]
    refused(call(door, tokens.chief_reading, "publish_story", id=TRAINING_ID), "insufficient_scope")
    assert not Story.objects.filter(desk_id=9010).exists()
