"""The read half of the API: anonymous, published content only.

Every view reads live versions (``PublishedVersion.objects.live()``), never a story's working
copy; a story's detail is its JSON twin, the bytes stored when it was published.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.http import HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from editions.models import Edition
from manifests.models import Manifest
from newsroom.models import Beat, Newsroom
from stories.desk import edition_pattern, format_utc, is_story_id
from stories.models import LiveCitation, PublishedVersion
from stories.stored import Stored, stored_by_id

from . import listcache, serializers, writing
from .authentication import BearerTokenAuthentication
from .conditional import ConditionalMixin, stories_changed_at
from .errors import ErrorSerializer, Gone
from .filters import BeatFilter, StoryFilter
from .idempotency import idempotent
from .models import Scope, StoryChange
from .pagination import Cursor, link_header
from .schema import DESK1_STORY
from .tokens import HasScope

# The largest 64-bit database id: a larger number names no beat.
MAX_ID = 2**63 - 1

NOT_MODIFIED = OpenApiResponse(description="Not modified: the If-None-Match or If-Modified-Since still holds.")
VALIDATORS = [
    OpenApiParameter("ETag", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200, 304]),
    OpenApiParameter(
        "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, description="An ETag you have: 304 if current."
    ),
]
LAST_MODIFIED = [
    OpenApiParameter("Last-Modified", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200, 304]),
    OpenApiParameter(
        "If-Modified-Since", OpenApiTypes.STR, OpenApiParameter.HEADER, description="An HTTP date: 304 if unchanged."
    ),
]


def errors(*codes: int) -> dict[int, Any]:
    descriptions = {
        400: "A query parameter cannot be used: problems name each one.",
        404: "Not found.",
        406: "Only application/json is offered.",
        410: "The story was retracted.",
        412: "An If-Match or If-Unmodified-Since precondition failed.",
        429: "Too many requests from this client: see Retry-After.",
    }
    # Any GET may meet these: a client that accepts no JSON, a failed If-Match, the throttle.
    return {code: OpenApiResponse(ErrorSerializer, description=descriptions[code]) for code in (*codes, 406, 412, 429)}


def read(
    summary: str,
    serializer: type,
    *codes: int,
    many: bool,
    last_modified: bool = False,
    path: tuple[OpenApiParameter, ...] = (),
) -> Any:
    """The schema of a GET: its serializer, path parameters, validators, 304 and error responses."""
    return extend_schema_view(
        get=extend_schema(
            summary=summary,
            parameters=[*path, *VALIDATORS, *(LAST_MODIFIED if last_modified else [])],
            responses={200: serializer(many=True) if many else serializer, 304: NOT_MODIFIED, **errors(*codes)},
        )
    )


# Anonymous reads: no session or token is looked at, so a signed-in editor's drafts can never
# leak through here, and every client is throttled as anonymous.
class ReadView(ConditionalMixin):
    authentication_classes: tuple = ()
    permission_classes = (AllowAny,)
    pagination_class = Cursor


@read("Newsrooms", serializers.NewsroomSerializer, 400, many=True)
class NewsroomList(ReadView, generics.ListAPIView):
    queryset = Newsroom.objects.all()
    serializer_class = serializers.NewsroomSerializer
    cursor_ordering = ("slug",)


@read("A newsroom", serializers.NewsroomSerializer, 404, many=False)
class NewsroomDetail(ReadView, generics.RetrieveAPIView):
    queryset = Newsroom.objects.all()
    serializer_class = serializers.NewsroomSerializer
    lookup_field = "slug"


@read("Beats", serializers.BeatSerializer, 400, many=True)
class BeatList(ReadView, generics.ListAPIView):
    queryset = Beat.objects.select_related("newsroom")
    serializer_class = serializers.BeatSerializer
    filterset_class = BeatFilter
    cursor_ordering = ("id",)


@read("A beat", serializers.BeatSerializer, 404, many=False)
class BeatDetail(ReadView, generics.RetrieveAPIView):
    queryset = Beat.objects.select_related("newsroom")
    serializer_class = serializers.BeatSerializer

    def get_object(self) -> Beat:
        if not 0 < int(self.kwargs["pk"]) <= MAX_ID:  # a database integer, or no beat
            raise NotFound(f"No beat has the id {self.kwargs['pk']}.")
        return super().get_object()


def public_editions() -> Any:
    # An edition is public through its live stories, as on the site: until one is, it is not there.
    return Edition.objects.filter(key__in=PublishedVersion.objects.live().values("edition_id"))


@read("Editions with live stories", serializers.EditionSerializer, 400, many=True)
class EditionList(ReadView, generics.ListAPIView):
    serializer_class = serializers.EditionSerializer
    cursor_ordering = ("-key",)

    def get_queryset(self) -> Any:
        return public_editions()


EDITION_ID = OpenApiParameter(
    "id",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=edition_pattern(),
    description="The edition's key, its UTC hour: 2026-10-16T00.",
)


@read("An edition", serializers.EditionSerializer, 404, many=False, path=(EDITION_ID,))
class EditionDetail(ReadView, generics.RetrieveAPIView):
    serializer_class = serializers.EditionSerializer
    lookup_url_kwarg = "id"

    def get_queryset(self) -> Any:
        return public_editions()


def public_manifests() -> Any:
    # The sources live stories cite, as their pages show them; not the whole store.
    cited = LiveCitation.objects.filter(version__in=PublishedVersion.objects.live()).values("manifest_id")
    return Manifest.objects.filter(manifest_id__in=cited).prefetch_related("claims")


@read("Manifests cited by live stories, with their claims", serializers.ManifestSerializer, 400, many=True)
class ManifestList(ReadView, generics.ListAPIView):
    serializer_class = serializers.ManifestSerializer
    cursor_ordering = ("manifest_id",)

    def get_queryset(self) -> Any:
        return public_manifests()


@read("A manifest, with its claims", serializers.ManifestSerializer, 404, many=False)
class ManifestDetail(ReadView, generics.RetrieveAPIView):
    serializer_class = serializers.ManifestSerializer
    lookup_field = "manifest_id"

    def get_queryset(self) -> Any:
        return public_manifests()


@read("Live stories, newest first", serializers.StorySummarySerializer, 400, many=True, last_modified=True)
@extend_schema_view(post=writing.SUBMIT_SCHEMA)
class StoryList(ReadView, generics.ListAPIView):
    """GET: anonymous, live stories only. POST: a writer's submission, with a token."""

    serializer_class = serializers.StorySummarySerializer
    filterset_class = StoryFilter
    cursor_ordering = ("-published_at", "-desk_id")

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        self._incoming_method = request.method
        return super().initialize_request(request, *args, **kwargs)

    def _writing(self) -> bool:
        # The schema generator hands the view a mock request instead of initialising one.
        request = getattr(self, "request", None)
        return (request.method if request is not None else getattr(self, "_incoming_method", "GET")) == "POST"

    def get_authenticators(self) -> list[Any]:
        # Only a submission looks at credentials: reads stay anonymous whatever a client sends.
        return [BearerTokenAuthentication()] if self._writing() else []

    # A submission needs a token with the scope submit (api/tokens.py).
    token_scopes = {"POST": Scope.SUBMIT}

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated(), HasScope()] if self._writing() else [AllowAny()]

    @idempotent
    def post(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        return writing.submit(request)

    def get_queryset(self) -> Any:
        return PublishedVersion.objects.live().values(*serializers.StorySummarySerializer.source_fields)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        # Read before the page: a change committed in between leaves Last-Modified too old,
        # so a client asks again, rather than too new, which would hide the change from it.
        # (The same order keeps a stored page no older than its key says: see listcache.)
        self.changed_at = stories_changed_at()
        key = listcache.page_key(request, self.changed_at)
        page = listcache.stored(key)
        if page is None:
            data = super().list(request, *args, **kwargs).data
            content = request.accepted_renderer.render(data, request.accepted_media_type, self.get_renderer_context())
            page = listcache.store(key, content, link=link_header(data))
        response = HttpResponse(page.content, content_type="application/json")
        if page.link:
            response["Link"] = page.link
        return response


@extend_schema(
    summary="A live story: its desk/1 document",
    description=(
        "The story's published hangingcontext.desk/1 document, byte for byte its JSON twin at "
        "/stories/{date}/{slug}/index.json. A draft, or changes not yet republished, never show "
        "here. A retracted story answers 410."
    ),
    parameters=[
        writing.STORY_ID_PARAMETER,
        *VALIDATORS,
        *LAST_MODIFIED,
    ],
    responses={
        200: OpenApiResponse(DESK1_STORY, description="The desk/1 document (its JSON Schema: Desk1Story)."),
        304: NOT_MODIFIED,
        **errors(404, 410),
    },
)
class StoryDetail(ReadView, APIView):
    def get(self, request: Request, id: str) -> HttpResponse:
        version = live_story(id)
        # The stored twin itself, not re-serialised: the same bytes as the site's index.json.
        response = HttpResponse(version.artifact, content_type="application/json")
        response["Link"] = f'<{version.absolute_url()}>; rel="canonical"; type="text/html"'
        self.changed_at = version.modified_at
        return response


def live_story(id: str) -> Stored:
    """The live version of the story with this desk/1 id and its JSON twin; 404, or 410 once retracted."""
    missing = NotFound(f"No published story has the id {id!r}.")
    if not is_story_id(id):
        raise missing
    version = stored_by_id(desk_id=int(id), artifact="document")
    # A story scheduled for later is not public yet, retracted or not: nothing to say of it.
    if version is None or version.published_at > timezone.now():
        raise missing
    if version.withdrawn_at is not None:
        raise Gone()
    return version


class NoEndpoint(ReadView, APIView):
    """Any other address under /api/v1/: a 404 in the API's error shape, not an HTML page."""

    schema = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        path = request.path_info
        try:
            slashed = not path.endswith("/") and resolve(path + "/").func.view_class is not type(self)
        except (Resolver404, AttributeError):
            slashed = False
        hint = f" Did you mean {path}/ ?" if slashed else ""
        raise NotFound(f"There is no API endpoint at {path}.{hint}")


CHANGES_PAGE = 100
CURSOR = re.compile(r"(\d{1,19})-(\d{1,19})")


def change_cursor(change: StoryChange) -> str:
    # The feed's order, (at, id), in microseconds: opaque to clients, exact for the database.
    at = change.at
    micros = (at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    return f"{micros}-{change.pk}"


def after_cursor(value: str) -> tuple[datetime, int]:
    match = CURSOR.fullmatch(value)
    if match is None or int(match.group(2)) > MAX_ID:
        raise ValidationError({"after": ["This cursor is not one the changes feed gave out: pass a change's cursor."]})
    try:
        at = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=int(match.group(1)))
    except OverflowError:
        raise ValidationError({"after": ["This cursor is not one the changes feed gave out."]}) from None
    return at, int(match.group(2))


def change_entry(change: StoryChange) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "cursor": change_cursor(change),
        "event": change.event,
        "id": str(change.desk_id),
        "occurred_at": format_utc(change.at),
        "story": change.summary,
        "tombstone": change.summary is None,
    }
    if change.summary is None:
        entry["reason"] = change.retracted_reason
    return entry


