"""Every read endpoint answers with what the site publishes, in the documented shape."""

from __future__ import annotations

import json

import pytest
import yaml

from editions.models import Edition
from manifests.models import Manifest
from newsroom.models import Beat, Newsroom
from stories.desk import format_utc
from stories.models import Story
from tests.factories import BeatFactory, EditionFactory, ManifestFactory, NewsroomFactory, StoryFactory

from .conftest import AGENTIC_ID, TRAINING_ID, body, results

SITE = "https://hangingcontext.com"


def test_the_story_list_gives_summaries_newest_first(client, demo):
    stories = results(client, "/api/v1/stories/")

    assert [story["id"] for story in stories] == [AGENTIC_ID, TRAINING_ID]
    assert stories[1] == {
        "id": TRAINING_ID,
        "slug": "agent-training-stack",
        "url": f"{SITE}/stories/2026-10-16/agent-training-stack/",
        "headline": demo["agent-training-stack"].headline,
        "dek": demo["agent-training-stack"].dek,
        "newsroom": "artificial-intelligence",
        "beat": "research",
        "edition": "2026-10-16T00",
        "trust": "reported",
        "source_count": 4,
        "correction_count": 0,
        "published_at": "2026-10-16T00:39:10Z",
        "verification": "checked",
        "notice_at": None,
        "updated_at": format_utc(demo["agent-training-stack"].live_version.modified_at),
    }


def test_newsrooms_list_and_detail(client, demo):
    NewsroomFactory(slug="climate", title="Climate")

    listed = results(client, "/api/v1/newsrooms/")
    detail = body(client.get("/api/v1/newsrooms/artificial-intelligence/"))

    assert [newsroom["slug"] for newsroom in listed] == ["artificial-intelligence", "climate"]
    assert detail == {
        "slug": "artificial-intelligence",
        "title": "Artificial Intelligence",
        "description": Newsroom.objects.get(slug="artificial-intelligence").description,
        "url": f"{SITE}/n/artificial-intelligence/",
    }
    assert client.get("/api/v1/newsrooms/nowhere/").status_code == 404


def test_beats_list_filtered_by_newsroom_and_detail(client, demo):
    other = BeatFactory(newsroom=NewsroomFactory(slug="climate"), slug="research", title="Climate research")
    research = Beat.objects.get(newsroom__slug="artificial-intelligence", slug="research")

    everything = results(client, "/api/v1/beats/")
    ai_only = results(client, "/api/v1/beats/", newsroom="artificial-intelligence")
    detail = body(client.get(f"/api/v1/beats/{research.pk}/"))

    assert {beat["id"] for beat in everything} == {research.pk, other.pk}
    assert [beat["id"] for beat in ai_only] == [research.pk]
    assert detail == {
        "id": research.pk,
        "newsroom": "artificial-intelligence",
        "slug": "research",
        "title": research.title,
        "description": research.description,
        "url": f"{SITE}/n/artificial-intelligence/research/",
    }


@pytest.mark.parametrize("beat_id", ["999999", "99999999999999999999999"])
def test_a_beat_that_is_not_there_is_not_found(client, demo, beat_id):
    response = client.get(f"/api/v1/beats/{beat_id}/")

    assert response.status_code == 404
    assert body(response)["error"] == "not_found"


def test_editions_are_listed_only_with_live_stories(client, demo):
    empty = EditionFactory(key="2026-11-01T00")
    StoryFactory(status=Story.Status.DRAFT, published_at=None, edition=empty)

    listed = results(client, "/api/v1/editions/")
    detail = body(client.get("/api/v1/editions/2026-10-16T00/"))

    assert [edition["id"] for edition in listed] == ["2026-10-20T00", "2026-10-16T00"]
    assert detail == {
        "id": "2026-10-16T00",
        "title": Edition.objects.get(key="2026-10-16T00").title,
        "starts_at": "2026-10-16T00:00:00Z",
        "url": f"{SITE}/editions/2026-10-16T00/",
    }
    assert client.get("/api/v1/editions/2026-11-01T00/").status_code == 404


