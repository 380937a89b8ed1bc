"""Editions and manifests on the editors' desk.

Editions and manifests live on the ground floor and know nothing of stories; this module,
from above, extends their admin pages the way ``verification/admin.py`` extends the story's:

- an edition's page lists its stories in the user's newsrooms with their check status, offers
  "publish every verified story" (through the publish gate, as a chief) and a publication time
  for the whole edition (``verification.schedule``);
- a manifest's page shows which stories cite it (working copies and live versions, in the
  user's newsrooms), and a manifest can be fetched again from the provider, from its page or
  as a list action (the fetch task, queued).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse

import editions.admin  # noqa: F401  (registers EditionAdmin, which is extended below)
import manifests.admin  # noqa: F401  (registers ManifestAdmin, which is extended below)
from editions.models import Edition
from manifests.models import Manifest
from newsroom.models import Newsroom
from newsroom.roles import is_chief_somewhere, may_publish
from newsroom.usertime import current_zone_name, format_when
from stories.history_admin import ScheduleForm
from stories.models import Cite, LiveCitation, Story

from .models import VerificationRun
from .schedule import edition_publish_verified, edition_schedule
from .tasks import BROKER_ERRORS, PUBLISH_RETRY_POLICY, fetch_manifests_task


def _with_checks(stories: QuerySet) -> QuerySet:
    latest = VerificationRun.objects.filter(story=OuterRef("pk")).order_by("-queued_at", "-pk")
    return stories.annotate(
        latest_run_status=Subquery(latest.values("status")[:1]),
        latest_run_hash=Subquery(latest.values("content_hash")[:1]),
    )


BaseEditionAdmin = type(admin.site.get_model_admin(Edition))


class EditionDeskAdmin(BaseEditionAdmin):
    list_display = ["key", "title", "own_story_count", "created_at"]
    change_form_template = "admin/editions/edition/desk_change_form.html"
    actions = ["publish_verified_selected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # An edition is a shared hour; a user sees those holding their newsrooms' stories, and
        # empty ones (to fill), never one holding only another newsroom's stories.
        mine = Newsroom.objects.for_user(request.user)
        own = Story.objects.filter(edition=OuterRef("pk"), newsroom__in=mine)
        anyone = Story.objects.filter(edition=OuterRef("pk"))
        return (
            super()
            .get_queryset(request)
            .filter(Exists(own) | ~Exists(anyone))
            .annotate(own_story_total=Count("stories", filter=Q(stories__newsroom__in=mine)))
        )

    @admin.display(description="your stories", ordering="own_story_total")
    def own_story_count(self, edition: Edition) -> int:
        return edition.own_story_total

    def has_publish_permission(self, request: HttpRequest) -> bool:
        return is_chief_somewhere(request.user)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/publish-verified/",
                wrap(self.publish_verified_view),
                name="editions_edition_publish_verified",
            ),
            path("<path:object_id>/schedule/", wrap(self.schedule_view), name="editions_edition_schedule"),
            *super().get_urls(),
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        edition = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if edition is not None:
            stories = _with_checks(
                Story.objects.filter(edition=edition).for_user(request.user).select_related("newsroom")
            ).order_by("newsroom__title", "desk_id")
            context["desk"] = {
                "stories": [
                    {
                        "story": story,
                        "url": reverse("admin:stories_story_change", args=[story.pk]),
                        "checks": story.latest_run_status or "never checked",
                        "stale": story.latest_run_status is not None and story.latest_run_hash != story.content_hash,
                        "scheduled": format_when(story.publish_at) if story.publish_at else "",
                        "may_publish": may_publish(request.user, story.newsroom_id),
                    }
                    for story in stories
                ],
                "can_publish": self.has_publish_permission(request),
                "publish_url": reverse("admin:editions_edition_publish_verified", args=[edition.pk]),
                "schedule_url": reverse("admin:editions_edition_schedule", args=[edition.pk]),
                "schedule_form": ScheduleForm(),
                "zone_name": current_zone_name(),
            }
        return super().change_view(request, object_id, form_url, extra_context=context)

    def _edition_for_action(self, request: HttpRequest, object_id: str) -> Edition:
        edition = self.get_object(request, object_id)
        if edition is None:
            raise Http404("No such edition")
        if not self.has_publish_permission(request):
            raise PermissionDenied
        return edition

    def _back(self, edition: Edition) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:editions_edition_change", args=[edition.pk]))

    def _report(self, request: HttpRequest, results: list[tuple[Story, str]], nothing: str) -> None:
        if not results:
            self.message_user(request, nothing, messages.INFO)
        for story, what in results:
            level = messages.SUCCESS if what in ("published", "scheduled", "unscheduled") else messages.WARNING
            self.message_user(request, f"{story.desk_id} “{story.headline}”: {what}", level)

    def publish_verified_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        edition = self._edition_for_action(request, object_id)
        if request.method == "POST":
            results = edition_publish_verified(edition_key=edition.pk, user=request.user)
            self._report(request, results, "No verified story to publish in your newsrooms; nothing to do.")
        return self._back(edition)

    def schedule_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        edition = self._edition_for_action(request, object_id)
        if request.method == "POST":
            form = ScheduleForm(request.POST)
            if not form.is_valid():
                for field, errors in form.errors.items():
                    self.message_user(request, f"{field}: {' '.join(errors)}", messages.ERROR)
                return self._back(edition)
            results = edition_schedule(
                edition_key=edition.pk, user=request.user, publish_at=form.cleaned_data["publish_at"]
            )
            self._report(request, results, "No story of yours in this edition to schedule; nothing to do.")
        return self._back(edition)

    @admin.action(description="Publish every verified story of the selected editions", permissions=["publish"])
    def publish_verified_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        results = [
            result
            for edition in queryset
            for result in edition_publish_verified(edition_key=edition.pk, user=request.user)
        ]
        self._report(request, results, "No verified story to publish in your newsrooms; nothing to do.")


BaseManifestAdmin = type(admin.site.get_model_admin(Manifest))


class ManifestDeskAdmin(BaseManifestAdmin):
    change_form_template = "admin/manifests/manifest/desk_change_form.html"
    actions = ["refetch_selected"]

    def has_refetch_permission(self, request: HttpRequest) -> bool:
        # Fetching replaces the stored copy with the provider's own: anyone with a role may ask.
        return Newsroom.objects.for_user(request.user).exists()

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<path:object_id>/refetch/", wrap(self.refetch_view), name="manifests_manifest_refetch"),
            *super().get_urls(),
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        manifest = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if manifest is not None:
            mine = Newsroom.objects.for_user(request.user)
            cited_in = Cite.objects.filter(manifest_id=manifest.manifest_id, story__newsroom__in=mine)
            working = Story.objects.filter(pk__in=cited_in.values("story_id")).select_related("newsroom")
            live = LiveCitation.objects.filter(
                manifest_id=manifest.manifest_id, version__newsroom__in=mine
            ).select_related("version")
            context["desk"] = {
                "working": [
                    {"story": story, "url": reverse("admin:stories_story_change", args=[story.pk])}
                    for story in working.order_by("-desk_id")
                ],
                "live": [
                    {
                        "version": citation.version,
                        "url": reverse("admin:stories_story_change", args=[citation.version_id]),
                    }
                    for citation in live.order_by("-version__published_at")
                ],
                "can_refetch": self.has_refetch_permission(request),
                "refetch_url": reverse("admin:manifests_manifest_refetch", args=[manifest.pk]),
            }
        return super().change_view(request, object_id, form_url, extra_context=context)

    def _refetch(self, request: HttpRequest, manifest_ids: list[str]) -> None:
        try:
            result = fetch_manifests_task.apply_async(
                args=[manifest_ids], kwargs={"refresh": True}, retry_policy=PUBLISH_RETRY_POLICY
            )
        except BROKER_ERRORS as error:
            self.message_user(request, f"The fetch could not be queued (the task queue is unreachable: {error})")
            return
        if result.ready():
            # Run in-process (no broker): the outcome is known now.
            for manifest_id, status in result.get().items():
                level = messages.SUCCESS if status == "fetched" else messages.WARNING
                self.message_user(request, f"{manifest_id}: {status}", level)
        else:
            self.message_user(
                request, f"Fetching {len(manifest_ids)} manifest(s) from the provider again: queued.", messages.SUCCESS
            )

    def refetch_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        manifest = self.get_object(request, object_id)
        if manifest is None:
            raise Http404("No such manifest")
        if not self.has_refetch_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            self._refetch(request, [manifest.manifest_id])
        return HttpResponseRedirect(reverse("admin:manifests_manifest_change", args=[manifest.pk]))

    @admin.action(description="Fetch the selected manifests from the provider again", permissions=["refetch"])
    def refetch_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        ids = list(queryset.values_list("manifest_id", flat=True)[:1000])
        if ids:
            self._refetch(request, ids)


admin.site.unregister(Edition)
admin.site.register(Edition, EditionDeskAdmin)
admin.site.unregister(Manifest)
admin.site.register(Manifest, ManifestDeskAdmin)
