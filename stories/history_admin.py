"""The story's history on the desk: revisions, diffs, restore, no lost work, scheduling, audit log.

Mixins for the story admin (``verification/admin.py`` puts them on the StoryAdmin it registers),
plus the chiefs' audit log. Every change goes through ``stories.services``:

- ``EditVersionLockAdminMixin``: the change form carries the edit version it was opened at, in
  a hidden field; the form's validation locks the story's row inside the admin's save
  transaction and refuses a save made on an older version (``require_edit_version``), keeping
  what the editor typed on the page with a link to the newer version.
- ``StoryHistoryAdminMixin``: the History page lists the revisions (who, when, why), shows a
  readable diff between any two (``stories.diffing``), restores one as the working copy
  (``story_restore_revision``), and schedules a publication (``story_schedule``).
- ``AuditEntryAdmin``: every revision of the newsrooms where the user is chief.

Times are shown in the editor's time zone, named (``newsroom.usertime``).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from newsroom.models import Newsroom, Role
from newsroom.roles import may_publish
from newsroom.usertime import current_zone_name, format_when, set_zone_cookie, valid_zone, zone_names

from . import desk
from .diffing import document_diff
from .models import AuditEntry, Revision, Story
from .services import (
    StaleVersion,
    WorkflowError,
    require_edit_version,
    revision_as_restored,
    story_restore_revision,
    story_schedule,
)

EDIT_VERSION_FIELD = "edit_version_seen"
CHANGE_NOTE_FIELD = "change_note"
REVISIONS_PER_PAGE = 50


def _history_url(story: Story) -> str:
    return reverse("admin:stories_story_history", args=[story.pk])


def _diff_url(story: Story, older: Any, newer: Any) -> str:
    return reverse("admin:stories_story_revision_diff", args=[story.pk]) + f"?a={older}&b={newer}"


# --- No lost work -------------------------------------------------------------------------------


class EditVersionFormMixin(forms.Form):
    """A story form that remembers the edit version it was opened at and refuses a save made
    on an older one. Its check runs in ``clean``, inside the admin's save transaction, and
    holds the row lock until that transaction ends, so two saves cannot both pass it."""

    edit_version_seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    change_note = forms.CharField(
        label="Why this change",
        required=False,
        max_length=200,
        help_text="Optional; kept with the revision in the story's history.",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields[EDIT_VERSION_FIELD].initial = self.instance.edit_version

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.instance.pk is None:
            return cleaned
        seen = cleaned.get(EDIT_VERSION_FIELD)
        if seen is None:
            raise ValidationError(
                "This form does not say which version of the story it was opened at, so it cannot be "
                "saved safely. Open the story again and make your change there.",
                code="edit_version_missing",
            )
        try:
            require_edit_version(story=self.instance, expected=seen)
        except StaleVersion as stale:
            raise ValidationError(_stale_message(stale), code="stale") from None
        return cleaned


def _stale_message(stale: StaleVersion) -> SafeString:
    story = stale.story
    change_url = reverse("admin:stories_story_change", args=[story.pk])
    seen = Revision.objects.filter(story=story, edit_version=stale.expected).order_by("-pk").first()
    newest = Revision.objects.filter(story=story).order_by("-pk").first()
    what_changed = ""
    if seen is not None and newest is not None and seen.pk != newest.pk:
        what_changed = format_html(
            ' · <a href="{}">see what changed since your version</a>', _diff_url(story, seen.pk, newest.pk)
        )
    return format_html(
        '{} Your text is still on this page: copy what you need. <a href="{}">Open the newer version '
        "(version {})</a>{}",
        stale.message,
        change_url,
        stale.current,
        what_changed,
    )


class EditVersionLockAdminMixin:
    """Optimistic locking on the story change page (see ``EditVersionFormMixin``)."""

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        base = kwargs.pop("form", None) or self.form
        if not issubclass(base, EditVersionFormMixin):
            base = type(base.__name__, (EditVersionFormMixin, base), {})
        return super().get_form(request, obj, change, form=base, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        fieldsets = [(name, dict(options)) for name, options in super().get_fieldsets(request, obj)]
        # Only a form that can be saved carries them (a read-only page shows fields as text).
        if obj is not None and fieldsets and self.has_change_permission(request, obj):
            _name, options = fieldsets[0]
            options["fields"] = [*options["fields"], EDIT_VERSION_FIELD]
            fieldsets.append(("Your change", {"fields": [CHANGE_NOTE_FIELD]}))
        return fieldsets

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The story admin records the change once its parts are saved; the editor's reason
        # goes into that revision's note.
        request.desk_change_note = (form.cleaned_data.get(CHANGE_NOTE_FIELD) or "").strip()
        super().save_related(request, form, formsets, change)

    def record(self, request: HttpRequest, story: Story, note: str) -> None:
        why = getattr(request, "desk_change_note", "")
        super().record(request, story, f"{note}: {why}" if why else note)


# --- History, diff, restore, schedule -----------------------------------------------------------


class ScheduleForm(forms.Form):
    publish_at = forms.DateTimeField(
        label="Publish at",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        help_text="In your time zone. Empty takes the story off the schedule.",
    )


class TimeZoneForm(forms.Form):
    zone = forms.ChoiceField(label="Your time zone")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["zone"].choices = [(name, name) for name in zone_names()]


def _overdue(story: Story) -> str:
    """Why a story whose publication time has passed is not published yet, or "" when it is not overdue.

    The scheduler clears ``publish_at`` the moment it takes a story (and keeps any refusal in
    ``schedule_problem``), so a time still set and past means no scheduler has run since.
    """
    if story.publish_at is None or story.publish_at > timezone.now():
        return ""
    return (
        f"OVERDUE: due {format_when(story.publish_at)}, but no scheduler has published it yet. Under "
        "make run the serving process publishes scheduled stories (EMBEDDED_SCHEDULER); with a broker, "
        "celery beat must be running"
    )


def scheduled_unverified_warning(story: Story) -> str:
    return (
        f"This story is {story.get_status_display().lower()}, not verified: it will be published at that "
        "time only if its checks have passed by then; otherwise the refusal is shown here and in the list."
    )


class StoryHistoryAdminMixin:
    """The History button opens the story's revisions; diff, restore and schedule pages."""

    history_template = "admin/stories/story/desk_history.html"
    diff_template = "admin/stories/story/desk_diff.html"
    restore_template = "admin/stories/story/desk_restore.html"
    desk_form_template = "admin/stories/story/desk_form.html"

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        own = [
            path("time-zone/", wrap(self.time_zone_view), name="stories_story_time_zone"),
            path("<path:object_id>/history/diff/", wrap(self.revision_diff_view), name="stories_story_revision_diff"),
            path(
                "<path:object_id>/history/<int:revision_id>/restore/",
                wrap(self.revision_restore_view),
                name="stories_story_revision_restore",
            ),
            path("<path:object_id>/schedule/", wrap(self.schedule_view), name="stories_story_schedule"),
        ]
        return own + super().get_urls()

    # --- What the story page shows -------------------------------------------------------------

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "desk_schedule"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is not None:
            fieldsets.append(("Schedule and history", {"fields": ["desk_schedule"]}))
        return fieldsets

    def get_list_display(self, request: HttpRequest) -> list[str]:
        return [*super().get_list_display(request), "scheduled"]

    @admin.display(description="scheduled", ordering="publish_at")
    def scheduled(self, story: Story) -> str:
        if story.schedule_problem:
            return "REFUSED: " + story.schedule_problem
        if overdue := _overdue(story):
            return overdue
        return format_when(story.publish_at) if story.publish_at else "—"

    @admin.display(description="publication schedule")
    def desk_schedule(self, story: Story) -> SafeString:
        return format_html(
            '{}{} · <a href="{}">Schedule…</a> · <a href="{}">Revisions and diffs</a> · times in {} '
            '(<a href="{}">change</a>)',
            format_when(story.publish_at) if story.publish_at else "Not scheduled",
            format_html(' · <strong class="errornote">{}</strong>', story.schedule_problem or _overdue(story))
            if story.schedule_problem or _overdue(story)
            else "",
            reverse("admin:stories_story_schedule", args=[story.pk]),
            _history_url(story),
            current_zone_name(),
            reverse("admin:stories_story_time_zone"),
        )

    # --- The pages ---------------------------------------------------------------------------

    def _story_or_404(self, request: HttpRequest, object_id: str, *, change: bool = False) -> Story:
        # get_object reads through get_queryset: a story of a newsroom the user has no role in
        # is not found, exactly like one that does not exist.
        story = self.get_object(request, object_id)
        if story is None:
            raise Http404("No such story")
        allowed = self.has_change_permission(request, story) if change else self.has_view_permission(request, story)
        if not allowed:
            raise PermissionDenied
        return story

    def _page(self, request: HttpRequest, template: str, story: Story | None, **context: Any) -> TemplateResponse:
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "original": story,
                "zone_name": current_zone_name(),
                "zone_url": reverse("admin:stories_story_time_zone"),
                **context,
            },
        )

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict | None = None) -> HttpResponse:
        story = self._story_or_404(request, object_id)
        revisions = Revision.objects.filter(story=story).defer("document").order_by("-created_at", "-pk")
        page = Paginator(revisions, REVISIONS_PER_PAGE).get_page(request.GET.get("page"))
        rows = list(page.object_list)
        following = {row.pk: rows[index + 1].pk for index, row in enumerate(rows[:-1])}
        entries = [
            {
                "revision": revision,
                "when": format_when(revision.created_at),
                "diff_previous": _diff_url(story, following[revision.pk], revision.pk)
                if revision.pk in following
                else None,
                "restore_url": reverse("admin:stories_story_revision_restore", args=[story.pk, revision.pk]),
            }
            for revision in rows
        ]
        return self._page(
            request,
            self.history_template,
            story,
            title=f"History of “{story}”",
            entries=entries,
            page=page,
            can_restore=self.has_change_permission(request, story) and story.status != Story.Status.RETRACTED,
            diff_url=reverse("admin:stories_story_revision_diff", args=[story.pk]),
            has_live=story.live_version_or_none is not None,
        )

    def _document(self, story: Story, which: str) -> tuple[dict[str, Any], str]:
        """A revision's document by id, or the working copy ("working"), or the live version ("live")."""
        if which == "working":
            return desk.export_story(Story.objects.with_parts().get(pk=story.pk)), "the working copy"
        if which == "live":
            version = story.live_version_or_none
            if version is None:
                raise Http404("The story has no live version")
            return json.loads(version.document), "the live version"
        if not which.isdigit():
            raise Http404("No such revision")
        revision = Revision.objects.filter(story=story, pk=int(which)).first()
        if revision is None:
            raise Http404("No such revision of this story")
        return revision.document, f"the revision of {format_when(revision.created_at)} by {revision.actor}"

    def revision_diff_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_or_404(request, object_id)
        older, older_label = self._document(story, request.GET.get("a", ""))
        newer, newer_label = self._document(story, request.GET.get("b", "working"))
        return self._page(
            request,
            self.diff_template,
            story,
            title=f"Changes to “{story}”",
            older_label=older_label,
            newer_label=newer_label,
            diff=document_diff(older, newer),
            history_url=_history_url(story),
        )

    def revision_restore_view(self, request: HttpRequest, object_id: str, revision_id: int) -> HttpResponse:
        story = self._story_or_404(request, object_id, change=True)
        revision = get_object_or_404(Revision, story=story, pk=revision_id)
        if request.method != "POST":
            # Restoring rewrites the working copy: first show what it would change, and ask.
            current, restored = revision_as_restored(revision, story)
            when = format_when(revision.created_at)
            return self._page(
                request,
                self.restore_template,
                story,
                title=f"Restore the revision of {when}?",
                revision=revision,
                when=when,
                diff=document_diff(current, restored),
                unchanged=desk.content_hash(current) == desk.content_hash(restored),
                history_url=_history_url(story),
            )
        try:
            story_restore_revision(revision=revision, user=request.user)
        except desk.DeskError as refusal:
            self.message_user(request, f"Nothing was restored: {refusal}", messages.ERROR)
        except WorkflowError as refusal:
            self.message_user(request, f"Nothing was restored: {refusal.message}", messages.ERROR)
        else:
            self.message_user(
                request,
                f"Restored the revision of {format_when(revision.created_at)} as the working copy (a new "
                "revision). Readers get it only once it is submitted and published.",
                messages.SUCCESS,
            )
        return HttpResponseRedirect(_history_url(story))

    def schedule_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_or_404(request, object_id, change=True)
        if not may_publish(request.user, story.newsroom_id):
            raise PermissionDenied
        initial = {"publish_at": timezone.localtime(story.publish_at) if story.publish_at else None}
        form = ScheduleForm(request.POST if request.method == "POST" else None, initial=initial)
        if request.method == "POST" and form.is_valid():
            try:
                story_schedule(story=story, user=request.user, publish_at=form.cleaned_data["publish_at"])
            except WorkflowError as refusal:
                form.add_error("publish_at", refusal.message)
            else:
                when = form.cleaned_data["publish_at"]
                done = f"Scheduled for {format_when(when)}." if when else "Taken off the schedule."
                self.message_user(request, done, messages.SUCCESS)
                if when and story.status != Story.Status.VERIFIED:
                    # Scheduling is allowed before the checks pass (a story is often scheduled while
                    # they run); the gate decides at that time, so say so now rather than surprise.
                    self.message_user(request, scheduled_unverified_warning(story), messages.WARNING)
                return HttpResponseRedirect(reverse("admin:stories_story_change", args=[story.pk]))
        return self._page(
            request,
            self.desk_form_template,
            story,
            title=f"Schedule the publication of “{story}”",
            form=form,
            submit_label="Save the schedule",
            back_url=reverse("admin:stories_story_change", args=[story.pk]),
        )

    def time_zone_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        back = reverse("admin:stories_story_changelist")
        form = TimeZoneForm(request.POST if request.method == "POST" else None, initial={"zone": current_zone_name()})
        if request.method == "POST" and form.is_valid():
            name = valid_zone(form.cleaned_data["zone"])
            response = HttpResponseRedirect(back)
            set_zone_cookie(response, name)
            self.message_user(request, f"Times are now shown in {name}.", messages.SUCCESS)
            return response
        return self._page(
            request,
            self.desk_form_template,
            None,
            title="Your time zone",
            form=form,
            submit_label="Use it",
            back_url=back,
        )