def test_manifests_cited_by_live_stories_come_with_their_claims_in_order(client, demo):
    uncited = ManifestFactory(manifest_id="999")

    listed = results(client, "/api/v1/manifests/", page_size=100)
    detail = body(client.get("/api/v1/manifests/1792067182956183080/"))

    cited = {*json.loads(demo["agent-training-stack"].live_version.document)["cited_manifest_ids"]}
    cited |= {*json.loads(demo["agentic-rl-production"].live_version.document)["cited_manifest_ids"]}
    assert {manifest["manifest_id"] for manifest in listed} == cited
    assert uncited.manifest_id not in {manifest["manifest_id"] for manifest in listed}
    stored = Manifest.objects.get(manifest_id="1792067182956183080")
    assert detail["title"] == stored.title
    assert detail["source_name"] == stored.source_name
    assert [claim["claim_id"] for claim in detail["claims"]] == list(
        stored.claims.order_by("position").values_list("claim_id", flat=True)
    )
    assert detail["claims"]
    assert set(detail["claims"][0]) == {"claim_id", "position", "text", "type", "confidence"}
    assert client.get("/api/v1/manifests/999/").status_code == 404


def test_the_schema_is_openapi_3_and_documents_every_endpoint(client, db):
    response = client.get("/api/v1/schema/")

    schema = yaml.safe_load(response.content)
    assert response.status_code == 200
    assert schema["openapi"].startswith("3.")
    reads = {
        "/api/v1/newsrooms/",
        "/api/v1/newsrooms/{slug}/",
        "/api/v1/beats/",
        "/api/v1/beats/{id}/",
        "/api/v1/editions/",
        "/api/v1/editions/{id}/",
        "/api/v1/stories/",
        "/api/v1/stories/{id}/",
        "/api/v1/manifests/",
        "/api/v1/manifests/{manifest_id}/",
        "/api/v1/changes/",
    }
    actions = {"/api/v1/stories/{id}/publish/", "/api/v1/stories/{id}/corrections/", "/api/v1/stories/{id}/retract/"}
    webhooks = {
        "/api/v1/webhooks/",
        "/api/v1/webhooks/{id}/",
        "/api/v1/webhooks/{id}/ping/",
        "/api/v1/webhooks/{id}/deliveries/",
        "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/",
    }
    desk = {"/api/v1/desk/stories/", "/api/v1/desk/stories/{id}/", "/api/v1/desk/stories/{id}/runs/"}
    tokens_only = {"/api/v1/runs/{id}/", "/api/v1/me/"} | desk
    assert set(schema["paths"]) == reads | actions | webhooks | tokens_only | {"/api/v1/"}
    for path in reads:
        operations = schema["paths"][path]
        assert set(operations) == ({"get", "post"} if path == "/api/v1/stories/" else {"get"}), path
        responses = operations["get"]["responses"]
        assert {"200", "304", "406", "412", "429"} <= set(responses), path
        assert {"400", "404"} & set(responses), path
        assert "security" not in operations["get"] or operations["get"]["security"] == [{}], path
    writes = (
        [("/api/v1/stories/", "post")]
        + [(path, "get") for path in tokens_only]
        + [(path, "post") for path in actions]
        + [(path, method) for path in webhooks for method in schema["paths"][path]]
    )
    for path, method in writes:
        operation = schema["paths"][path][method]
        assert operation["security"] == [{"bearerToken": []}], path
        assert {"401", "406", "429"} <= set(operation["responses"]), path
    submit = schema["paths"]["/api/v1/stories/"]["post"]
    assert {"200", "202", "400", "401", "403", "409", "413", "415", "429"} <= set(submit["responses"])
    assert "If-Match" in {parameter["name"] for parameter in submit["parameters"]}
    assert schema["components"]["securitySchemes"]["bearerToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from `manage.py create_api_token USERNAME` or the admin.",
    }
    for operations in schema["paths"].values():
        for path_operation in operations.values():
            for code, response_schema in path_operation["responses"].items():
                if code.startswith("4"):
                    assert response_schema["content"]["application/json"]["schema"] == {
                        "$ref": "#/components/schemas/ApiError"
                    }, code
    assert set(schema["components"]["schemas"]["ApiError"]["properties"]) == {"error", "message", "problems"}
    story_list = schema["paths"]["/api/v1/stories/"]["get"]
    assert {"newsroom", "beat", "edition", "trust", "published_after", "published_before", "cites", "q"} <= {
        parameter["name"] for parameter in story_list["parameters"]
    }
    page_size = next(p for p in story_list["parameters"] if p["name"] == "page_size")
    assert page_size["schema"]["maximum"] == 100


