"""``/mcp/``: the MCP server for agents (streamable HTTP), on the official SDK (``mcp`` 2.x).

The SDK serves MCP as an ASGI app; the site runs under WSGI (gunicorn sync workers). So each
POST is one exchange: the view checks the bearer token as the API does, then runs the SDK's
streamable HTTP transport, stateless and answering JSON, for just this request
(``async_to_sync``) and sends back what it answered. Nothing is kept between requests, so any
worker serves any request, and no worker holds a stream open.

The tools themselves are ``api/agents.py``; they run on the request's own thread
(``sync_to_async``, thread-sensitive), with its database connection and transaction rules.
A tool's refusal carries the API's error body (``{"error", "message", "problems"}``) as its
structured content and its text.
"""

from __future__ import annotations

import contextvars
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import mcp.types as types
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from mcp.server import Server, ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder

from . import agents
from .authentication import BearerTokenAuthentication
from .errors import error_body
from .parsers import BodyTooLarge, MalformedBody, parse_strict, read_body
from .permissions import Caller
from .throttling import TokenRateThrottle


@dataclass(frozen=True)
class Exchange:
    request: HttpRequest
    caller: Caller


# The request and its caller, for the tools: set by the view, carried by asgiref into the
# event loop's thread and back into the tool's sync call.
_exchange: contextvars.ContextVar[Exchange] = contextvars.ContextVar("mcp_exchange")


# --- Tools -------------------------------------------------------------------------------------

STORY_ID = {"type": "string", "pattern": r"^[1-9][0-9]{0,18}$", "description": 'A desk/1 story id, like "81".'}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    properties: dict[str, Any]
    required: tuple[str, ...]
    call: Callable[..., dict[str, Any]]
    read_only: bool = True

    @property
    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": self.properties,
            "required": list(self.required),
            "additionalProperties": False,
        }

    def as_tool(self) -> types.Tool:
        return types.Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=self.input_schema,
            annotations=types.ToolAnnotations(read_only_hint=self.read_only, destructive_hint=False),
        )


TOOLS = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "search_stories",
            "Search published stories",
            'Live published stories matching a query (words, "quoted phrases", -exclusions; every term must '
            "match), newest first, as the API's story list gives them.",
            {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": agents.MAX_RESULTS, "default": 10},
            },
            ("query",),
            agents.search_stories,
        ),
        ToolSpec(
            "get_story",
            "A published story with its evidence",
            "A live story's published desk/1 document, and for each key fact and paragraph the text of the "
            "claims it cites. A story not published is not found; a retracted one is withdrawn.",
            {"id": STORY_ID},
            ("id",),
            agents.get_story,
        ),
        ToolSpec(
            "get_manifest",
            "A manifest's claims",
            "A manifest cited by live stories: its source and its numbered claims.",
            {"manifest_id": {"type": "string", "minLength": 1, "maxLength": 100}},
            ("manifest_id",),
            agents.get_manifest,
        ),
        ToolSpec(
            "submit_story",
            "Submit a desk/1 story",
            "Create a story or replace its working copy with a hangingcontext.desk/1 document (resource "
            "desk://schema/desk-1), and submit it for the checks, as POST /api/v1/stories/. Needs a role in "
            "the document's newsroom. Answers the story's state and its run: read it with get_run.",
            {
                "document": {"type": "object", "description": "The desk/1 document."},
                "edit_version": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The story's edit_version the document was based on: refused if it moved since.",
                },
            },
            ("document",),
            agents.submit_story,
            read_only=False,
        ),
        ToolSpec(
            "get_run",
            "A verification run and its problems",
            "A run of a story in a newsroom where you have a role: each check's status, and each problem with "
            "its check and its place in the document (at).",
            {"run_id": {"type": "integer", "minimum": 1}},
            ("run_id",),
            agents.get_run,
        ),
        ToolSpec(
            "publish_story",
            "Publish a story (chiefs)",
            "Publish through the publish gate, as POST /api/v1/stories/{id}/publish/: its current content passed "
            "its checks, or override_reason says why it goes out anyway. Needs the chief role in its newsroom.",
            {"id": STORY_ID, "override_reason": {"type": "string", "maxLength": 2000}},
            ("id",),
            agents.publish_story,
            read_only=False,
        ),
    )
}


def _json(value: Any) -> Any:
    # DRF's encoder: dates and times as the API writes them.
    return json.loads(json.dumps(value, cls=JSONEncoder))