@extend_schema(
    summary="Changes: publications, corrections, updates and retractions, in order",
    description=(
        "A mirror starts without after= and applies each change in order: a story's summary replaces "
        "the one it has, a tombstone (a retraction) removes it. Then it polls next, which carries the "
        "last cursor, and stays exactly the live story list. A change is listed once it is public "
        "(and API_CHANGES_SETTLE_SECONDS old, so no change committing late is skipped); "
        f"at most {CHANGES_PAGE} a page."
    ),
    parameters=[
        OpenApiParameter("after", OpenApiTypes.STR, description="A change's cursor: the changes after it."),
        *VALIDATORS,
    ],
    responses={200: serializers.ChangesPageSerializer, 304: NOT_MODIFIED, **errors(400)},
)
class ChangeList(ReadView, APIView):
    def get(self, request: Request) -> HttpResponse:
        after = request.query_params.get("after")
        # A change is listed only when it has settled: one committing just now, with an
        # earlier (at, id) than one already listed, would be skipped by a mirror otherwise.
        changes = StoryChange.objects.filter(
            at__lte=timezone.now() - timedelta(seconds=settings.API_CHANGES_SETTLE_SECONDS)
        )
        if after is not None:
            at, pk = after_cursor(after)
            changes = changes.filter(Q(at__gt=at) | Q(at=at, pk__gt=pk))
        page = [change_entry(change) for change in changes.order_by("at", "pk")[:CHANGES_PAGE]]
        cursor = page[-1]["cursor"] if page else after
        url = request.build_absolute_uri(reverse("api-change-list"))
        body = {"results": page, "cursor": cursor, "next": f"{url}?after={cursor}" if cursor else url}
        response = Response(body)
        if len(page) == CHANGES_PAGE:
            response["Link"] = f'<{body["next"]}>; rel="next"'
        return response


