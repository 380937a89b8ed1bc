"""The write half of the API: writer agents and editors, with a bearer token.

- ``POST /api/v1/stories/`` (``StoryList.post``): a desk/1 document into its story's working
  copy, submitted for the checks; ``202`` with the story and its run.
- ``GET /api/v1/runs/{id}/``: a verification run, its state and problems.
- ``POST /api/v1/stories/{id}/publish/``, ``corrections/``, ``retract/``: for chiefs, the same
  workflow functions admin calls.

A token acts as its user with the user's roles (``newsroom.roles``): a story of a newsroom where
the user has none is not found, and writing there is forbidden.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from newsroom.models import Newsroom, Role
from newsroom.roles import roles_of
from stories.desk import DeskError, is_story_id, story_id_pattern
from stories.models import Story
from stories.services import StaleVersion, WorkflowError, WorkflowPermissionDenied
from verification.models import CheckStatus, VerificationRun
from verification.workflow import story_add_correction, story_publish, story_retract

from .authentication import BearerTokenAuthentication
from .errors import Conflict, ErrorSerializer
from .idempotency import idempotency_parameters, idempotent
from .models import Scope
from .pagination import Cursor
from .parsers import request_body
from .schema import DESK1_STORY
from .services import HiddenStory, NoRole, Submission, UnknownStory, actor_for, story_submit_document
from .tokens import HasScope, scopes_in, scopes_of

MAX_DESK_ID = 2**63 - 1

# Stated in the schema, so clients (and Schemathesis) know what the address takes; anything else
# names no story and is answered 404.
STORY_ID_PARAMETER = OpenApiParameter(
    "id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=story_id_pattern(),
    description='The desk/1 story id: a whole number written as a string, like "81".',
)


# --- What the write endpoints answer -----------------------------------------------------------


class StoryStateSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The desk/1 story id.")
    status = serializers.ChoiceField(choices=Story.Status.choices, help_text="The working copy's state.")
    edit_version = serializers.IntegerField(
        help_text='Counts changes of the written content: send it back as If-Match: "<edit_version>" to update.'
    )
    published = serializers.BooleanField(help_text="Whether readers get a live version now.")
    unpublished_changes = serializers.BooleanField(help_text="The working copy holds content readers do not get.")
    url = serializers.URLField(help_text="The story in the read API: 404 until published, 410 once retracted.")
    page = serializers.URLField(allow_null=True, help_text="The story's page, once published.")


class RunRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=VerificationRun.Status.choices)
    url = serializers.URLField(help_text="Poll it until finished is true.")


class SubmissionSerializer(serializers.Serializer):
    done = serializers.ChoiceField(
        choices=["created", "updated", "unchanged"],
        help_text="unchanged: the story is published with this very content; nothing was checked again.",
    )
    message = serializers.CharField()
    story = StoryStateSerializer()
    run = RunRefSerializer(allow_null=True, help_text="The verification run deciding this content.")


class RunProblemSerializer(serializers.Serializer):
    check = serializers.CharField(help_text="The check that found it.")
    status = serializers.ChoiceField(choices=CheckStatus.choices, help_text="fail or unknown.")
    code = serializers.CharField(
        help_text="A stable code of the problem's kind, e.g. claim_not_in_manifest (empty where a check gives none)."
    )
    at = serializers.CharField(help_text="A desk/1 path: key_facts[0].cites[1], sections[2].paragraphs[0] ...")
    message = serializers.CharField()


class RunCheckSerializer(serializers.Serializer):
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=CheckStatus.choices)


class RunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    story = serializers.CharField(help_text="The desk/1 story id.")
    story_url = serializers.URLField()
    status = serializers.ChoiceField(choices=VerificationRun.Status.choices)
    finished = serializers.BooleanField()
    current = serializers.BooleanField(help_text="Whether the run checked the story's content as it is now.")
    queued_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    retry_at = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text=(
            "When the checks run again by themselves: set while the story waits on this run, which "
            "could not decide (status unknown); null otherwise."
        ),
    )
    overridden = serializers.BooleanField(help_text="A chief published the story through it with a reason.")
    checks = RunCheckSerializer(many=True)
    problems = RunProblemSerializer(many=True, help_text="What failed or could not be decided; empty when passed.")


class TextField(serializers.CharField):
    """Text only: DRF's CharField would take the number 5 as "5"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class PublishRequestSerializer(serializers.Serializer):
    override_reason = TextField(
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="Publish through checks that did not pass: why (recorded on the run and shown in admin).",
    )


