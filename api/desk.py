"""The desk through the API, for writer agents and editors' tools: the working copies of the
stories in the newsrooms where the token's user has a role, drafts included, each as its desk/1
document, and a story's verification runs. Never public: a token with the scope ``read`` only,
and a story of another newsroom is not found (404), as everywhere else.

What readers get stays at ``/api/v1/stories/``; here is what the desk holds now, published or
not (``published`` and ``unpublished_changes`` say how the two differ).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from stories import desk
from stories.models import Story
from verification.models import VerificationRun

from .models import Scope
from .writing import (
    STORY_ID_PARAMETER,
    RunSerializer,
    TokenListView,
    TokenView,
    absolute,
    answerable_runs,
    run_body,
    visible_story,
    write_errors,
)

STATUS = OpenApiParameter(
    "status",
    str,
    enum=[str(choice) for choice in Story.Status.values],
    description="Only the working copies in this state.",
)


class DeskStorySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The desk/1 story id.")
    slug = serializers.CharField()
    headline = serializers.CharField()
    newsroom = serializers.CharField(help_text="The newsroom's slug.")
    beat = serializers.CharField(help_text="The beat's slug.")
    status = serializers.ChoiceField(choices=Story.Status.choices)
    edit_version = serializers.IntegerField(help_text="Send it as If-Match to replace this working copy.")
    updated_at = serializers.DateTimeField()
    published = serializers.BooleanField(help_text="Readers get a version of it.")
    unpublished_changes = serializers.BooleanField(help_text="The working copy holds what readers do not get yet.")
    url = serializers.URLField(help_text="This working copy with its desk/1 document.")
    runs_url = serializers.URLField(help_text="Its verification runs, newest first.")


class DeskStoryDetailSerializer(DeskStorySerializer):
    document = serializers.JSONField(help_text="The working copy as a desk/1 document (its JSON Schema: Desk1Story).")


def desk_story_body(request: Request, story: Story) -> dict[str, Any]:
    return {
        "id": str(story.desk_id),
        "slug": story.slug,
        "headline": story.headline,
        "newsroom": story.newsroom.slug,
        "beat": story.beat.slug,
        "status": story.status,
        "edit_version": story.edit_version,
        "updated_at": story.updated_at,
        "published": story.is_public,
        "unpublished_changes": story.has_unpublished_changes,
        "url": absolute(request, "api-desk-story-detail", id=str(story.desk_id)),
        "runs_url": absolute(request, "api-desk-story-runs", id=str(story.desk_id)),
    }


@extend_schema(
    summary="The desk's working copies, newest change first",
    description=(
        "The stories of the newsrooms where you have a role, drafts included, as the desk holds them "
        "now. Needs the token scope read."
    ),
    parameters=[STATUS],
    responses={200: DeskStorySerializer(many=True), **write_errors(400, 401, 403)},
)
class DeskStoryList(TokenListView):
    token_scopes = {"GET": Scope.READ}
    cursor_ordering = ("-updated_at", "-pk")
    queryset = Story.objects.none()

    def rows(self) -> QuerySet[Story]:
        stories = Story.objects.for_user(self.request.user).select_related("newsroom", "beat", "live_version")
        wanted = self.request.query_params.get("status")
        if wanted is not None:
            if wanted not in Story.Status.values:
                choices = ", ".join(Story.Status.values)
                raise exceptions.ValidationError({"status": [f"{wanted!r} is no status; one of {choices}"]})
            stories = stories.filter(status=wanted)
        return stories

    def row_body(self, request: Request, row: Story) -> dict[str, Any]:
        return desk_story_body(request, row)


@extend_schema(
    summary="A working copy and its desk/1 document",
    description=(
        "The story as the desk holds it now (published or not), with its desk/1 document: what a "
        "writer agent edits and submits again with If-Match: edit_version. Needs the token scope read."
    ),
    parameters=[STORY_ID_PARAMETER],
    responses={200: DeskStoryDetailSerializer, **write_errors(401, 403, 404)},
)
class DeskStoryDetail(TokenView):
    token_scopes = {"GET": Scope.READ}

    def get(self, request: Request, id: str) -> Response:
        story = visible_story(request.user, id)
        story = Story.objects.with_parts().select_related("newsroom", "beat", "live_version").get(pk=story.pk)
        return Response({**desk_story_body(request, story), "document": desk.export_story(story)})


@extend_schema(
    summary="A story's verification runs, newest first",
    description="Every run of the story's checks, as /api/v1/runs/{id}/ gives each. Needs the token scope read.",
    parameters=[STORY_ID_PARAMETER],
    responses={200: RunSerializer(many=True), **write_errors(400, 401, 403, 404)},
)
class DeskStoryRuns(TokenListView):
    token_scopes = {"GET": Scope.READ}
    cursor_ordering = ("-queued_at", "-pk")
    queryset = VerificationRun.objects.none()

    def rows(self) -> QuerySet[VerificationRun]:
        return answerable_runs().filter(story=visible_story(self.request.user, self.kwargs["id"]))

    def row_body(self, request: Request, row: VerificationRun) -> dict[str, Any]:
        return run_body(request, row)