# --- The audit log ------------------------------------------------------------------------------


def chief_newsrooms(user: Any) -> QuerySet:
    return Newsroom.objects.for_user(user, role=Role.CHIEF)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Who did what to which story, when: every revision of the newsrooms where the user is chief."""

    list_display = ["when", "actor", "note", "story_link", "newsroom"]
    list_display_links = None
    list_filter = [("story__newsroom", admin.RelatedOnlyFieldListFilter), "actor"]
    search_fields = ["actor", "note", "story__headline", "=story__desk_id"]
    list_per_page = 100

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .filter(story__newsroom__in=chief_newsrooms(request.user))
            .select_related("story__newsroom")
            .defer("document")
        )

    def _is_chief(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_staff and chief_newsrooms(user).exists())

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._is_chief(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None:
            return self._is_chief(request) and may_publish(request.user, obj.story.newsroom_id)
        return self._is_chief(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="when", ordering="created_at")
    def when(self, entry: AuditEntry) -> str:
        return format_when(entry.created_at)

    @admin.display(description="story", ordering="story__desk_id")
    def story_link(self, entry: AuditEntry) -> SafeString:
        return format_html(
            '<a href="{}">{} · {}</a>', _history_url(entry.story), entry.story.desk_id, entry.story.headline
        )

    @admin.display(description="newsroom", ordering="story__newsroom__title")
    def newsroom(self, entry: AuditEntry) -> str:
        return entry.story.newsroom.title


__all__ = [
    "AuditEntryAdmin",
    "EditVersionFormMixin",
    "EditVersionLockAdminMixin",
    "StoryHistoryAdminMixin",
]