class CorrectionRequestSerializer(serializers.Serializer):
    text = TextField(max_length=5000, help_text="The correction, as readers will read it.")


class RetractRequestSerializer(serializers.Serializer):
    reason = TextField(max_length=280, help_text="Why the story is withdrawn (kept with it).")


class CorrectionSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    published_at = serializers.DateTimeField()
    text = serializers.CharField()


class ActionSerializer(serializers.Serializer):
    done = serializers.ChoiceField(
        choices=["published", "corrected", "retracted", "nothing"],
        help_text="What was done; nothing when the story already was so.",
    )
    message = serializers.CharField(help_text='What happened, e.g. "Already published: nothing to do."')
    story = StoryStateSerializer()
    correction = CorrectionSerializer(required=False, help_text="The correction added (corrections only).")
    overridden = serializers.BooleanField(required=False, help_text="Published overriding its checks (publish only).")


def absolute(request: Request, name: str, **kwargs: Any) -> str:
    return request.build_absolute_uri(reverse(name, kwargs=kwargs))


def story_state(request: Request, story: Story) -> dict[str, Any]:
    story = Story.objects.select_related("live_version").get(pk=story.pk)
    live = story.live_version_or_none
    return {
        "id": str(story.desk_id),
        "status": story.status,
        "edit_version": story.edit_version,
        "published": story.is_public,
        "unpublished_changes": story.has_unpublished_changes,
        "url": absolute(request, "api-story-detail", id=str(story.desk_id)),
        "page": live.absolute_url() if live is not None and story.is_public else None,
    }


def run_ref(request: Request, run: VerificationRun | None) -> dict[str, Any] | None:
    if run is None:
        return None
    return {"id": run.pk, "status": run.status, "url": absolute(request, "api-run-detail", id=run.pk)}


# --- Errors the write endpoints share -------------------------------------------------------


def _desk_problems(error: DeskError) -> list[dict[str, str]]:
    return [{"at": problem.at, "message": problem.message} for problem in error.problems]


def refused(error: Exception) -> exceptions.APIException:
    """A service's refusal as the API's error."""
    if isinstance(error, DeskError):
        invalid = exceptions.ValidationError()
        invalid.detail = {}
        invalid.problems = _desk_problems(error)  # type: ignore[attr-defined]
        return invalid
    if isinstance(error, NoRole):
        denied = exceptions.PermissionDenied(error.message)
        denied.problems = [{"at": error.at, "message": error.message}]  # type: ignore[attr-defined]
        return denied
    if isinstance(error, WorkflowPermissionDenied):
        return exceptions.PermissionDenied(error.message)
    if isinstance(error, StaleVersion):
        return Conflict(error.message, code="stale_version", problems=[{"at": "If-Match", "message": error.message}])
    if isinstance(error, HiddenStory):
        hidden = exceptions.NotFound(str(error) + ".")
        hidden.problems = [{"at": "id", "message": str(error)}]  # type: ignore[attr-defined]
        return hidden
    if isinstance(error, UnknownStory):
        return Conflict(str(error), code="stale_version", problems=[{"at": "If-Match", "message": str(error)}])
    if isinstance(error, WorkflowError):
        return Conflict(error.message)
    raise error


WRITE_ERRORS = {
    400: "The body is not strict JSON, or not acceptable: problems name each place.",
    401: "No token, or a token that is unknown, revoked or expired.",
    403: (
        "The token's user has no role (or not the role) this needs in the story's newsroom, or the token "
        "lacks the scope it needs (error insufficient_scope, naming the scope)."
    ),
    404: "No story (or run) with this id in a newsroom where the token's user has a role.",
    405: "Only POST here.",
    406: "Only application/json is offered.",
    409: (
        "The story is not in a state that allows this, If-Match names an older edit version, or the "
        "first request with this Idempotency-Key is still being answered."
    ),
    413: "The body is over the size limit.",
    415: "Only application/json bodies.",
    422: "This Idempotency-Key was used for another request within the last day.",
    429: "Too many requests with this token: see Retry-After.",
}


