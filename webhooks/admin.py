from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from newsroom.admin import InUsersNewsroomsAdmin
from newsroom.models import Newsroom, Role

from .actions import DeliveryStillPending, delivery_redeliver, webhook_ping
from .models import Webhook, WebhookDelivery


class ChiefsNewsroomsAdmin(InUsersNewsroomsAdmin):
    """Only the rows of the newsrooms where the user is chief: a webhook's URL, secret and
    deliveries are a chief's to manage, not an editor's, even one who is chief elsewhere."""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        chiefs = Newsroom.objects.for_user(request.user, role=Role.CHIEF)
        return admin.ModelAdmin.get_queryset(self, request).filter(**{f"{self.newsroom_lookup}__in": chiefs})


@admin.register(Webhook)
class WebhookAdmin(ChiefsNewsroomsAdmin, admin.ModelAdmin):
    """A newsroom's chiefs register its webhooks; the URL is checked (https, public address)."""

    newsroom_lookup = "newsroom"
    list_display = ["url", "newsroom", "on_published", "on_corrected", "on_retracted", "active", "created_at"]
    list_filter = ["active", ("newsroom", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["newsroom"]
    search_fields = ["url", "newsroom__slug"]
    fields = ["newsroom", "url", "on_published", "on_corrected", "on_retracted", "active", "secret"]
    readonly_fields = ["secret"]
    actions = ["send_ping"]

    @admin.action(description="Send a test ping")
    def send_ping(self, request: HttpRequest, queryset: QuerySet) -> None:
        # The API's ping (webhooks.actions): a signed delivery, in the log like any other.
        hooks = list(queryset.select_related("newsroom"))
        for hook in hooks:
            webhook_ping(webhook=hook)
        self.message_user(request, f"Ping sent to {len(hooks)} webhook(s): see Webhook deliveries.")

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "newsroom":
            kwargs["queryset"] = Newsroom.objects.for_user(request.user, role=Role.CHIEF)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ChiefsNewsroomsAdmin, admin.ModelAdmin):
    """The delivery log: read only."""

    newsroom_lookup = "webhook__newsroom"
    list_display = ["created_at", "event", "story_desk_id", "webhook", "status", "attempts", "last_status_code"]
    list_filter = ["status", "event"]
    list_select_related = ["webhook"]
    search_fields = ["story_desk_id", "webhook__url"]
    date_hierarchy = "created_at"
    actions = ["redeliver"]

    @admin.action(description="Send again (as new deliveries)")
    def redeliver(self, request: HttpRequest, queryset: QuerySet) -> None:
        # The API's redelivery (webhooks.actions): the same body, a new row in the log.
        sent = 0
        for delivery in queryset:
            try:
                delivery_redeliver(delivery=delivery)
            except DeliveryStillPending as pending:
                self.message_user(request, str(pending), messages.WARNING)
            else:
                sent += 1
        self.message_user(request, f"{sent} delivery(ies) sent again.")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in WebhookDelivery._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
