"""What the MCP door's tools and resources do (``api/mcp_server.py`` speaks the protocol).

Each function is one tool: it takes the caller and the tool's arguments, asks ``require``, does
its work through the API's own reads and services, and answers the API's bodies. A refusal is
the API's exception (``NotFound``, ``PermissionDenied``, a ``ValidationError`` with problems ...),
so the door reports it with the API's error body and code. Reads are of live published versions
only, whoever asks: a token never shows a working copy here.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework import exceptions

from manifests.models import Claim
from newsroom.models import ReuseTerms
from public.search import MAX_QUERY_LENGTH, search_versions
from stories import desk
from stories.models import PublishedVersion
from stories.services import StaleVersion, WorkflowError

from . import serializers, views, writing
from .permissions import Caller, require
from .services import HiddenStory, UnknownStory, story_submit_document

MAX_RESULTS = 50


def search_stories(caller: Caller, request: HttpRequest, *, query: str, limit: int = 10) -> dict[str, Any]:
    require(caller, "read")
    if len(query) > MAX_QUERY_LENGTH:
        raise exceptions.ValidationError(
            {"query": [f"Ensure this field has no more than {MAX_QUERY_LENGTH} characters."]}
        )
    if not 1 <= limit <= MAX_RESULTS:
        raise exceptions.ValidationError({"limit": [f"Must be from 1 to {MAX_RESULTS}."]})
    versions = search_versions(PublishedVersion.objects.live(), query).order_by("-published_at", "-desk_id")
    rows = versions.values(*serializers.StorySummarySerializer.source_fields)[:limit]
    summary = serializers.StorySummarySerializer()
    return {"results": [summary.to_representation(row) for row in rows]}


def get_story(caller: Caller, request: HttpRequest, *, id: str) -> dict[str, Any]:
    """The live version's desk/1 document, and for each key fact and paragraph the text of the
    claims it cites, from the manifest store."""
    require(caller, "read")
    document = json.loads(views.live_story(id).artifact)
    parts = [
        ({"at": f"key_facts[{index}]", "text": fact["text"]}, fact["cites"])
        for index, fact in enumerate(document.get("key_facts", []))
    ] + [
        ({"at": f"sections[{s}].paragraphs[{p}]", "markdown": paragraph["markdown"]}, paragraph["cites"])
        for s, section in enumerate(document.get("sections", []))
        for p, paragraph in enumerate(section["paragraphs"])
    ]
    cited = {cite["manifest_id"] for _, cites in parts for cite in cites}
    texts = {
        (manifest_id, claim_id): text
        for manifest_id, claim_id, text in Claim.objects.filter(manifest__manifest_id__in=cited).values_list(
            "manifest__manifest_id", "claim_id", "text"
        )
    }
    evidence = [
        part
        | {
            "claims": [
                {
                    "manifest_id": cite["manifest_id"],
                    "claim_id": claim_id,
                    "text": texts.get((cite["manifest_id"], claim_id)),
                }
                for cite in cites
                for claim_id in cite["claim_ids"]
            ]
        }
        for part, cites in parts
    ]
    return {"story": document, "evidence": evidence}


def get_manifest(caller: Caller, request: HttpRequest, *, manifest_id: str) -> dict[str, Any]:
    """A manifest live stories cite, with its claims: as ``GET /api/v1/manifests/{id}/``."""
    require(caller, "read")
    manifest = views.public_manifests().filter(manifest_id=manifest_id).first()
    if manifest is None:
        raise exceptions.NotFound(f"No manifest cited by a live story has the id {manifest_id!r}.")
    return serializers.ManifestSerializer(manifest).data


def submit_story(
    caller: Caller, request: HttpRequest, *, document: Any, edit_version: int | None = None
) -> dict[str, Any]:
    """As ``POST /api/v1/stories/``: the same service, so the same checks and refusals."""
    require(caller, "submit")
    try:
        submission = story_submit_document(document=document, user=caller.user, expected_version=edit_version)
    except (desk.DeskError, WorkflowError, StaleVersion, UnknownStory, HiddenStory) as error:
        raise writing.refused(error) from None
    return writing.submission_body(request, submission)


def get_run(caller: Caller, request: HttpRequest, *, run_id: int) -> dict[str, Any]:
    """As ``GET /api/v1/runs/{id}/``: its checks and problems, each with its check and place."""
    run = writing.visible_run(caller.user, run_id)
    require(caller, "read", run.story.newsroom_id)
    return writing.run_body(request, run)


def publish_story(
    caller: Caller, request: HttpRequest, *, id: str, override_reason: str | None = None
) -> dict[str, Any]:
    """As ``POST /api/v1/stories/{id}/publish/``: through the publish gate, for chiefs."""
    story = writing.visible_story(caller.user, id)
    require(caller, "publish", story.newsroom_id)
    return writing.publish_body(request, story, user=caller.user, override_reason=override_reason)


# --- Resources ---------------------------------------------------------------------------------


def reuse_terms() -> dict[str, Any]:
    """The reuse terms in force, as ``/.well-known/reuse.json`` gives them."""
    terms = ReuseTerms.objects.in_force()
    if terms is None:
        raise exceptions.NotFound("No reuse terms have been published yet.")
    content = {**terms.content(), "license_url": terms.license_url(), "machine_url": terms.machine_url()}
    return content | {"site": settings.SITE_URL}


def desk_schema() -> dict[str, Any]:
    """The hangingcontext.desk/1 JSON Schema, the one every submission is validated against."""
    return desk.schema()