def write_errors(*codes: int) -> dict[int, OpenApiResponse]:
    # Any request may meet these: a client that accepts no JSON, the throttle.
    return {code: OpenApiResponse(ErrorSerializer, description=WRITE_ERRORS[code]) for code in (*codes, 406, 429)}


# --- Submitting --------------------------------------------------------------------------------

IF_MATCH = re.compile(r'\s*(?:W/)?"?(\d{1,9})"?\s*')
IF_MATCH_PARAMETER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=(
        'The edit version the document was based on, e.g. "3" (the story\'s edit_version). When given, '
        "the update is refused with 409 if the story has changed since; without it, the document "
        "replaces the working copy whatever it holds."
    ),
)


def expected_version(request: Request) -> int | None:
    value = request.headers.get("If-Match")
    if value is None:
        return None
    match = IF_MATCH.fullmatch(value)
    if match is None:
        raise exceptions.ValidationError({"If-Match": [f'Must be an edit version in quotes, like "3", not {value!r}.']})
    return int(match.group(1))


# The reference story, as the example of a request body in the docs (and for Schemathesis).
SEED_EXAMPLE = Path(__file__).resolve().parent.parent / "stories" / "fixtures" / "seeds" / "agent-training-stack.json"

SUBMIT_SCHEMA = extend_schema(
    summary="Submit a story: create it, or update its working copy",
    description=(
        "The body is a hangingcontext.desk/1 document (see desk-1.schema.json). Its story (by id) is "
        "created, or its working copy replaced, and submitted for the checks; a newsroom that publishes "
        "automatically publishes it when they pass. Needs a role in the document's newsroom (and, for an "
        "existing story, in its newsroom) and the token scope submit. Answers 202 with the story and the "
        "run to poll; 200 when the story is published with exactly this content (nothing to check)."
    ),
    request={"application/json": DESK1_STORY},
    examples=[
        OpenApiExample(
            "A desk/1 story",
            value=json.loads(SEED_EXAMPLE.read_text()),
            request_only=True,
            description="The reference story agent-training-stack (id 81).",
        )
    ],
    parameters=[IF_MATCH_PARAMETER, *idempotency_parameters(200, 202)],
    responses={
        202: SubmissionSerializer,
        200: SubmissionSerializer,
        **write_errors(400, 401, 403, 404, 409, 413, 415, 422, 429),
    },
)


def submit(request: Request) -> Response:
    version = expected_version(request)
    document = request_body(request)
    try:
        submission = story_submit_document(document=document, user=request.user, expected_version=version)
    except (DeskError, WorkflowError, StaleVersion, UnknownStory, HiddenStory) as error:
        raise refused(error) from None
    return Response(
        submission_body(request, submission),
        status=status.HTTP_202_ACCEPTED if submission.submitted else status.HTTP_200_OK,
        headers={"Location": run_ref(request, submission.run)["url"]} if submission.run else {},
    )


def submission_body(request: Request, submission: Submission) -> dict[str, Any]:
    story = submission.story
    if not submission.submitted:
        done, message = "unchanged", f"Story {story.desk_id} is published with this content already: nothing to do."
    else:
        done = "created" if submission.created else "updated"
        run = submission.run
        message = f"Story {story.desk_id} {done} and submitted for checks (run {run.pk}: {run.status})."
    return {
        "done": done,
        "message": message,
        "story": story_state(request, story),
        "run": run_ref(request, submission.run),
    }


# --- Runs and actions ----------------------------------------------------------------------------


class TokenView(APIView):
    authentication_classes = (BearerTokenAuthentication,)
    permission_classes = (IsAuthenticated, HasScope)
    # The scope each method needs (api/tokens.py); none for a method not named.
    token_scopes: dict[str, str] = {}


class TokenListView(TokenView, generics.ListAPIView):
    """A list a token reads, paged by cursor (``cursor_ordering``), each row as ``row_body``
    gives it. ``queryset`` is an empty one of the model, for the schema; ``rows`` the request's."""

    pagination_class = Cursor

    def rows(self) -> QuerySet:
        raise NotImplementedError

    def row_body(self, request: Request, row: Any) -> dict[str, Any]:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return self.rows()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([self.row_body(request, row) for row in page])


def story_of(request: Request, id: str) -> Story:
    """The story with this desk/1 id, among those the user may see, or 404."""
    return visible_story(request.user, id)