# The index's resources: (name, URL name, what it lists).
RESOURCES = [
    ("stories", "api-story-list", "Live stories, newest first; each story's desk/1 document at {id}/."),
    ("newsrooms", "api-newsroom-list", "Newsrooms."),
    ("beats", "api-beat-list", "Beats, within their newsrooms."),
    ("editions", "api-edition-list", "Editions with live stories."),
    ("manifests", "api-manifest-list", "Manifests cited by live stories, with their claims."),
    ("changes", "api-change-list", "Publications, corrections and retractions in order, for mirrors."),
    (
        "desk",
        "api-desk-story-list",
        "With a token (scope read): your newsrooms' working copies, drafts included, and their runs.",
    ),
]


@extend_schema(
    summary="The API's index: its resources, schema and docs",
    responses={
        200: OpenApiResponse(OpenApiTypes.OBJECT, description="Links to each resource and the docs."),
        **errors(),
    },
)
class ApiIndex(ReadView, APIView):
    def get(self, request: Request) -> Response:
        def url(name: str) -> str:
            return request.build_absolute_uri(reverse(name))

        return Response(
            {
                "resources": {name: {"url": url(view), "description": text} for name, view, text in RESOURCES},
                "schema": url("api-schema"),
                "docs": url("api-docs"),
                "redoc": url("api-redoc"),
            }
        )