def test_the_schema_states_what_each_id_in_an_address_looks_like(client, db):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)

    def path_id(path: str, method: str) -> dict:
        [parameter] = [p for p in schema["paths"][path][method]["parameters"] if p["in"] == "path"]
        assert (parameter["name"], parameter["required"]) == ("id", True), path
        return parameter["schema"]

    # The desk/1 format's own patterns, so a client (or Schemathesis) writes ids the API can find.
    story_id = {"type": "string", "pattern": "^(0|[1-9][0-9]{0,17})$"}
    assert path_id("/api/v1/stories/{id}/", "get") == story_id
    for action in ("publish", "corrections", "retract"):
        assert path_id(f"/api/v1/stories/{{id}}/{action}/", "post") == story_id
    assert path_id("/api/v1/editions/{id}/", "get") == {
        "type": "string",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}$",
    }


def test_a_run_documents_its_retry_time_as_read_only_and_nullable(client, db):
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)

    retry_at = schema["components"]["schemas"]["Run"]["properties"]["retry_at"]

    assert (retry_at["type"], retry_at["format"]) == ("string", "date-time")
    assert retry_at["readOnly"] is True
    assert retry_at["nullable"] is True


def test_the_schema_generates_without_warnings(db):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


def test_anonymous_reads_declare_no_security_and_token_work_a_bearer_token(client, db):
    # openapi-python-client makes every operation declaring security: [{}] ask for an
    # authenticated client; a read that needs no token declares none.
    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    needs_token = {"/api/v1/me/", "/api/v1/runs/{id}/"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if (
                method == "get"
                and path not in needs_token
                and not path.startswith(("/api/v1/webhooks/", "/api/v1/desk/"))
            ):
                assert "security" not in operation, (method, path)
            else:
                assert operation["security"] == [{"bearerToken": []}], (method, path)


def test_the_story_and_a_submission_are_typed_by_the_desk_1_schema(client, db):
    import json

    from api.schema import DESK1_SCHEMA

    schema = yaml.safe_load(client.get("/api/v1/schema/").content)
    detail = schema["paths"]["/api/v1/stories/{id}/"]["get"]["responses"]["200"]["content"]["application/json"]
    submission = schema["paths"]["/api/v1/stories/"]["post"]["requestBody"]["content"]["application/json"]
    assert detail["schema"] == submission["schema"] == {"$ref": "#/components/schemas/Desk1Story"}
    story, source = schema["components"]["schemas"]["Desk1Story"], json.loads(DESK1_SCHEMA.read_text())
    assert story["required"] == source["required"]
    assert set(story["properties"]) == set(source["properties"])
    assert story["additionalProperties"] is False
    # Its definitions are components of their own, referred to by OpenAPI paths.
    assert {f"Desk1_{name}" for name in source["$defs"]} <= set(schema["components"]["schemas"])
    text = json.dumps(schema["components"]["schemas"])
    assert "#/$defs/" not in text
    assert '"const"' not in text


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_pages_load_the_schema(client, db, path):
    response = client.get(path)

    assert response.status_code == 200
    page = response.content.decode()
    if path == "/api/v1/docs/":  # Swagger UI's start-up script is a file of its own (CSP)
        page = client.get(path, {"script": ""}).content.decode()
    assert "/api/v1/schema/" in page
