"""Webhooks through the API, for a newsroom's chiefs: list, register, delete, ping, and the
delivery log with redelivery. The same functions as admin (``webhooks.actions``): the URL guard
when registering and at every delivery, the signed body, the retries.

A webhook of a newsroom where the token's user is not chief is not found (404), as in admin,
which shows a chief only their newsrooms' webhooks. Reading needs the token scope ``read``;
changing, pinging and redelivering ``publish`` (a chief's work).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from newsroom.models import Newsroom, Role
from webhooks.actions import DeliveryStillPending, delivery_redeliver, webhook_create, webhook_ping
from webhooks.models import STORY_EVENTS, Event, Webhook, WebhookDelivery

from .errors import Conflict
from .idempotency import idempotency_parameters, idempotent
from .models import Scope
from .writing import TextField, TokenListView, TokenView, absolute, valid, write_errors

MAX_ID = 2**63 - 1
EVENT_CHOICES = [str(event) for event in STORY_EVENTS]


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    newsroom = serializers.CharField(help_text="The newsroom's slug.")
    url = serializers.URLField(help_text="Where deliveries are POSTed.")
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES), help_text="What it hears.")
    active = serializers.BooleanField(help_text="An inactive webhook hears nothing.")
    created_at = serializers.DateTimeField()
    self_url = serializers.URLField(help_text="This webhook in the API (GET, DELETE).")
    deliveries_url = serializers.URLField(help_text="Its delivery log, newest first.")
    ping_url = serializers.URLField(help_text="POST here to send it a signed ping.")


class NewWebhookSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="Signs every delivery (X-Newsroom-Signature, HMAC-SHA256): shown here once, and to chiefs in admin."
    )


class WebhookRequestSerializer(serializers.Serializer):
    newsroom = TextField(max_length=100, help_text="The slug of a newsroom where you are chief.")
    url = TextField(max_length=500, help_text="https only, at a public address (checked now and at each delivery).")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES),
        required=False,
        allow_empty=False,
        help_text="The story events to hear; all three when left out.",
    )
    active = serializers.BooleanField(required=False, default=True)


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Sent as X-Newsroom-Delivery.")
    event = serializers.ChoiceField(choices=Event.choices)
    story = serializers.CharField(allow_null=True, help_text="The desk/1 story id; null for a ping.")
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(allow_null=True, help_text="The receiver's last answer.")
    last_error = serializers.CharField(help_text="Why the last attempt failed; empty when it did not.")
    created_at = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    redeliver_url = serializers.URLField(help_text="POST here to send the same body again, as a new delivery.")


def chiefs_webhooks(request: Request) -> QuerySet[Webhook]:
    return Webhook.objects.filter(newsroom__in=Newsroom.objects.for_user(request.user, role=Role.CHIEF))


def webhook_of(request: Request, id: int) -> Webhook:
    hook = chiefs_webhooks(request).select_related("newsroom").filter(pk=id).first() if 0 < id <= MAX_ID else None
    if hook is None:
        raise exceptions.NotFound(f"No webhook {id} of a newsroom where you are chief.")
    return hook


def webhook_body(request: Request, hook: Webhook) -> dict[str, Any]:
    return {
        "id": hook.pk,
        "newsroom": hook.newsroom.slug,
        "url": hook.url,
        "events": hook.events,
        "active": hook.active,
        "created_at": hook.created_at,
        "self_url": absolute(request, "api-webhook-detail", id=hook.pk),
        "deliveries_url": absolute(request, "api-webhook-deliveries", id=hook.pk),
        "ping_url": absolute(request, "api-webhook-ping", id=hook.pk),
    }


def delivery_body(request: Request, delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "id": delivery.pk,
        "event": delivery.event,
        "story": None if delivery.story_desk_id is None else str(delivery.story_desk_id),
        "status": delivery.status,
        "attempts": delivery.attempts,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "created_at": delivery.created_at,
        "last_attempt_at": delivery.last_attempt_at,
        "delivered_at": delivery.delivered_at,
        "redeliver_url": absolute(request, "api-webhook-redeliver", id=delivery.webhook_id, delivery_id=delivery.pk),
    }


WEBHOOK_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The webhook's id.")
DELIVERY_ID = OpenApiParameter("delivery_id", OpenApiTypes.INT, OpenApiParameter.PATH)


class WebhookListSerializer(serializers.Serializer):
    results = WebhookSerializer(many=True)


@extend_schema_view(
    get=extend_schema(
        summary="Your newsrooms' webhooks",
        operation_id="webhooks_list",
        description="The webhooks of every newsroom where you are chief, by newsroom and URL. Needs the scope read.",
        responses={200: WebhookListSerializer, **write_errors(401, 403)},
    ),
    post=extend_schema(
        summary="Register a webhook",
        description=(
            "For a newsroom where you are chief; the URL must be https at a public address (400 at url "
            "otherwise). The answer shows the secret that signs its deliveries, once. Needs the scope publish."
        ),
        request=WebhookRequestSerializer,
        parameters=idempotency_parameters(201),
        responses={201: NewWebhookSerializer, **write_errors(400, 401, 403, 409, 413, 415, 422)},
    ),
)
class WebhookList(TokenView):
    token_scopes = {"GET": Scope.READ, "POST": Scope.PUBLISH}

    def get(self, request: Request) -> Response:
        hooks = chiefs_webhooks(request).select_related("newsroom").order_by("newsroom__slug", "url", "pk")
        return Response({"results": [webhook_body(request, hook) for hook in hooks]})

    @idempotent
    def post(self, request: Request) -> Response:
        data = valid(WebhookRequestSerializer, request)
        newsroom = Newsroom.objects.for_user(request.user, role=Role.CHIEF).filter(slug=data["newsroom"]).first()
        if newsroom is None:
            message = f"You are not chief of a newsroom {data['newsroom']!r}, so you cannot add its webhooks"
            denied = exceptions.PermissionDenied(message)
            denied.problems = [{"at": "newsroom", "message": message}]  # type: ignore[attr-defined]
            raise denied
        try:
            hook = webhook_create(newsroom=newsroom, url=data["url"], events=data.get("events"), active=data["active"])
        except DjangoValidationError as error:
            raise exceptions.ValidationError(error.message_dict) from None
        body = webhook_body(request, hook) | {"secret": hook.secret}
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["self_url"]})


@extend_schema_view(
    get=extend_schema(
        summary="A webhook",
        description="Needs the scope read.",
        parameters=[WEBHOOK_ID],
        responses={200: WebhookSerializer, **write_errors(401, 403, 404)},
    ),
    delete=extend_schema(
        summary="Delete a webhook",
        description="It hears nothing more; its delivery log goes with it. Needs the scope publish.",
        parameters=[WEBHOOK_ID],
        responses={204: OpenApiResponse(description="Deleted."), **write_errors(401, 403, 404)},
    ),
)
class WebhookDetail(TokenView):
    token_scopes = {"GET": Scope.READ, "DELETE": Scope.PUBLISH}

    def get(self, request: Request, id: int) -> Response:
        return Response(webhook_body(request, webhook_of(request, id)))

    def delete(self, request: Request, id: int) -> Response:
        webhook_of(request, id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    summary="Send a webhook a test ping",
    description=(
        'A signed delivery of the event "ping" ({"event": "ping", "occurred_at", "webhook": {"id", '
        '"newsroom", "url", "events"}}), logged and retried like any other. Needs the scope publish.'
    ),
    request=None,
    parameters=[WEBHOOK_ID, *idempotency_parameters(202)],
    responses={202: DeliverySerializer, **write_errors(401, 403, 404, 409, 422)},
)
class WebhookPing(TokenView):
    token_scopes = {"POST": Scope.PUBLISH}

    @idempotent
    def post(self, request: Request, id: int) -> Response:
        delivery = webhook_ping(webhook=webhook_of(request, id))
        delivery.refresh_from_db()  # with eager tasks (no broker), already sent
        return Response(delivery_body(request, delivery), status=status.HTTP_202_ACCEPTED)


@extend_schema(
    summary="A webhook's deliveries, newest first",
    description="The delivery log, as admin shows it. Needs the scope read.",
    parameters=[WEBHOOK_ID],
    responses={200: DeliverySerializer(many=True), **write_errors(400, 401, 403, 404)},
)
class WebhookDeliveries(TokenListView):
    token_scopes = {"GET": Scope.READ}
    cursor_ordering = ("-created_at", "-pk")
    queryset = WebhookDelivery.objects.none()

    def rows(self) -> QuerySet[WebhookDelivery]:
        return WebhookDelivery.objects.filter(webhook=webhook_of(self.request, self.kwargs["id"]))

    def row_body(self, request: Request, row: WebhookDelivery) -> dict[str, Any]:
        return delivery_body(request, row)


@extend_schema(
    summary="Send a delivery again",
    description=(
        "The same body, as a new delivery (the log keeps both); one still being tried is a 409. A "
        "publication or correction of a story retracted since is withheld. Needs the scope publish."
    ),
    request=None,
    parameters=[WEBHOOK_ID, DELIVERY_ID, *idempotency_parameters(202)],
    responses={202: DeliverySerializer, **write_errors(401, 403, 404, 409, 422)},
)
class WebhookRedeliver(TokenView):
    token_scopes = {"POST": Scope.PUBLISH}

    @idempotent
    def post(self, request: Request, id: int, delivery_id: int) -> Response:
        hook = webhook_of(request, id)
        delivery = hook.deliveries.filter(pk=delivery_id).first() if 0 < delivery_id <= MAX_ID else None
        if delivery is None:
            raise exceptions.NotFound(f"No delivery {delivery_id} of webhook {id}.")
        try:
            again = delivery_redeliver(delivery=delivery)
        except DeliveryStillPending as pending:
            raise Conflict(str(pending) + ".") from None
        again.refresh_from_db()
        return Response(delivery_body(request, again), status=status.HTTP_202_ACCEPTED)