def visible_story(user: Any, id: str) -> Story:
    """The story with this desk/1 id, among those the user may see, or 404."""
    if is_story_id(id):
        story = Story.objects.for_user(user).filter(desk_id=int(id)).first()
        if story is not None:
            return story
    raise exceptions.NotFound(f"No story with the id {id!r} in a newsroom where you have a role.")


def run_problems(run: VerificationRun) -> list[dict[str, str]]:
    order = {"fail": 0, "unknown": 1}
    return [
        {
            "check": check["name"],
            "status": check["status"],
            "code": problem.get("code", ""),
            "at": problem["at"],
            "message": problem["message"],
        }
        for check in sorted(run.checks, key=lambda check: order.get(check["status"], 2))
        if check["status"] != "pass"
        for problem in check.get("problems", [])
    ]


@extend_schema(
    summary="A verification run: its state and problems",
    description=(
        "Poll after submitting until finished is true. Only for a role in the story's newsroom; "
        "needs the token scope read."
    ),
    parameters=[OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH)],
    responses={200: RunSerializer, **write_errors(401, 403, 404, 429)},
)
class RunDetail(TokenView):
    token_scopes = {"GET": Scope.READ}

    def get(self, request: Request, id: int) -> Response:
        return Response(run_body(request, visible_run(request.user, id)))


def answerable_runs() -> QuerySet[VerificationRun]:
    """Runs with what ``run_body`` reads: their story, and in the same query whether the beat
    sweep will still ask again at its retry_at (not once the story was edited or submitted
    again), so the time shown is one that holds."""
    waiting = VerificationRun.objects.awaiting_retry().filter(pk=OuterRef("pk"))
    return VerificationRun.objects.select_related("story").annotate(awaits_retry=Exists(waiting))


def visible_run(user: Any, id: int) -> VerificationRun:
    """The run with this id, of a story in a newsroom where the user has a role, or 404."""
    run = (
        answerable_runs().filter(pk=id, story__in=Story.objects.for_user(user)).first()
        if 0 < id <= MAX_DESK_ID
        else None
    )
    if run is None:
        raise exceptions.NotFound(f"No run {id} of a story in a newsroom where you have a role.")
    return run


def run_body(request: Any, run: VerificationRun) -> dict[str, Any]:
    """A run as the API and the MCP door answer it (``RunSerializer``); ``run`` from ``visible_run``."""
    return {
        "id": run.pk,
        "url": absolute(request, "api-run-detail", id=run.pk),
        "story": str(run.story.desk_id),
        "story_url": absolute(request, "api-story-detail", id=str(run.story.desk_id)),
        "status": run.status,
        "finished": run.is_finished,
        "current": not run.is_stale,
        "queued_at": run.queued_at,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "retry_at": run.retry_at if run.awaits_retry else None,
        "overridden": run.is_overridden,
        "checks": [{"name": check["name"], "status": check["status"]} for check in run.checks],
        "problems": run_problems(run),
    }


def action(summary: str, description: str, request: type, answer: int = 200) -> Any:
    return extend_schema(
        summary=summary,
        description=description + " Needs the chief role in the story's newsroom and the token scope publish.",
        parameters=[STORY_ID_PARAMETER, *idempotency_parameters(answer)],
        request=request,
        responses={answer: ActionSerializer, **write_errors(400, 401, 403, 404, 409, 413, 415, 422, 429)},
    )


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = request_body(request)
    if not isinstance(data, dict):
        raise exceptions.ValidationError({"$": ["Must be a JSON object."]})
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


@action(
    "Publish a story",
    "Through the publish gate: its current content passed its checks, or override_reason says why it "
    "goes out anyway. A story already published with this content: nothing to do.",
    PublishRequestSerializer,
)
class StoryPublish(TokenView):
    token_scopes = {"POST": Scope.PUBLISH}

    @idempotent
    def post(self, request: Request, id: str) -> Response:
        data = valid(PublishRequestSerializer, request)
        story = story_of(request, id)
        return Response(publish_body(request, story, user=request.user, override_reason=data.get("override_reason")))


def publish_body(request: Any, story: Story, *, user: Any, override_reason: str | None) -> dict[str, Any]:
    """Publish through the gate, as the API and the MCP door do it, and say what was done."""
    try:
        result = story_publish(story=story, actor=actor_for(user), user=user, override_reason=override_reason)
    except WorkflowError as refusal:
        raise refused(refusal) from None
    if result.published:
        how = " overriding its checks" if result.overridden else ""
        done, message = "published", f"Story {story.desk_id} published{how}."
    else:
        done, message = "nothing", f"Story {story.desk_id} is already published with this content: nothing to do."
    body = {"done": done, "message": message, "story": story_state(request, result.story)}
    return body | {"overridden": result.overridden}