def answer(spec: ToolSpec, arguments: dict[str, Any]) -> types.CallToolResult:
    """The tool's result, or its refusal in the API's error shape. Runs on the request's thread."""
    exchange = _exchange.get()
    try:
        errors = sorted(jsonschema.Draft202012Validator(spec.input_schema).iter_errors(arguments), key=str)
        if errors:
            raise exceptions.ValidationError(
                {".".join(str(part) for part in error.absolute_path) or "$": [error.message] for error in errors}
            )
        body, failed = _json(spec.call(exchange.caller, exchange.request, **arguments)), False
    except exceptions.APIException as refusal:
        body, failed = _json(error_body(refusal)), True
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(body, ensure_ascii=False))],
        structured_content=body,
        is_error=failed,
    )


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[spec.as_tool() for spec in TOOLS.values()])


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    spec = TOOLS.get(params.name)
    if spec is None:
        body = {"error": "not_found", "message": f"There is no tool {params.name!r}.", "problems": []}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(body))], is_error=True)
    return await sync_to_async(answer)(spec, params.arguments or {})


# --- Resources ---------------------------------------------------------------------------------

RESOURCES = {
    "desk://terms/reuse": (
        "reuse-terms",
        "The reuse terms in force: how stories may be reused and credited (as /.well-known/reuse.json).",
        agents.reuse_terms,
    ),
    "desk://schema/desk-1": (
        "desk-1-schema",
        "The hangingcontext.desk/1 JSON Schema: what submit_story takes.",
        agents.desk_schema,
    ),
}


async def list_resources(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource(uri=uri, name=name, description=description, mime_type="application/json")
            for uri, (name, description, _) in RESOURCES.items()
        ]
    )


def _read(uri: str) -> str:
    _, _, read = RESOURCES[uri]
    return json.dumps(read(), ensure_ascii=False, indent=2)


async def read_resource(
    ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    uri = str(params.uri)
    if uri not in RESOURCES:
        raise MCPError(code=types.INVALID_PARAMS, message=f"No resource {uri!r}.", data={"uri": uri})
    try:
        text = await sync_to_async(_read)(uri)
    except exceptions.NotFound as missing:
        raise MCPError(code=types.INVALID_PARAMS, message=str(missing.detail), data={"uri": uri}) from None
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
    )


SERVER = Server(
    "newsroom",
    title="Newsroom CMS",
    instructions=(
        "Read published stories with their evidence and the manifests they cite; writers submit "
        "hangingcontext.desk/1 stories and read their verification runs; chiefs publish. "
        "Errors are the REST API's: {error, message, problems}."
    ),
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
)


# --- The door: one HTTP exchange -----------------------------------------------------------------


def refusal(exc: exceptions.APIException) -> JsonResponse:
    response = JsonResponse(error_body(exc), status=exc.status_code)
    response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def _headers(request: HttpRequest) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()]


async def _serve(scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Run the SDK's transport on one request and collect its answer."""
    # A manager runs once (its run() is single-use): a fresh one per exchange, stateless.
    # No DNS rebinding protection of the SDK's: Django has checked the Host (ALLOWED_HOSTS), and
    # a bearer token, not a cookie, is what a request needs.
    manager = StreamableHTTPSessionManager(
        app=SERVER, json_response=True, stateless=True, max_request_body_size=settings.API_MAX_BODY_BYTES
    )
    received = False
    started: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    async with manager.run():
        await manager.handle_request(scope, receive, send)
    return started.get("status", 500), list(started.get("headers", [])), b"".join(chunks)


@csrf_exempt
def endpoint(request: HttpRequest) -> HttpResponse:
    try:
        authenticated = BearerTokenAuthentication().authenticate(request)
    except exceptions.AuthenticationFailed as failed:
        return refusal(failed)
    if authenticated is None:
        return refusal(exceptions.NotAuthenticated("This needs a bearer token: Authorization: Bearer <token>."))
    user, token = authenticated
    # The API's throttle, on the same counter: a token's requests count alike at either door.
    counted = Request(request)
    counted.user, counted.auth = user, token
    throttle = TokenRateThrottle()
    if not throttle.allow_request(counted, None):
        wait = throttle.wait()
        throttled = JsonResponse(error_body(exceptions.Throttled(wait)), status=429)
        if wait is not None:
            throttled["Retry-After"] = str(math.ceil(wait))
        return throttled
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode(),
        "root_path": "",
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": _headers(request),
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.get_host(), int(request.get_port() or 80)),
    }
    length = request.META.get("CONTENT_LENGTH") or ""
    try:
        body = read_body(request, int(length) if length.isdigit() else None)
        if request.method == "POST" and body:
            # Strict JSON at the door, as every API body: no key twice, no NaN, no control
            # character or bidirectional override in any string.
            parse_strict(body)
    except (BodyTooLarge, MalformedBody) as refused:
        return JsonResponse(error_body(refused), status=refused.status_code)
    context = _exchange.set(Exchange(request=request, caller=Caller(user=user, token=token)))
    try:
        status, headers, content = async_to_sync(_serve)(scope, body)
    finally:
        _exchange.reset(context)
    response = HttpResponse(content, status=status)
    for name, value in headers:
        if name.lower() not in (b"content-length", b"transfer-encoding", b"connection"):
            response[name.decode("latin-1")] = value.decode("latin-1")
    return response