@action(
    "Add a correction",
    "Appended, dated now, to the live story at once (page, twins, feeds) and to its working copy.",
    CorrectionRequestSerializer,
    answer=201,
)
class StoryCorrections(TokenView):
    token_scopes = {"POST": Scope.PUBLISH}

    @idempotent
    def post(self, request: Request, id: str) -> Response:
        data = valid(CorrectionRequestSerializer, request)
        story = story_of(request, id)
        try:
            correction = story_add_correction(story=story, text=data["text"], user=request.user)
        except WorkflowError as refusal:
            raise refused(refusal) from None
        body = {
            "done": "corrected",
            "message": f"Correction {correction.position + 1} added to story {story.desk_id}.",
            "story": story_state(request, story),
            "correction": {
                "position": correction.position,
                "published_at": correction.published_at,
                "text": correction.text,
            },
        }
        return Response(body, status=status.HTTP_201_CREATED)


@action(
    "Retract a story",
    "Withdrawn at once: its page and twins answer 410 with the notice; its address stays reserved. "
    "A retracted story: nothing to do.",
    RetractRequestSerializer,
)
class StoryRetract(TokenView):
    token_scopes = {"POST": Scope.PUBLISH}

    @idempotent
    def post(self, request: Request, id: str) -> Response:
        data = valid(RetractRequestSerializer, request)
        story = story_of(request, id)
        already = story.status == Story.Status.RETRACTED
        try:
            story = story_retract(story=story, user=request.user, reason=data["reason"])
        except WorkflowError as refusal:
            raise refused(refusal) from None
        if already:
            done, message = "nothing", f"Story {story.desk_id} is already retracted: nothing to do."
        else:
            done, message = "retracted", f"Story {story.desk_id} retracted."
        return Response({"done": done, "message": message, "story": story_state(request, story)})


# --- Who the token is ----------------------------------------------------------------------------


class TokenSerializer(serializers.Serializer):
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=Scope.choices),
        help_text=(
            "What the token was made to do: read (the desk's reads: runs, webhooks), submit (write and "
            "submit stories), publish (publish, correct, retract; manage webhooks). It does so only "
            "where its user's role allows."
        ),
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True, help_text="null: the token never expires.")


class MembershipSerializer(serializers.Serializer):
    newsroom = serializers.CharField(help_text="The newsroom's slug.")
    title = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="editor writes and submits; chief also publishes.")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=Scope.choices),
        help_text="What this token may do here: its scopes that the user's role allows.",
    )
    url = serializers.URLField(help_text="The newsroom in the read API.")


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    superuser = serializers.BooleanField(help_text="A superuser is chief in every newsroom.")
    token = TokenSerializer(help_text="The token of this request.")
    newsrooms = MembershipSerializer(many=True, help_text="The newsrooms where the user has a role, by title.")


@extend_schema(
    summary="The token: its scopes and expiry, its user's newsrooms and roles",
    description=(
        "What this token may do: its scopes, and each newsroom where its user has a role, with the role "
        "and what the token may do there (the scopes the role allows). Any token may ask."
    ),
    responses={200: MeSerializer, **write_errors(401, 429)},
)
class Me(TokenView):
    def get(self, request: Request) -> Response:
        user, token = request.user, request.auth
        # The one rule of roles (a superuser is chief everywhere), as every other check asks it.
        roles = roles_of(user)
        newsrooms = Newsroom.objects.filter(pk__in=roles).order_by("title")
        return Response(
            {
                "username": user.get_username(),
                "superuser": user.is_superuser,
                "token": {"scopes": scopes_of(token), "created_at": token.created, "expires_at": token.expiry},
                "newsrooms": [
                    {
                        "newsroom": newsroom.slug,
                        "title": newsroom.title,
                        "role": roles[newsroom.pk],
                        "scopes": scopes_in(token, roles[newsroom.pk]),
                        "url": absolute(request, "api-newsroom-detail", slug=newsroom.slug),
                    }
                    for newsroom in newsrooms
                ],
            }
        )
