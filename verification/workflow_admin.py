"""The story workflow in admin: submit, publish (through the gate), retract, add a correction.

A mixin for the story admin (``verification/admin.py`` puts it on the StoryAdmin it registers).
Every button and action calls the same services as the API and the tasks
(``verification.workflow``); admin only asks, shows the answer and, when the gate refuses a
story whose checks did not pass, offers a chief of the story's newsroom a form for
the written reason. Status and publication time are read-only here: they change only through
the workflow, and corrections are appended, never edited.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from newsroom.roles import is_chief_somewhere, may_publish, may_write
from stories.admin import CorrectionInline
from stories.history_admin import ScheduleForm
from stories.models import Story
from stories.services import RETRACTION_REASON_MAX, story_schedule

from .gate import run_problems
from .models import VerificationRun
from .review import review_items, review_problems
from .workflow import (
    SUBMITTABLE,
    OverrideRefused,
    PublishRefused,
    WorkflowError,
    story_add_correction,
    story_publish,
    story_retract,
    story_review_decide,
    story_submit,
)


def _waiting_on_review(story: Story) -> int:
    """How many parts of the story's current content the checks left for the desk's review."""
    if story.status not in (Story.Status.REVIEW, Story.Status.FAILED, Story.Status.VERIFIED):
        return 0
    run = VerificationRun.objects.current_for(story)
    if run is None or run.status != VerificationRun.Status.REVIEW:
        return 0
    return len(review_problems(run))


class OverrideForm(forms.Form):
    reason = forms.CharField(
        label="Why publish although the checks did not pass?",
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        help_text="Kept with the verification run and shown to every editor.",
    )


class RetractForm(forms.Form):
    reason = forms.CharField(
        label="Why is the story withdrawn?",
        max_length=RETRACTION_REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Kept in the story's history. Readers of its URL are told it was withdrawn.",
    )


class CorrectionForm(forms.Form):
    text = forms.CharField(
        label="Correction",
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        help_text="Appended with today's date, shown on the page and in the JSON and Markdown twins.",
    )


class AppendOnlyCorrectionInline(CorrectionInline):
    """Corrections as readers see them; new ones are added with the "Add a correction" button."""

    fields = ["published_at", "text"]
    readonly_fields = ["published_at", "text"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Whoever may see the story sees its corrections.
        return request.user.has_perm("stories.view_story") or request.user.has_perm("stories.change_story")


def _latest_runs() -> dict[str, Subquery]:
    latest = VerificationRun.objects.filter(story=OuterRef("pk")).order_by("-queued_at", "-pk")
    return {
        "latest_run_status": Subquery(latest.values("status")[:1]),
        "latest_run_hash": Subquery(latest.values("content_hash")[:1]),
    }


class StoryWorkflowAdminMixin:
    """Workflow buttons on the story page, bulk actions on the list, a checks column."""

    change_form_template = "admin/verification/story_workflow/change_form.html"
    workflow_form_template = "admin/verification/story_workflow/form.html"
    workflow_review_template = "admin/verification/story_workflow/review.html"
    workflow_bulk_template = "admin/verification/story_workflow/bulk_form.html"
    actions = ["submit_selected", "publish_selected", "retract_selected", "schedule_selected"]

    # --- What editors see --------------------------------------------------------------------

    def get_list_display(self, request: HttpRequest) -> list[str]:
        return [*super().get_list_display(request), "checks"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # A user sees only the stories of the newsrooms they have a role in.
        return super().get_queryset(request).for_user(request.user).annotate(**_latest_runs())

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_write(request.user, obj.newsroom_id))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or may_write(request.user, obj.newsroom_id))

    @admin.display(description="checks")
    def checks(self, story: Story) -> SafeString | str:
        status = getattr(story, "latest_run_status", None)
        if status is None:
            return "—"
        stale = " (stale: edited since)" if story.latest_run_hash != story.content_hash else ""
        return format_html("{}{}", status, stale)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Only the workflow changes these; an edited field would bypass the gate.
        return [*super().get_readonly_fields(request, obj), "status", "published_at"]

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[Any]:
        return [
            AppendOnlyCorrectionInline if inline is CorrectionInline else inline
            for inline in super().get_inlines(request, obj)
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        story = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if story is not None and self.has_change_permission(request, story):
            # Publishing, correcting and retracting are a chief's: an editor is not shown buttons
            # that could only refuse them.
            chief = may_publish(request.user, story.newsroom_id)
            context["workflow"] = {
                "can_submit": story.status in SUBMITTABLE,
                "can_publish": chief and story.status in SUBMITTABLE,
                "can_correct": chief and story.is_public,
                "can_retract": chief and story.is_public,
                "urls": {
                    step: self._step_url(step, story) for step in ("submit", "publish", "retract", "correct", "review")
                },
                "review_waiting": _waiting_on_review(story),
            }
        return super().change_view(request, object_id, form_url, extra_context=context)

    # --- The steps -----------------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        steps = [
            path(f"<path:object_id>/workflow/{step}/", wrap(view), name=self._step_name(step))
            for step, view in (
                ("submit", self.submit_view),
                ("publish", self.publish_view),
                ("retract", self.retract_view),
                ("correct", self.correct_view),
                ("review", self.review_view),
            )
        ]
        return steps + super().get_urls()

    def _step_name(self, step: str) -> str:
        return f"{self.opts.app_label}_{self.opts.model_name}_{step}"

    def _step_url(self, step: str, story: Story) -> str:
        return reverse(f"admin:{self._step_name(step)}", args=[story.pk])

    def _story_for_step(self, request: HttpRequest, object_id: str) -> Story:
        if not self.has_change_permission(request):
            raise PermissionDenied
        # Read through get_queryset: another newsroom's story is not found, exactly like one that
        # does not exist (a refusal would say that it does).
        story = self.get_object(request, object_id)
        if story is None:
            raise Http404("No such story")
        if not self.has_change_permission(request, story):
            raise PermissionDenied
        return story

    def _back_to(self, story: Story) -> HttpResponseRedirect:
        return HttpResponseRedirect(
            reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[story.pk])
        )

    def _form_page(
        self, request: HttpRequest, story: Story, *, title: str, form: forms.Form, **extra: Any
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": story,
            "title": title,
            "form": form,
            "change_url": reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[story.pk]),
            **extra,
        }
        return TemplateResponse(request, self.workflow_form_template, context)

    def submit_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_for_step(request, object_id)
        if request.method != "POST":
            return self._back_to(story)
        try:
            run = story_submit(story=story, actor=request.user.get_username(), user=request.user)
        except WorkflowError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            state = "queued" if not run.is_finished else f"reused: {run.get_status_display().lower()}"
            self.message_user(request, f"Submitted for checks (run {run.pk}, {state}).", messages.SUCCESS)
        return self._back_to(story)

    def publish_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_for_step(request, object_id)
        if request.method != "POST":
            return self._back_to(story)
        may_override = may_publish(request.user, story.newsroom_id)
        form = OverrideForm(request.POST) if "reason" in request.POST else None
        if form is not None and not form.is_valid():
            return self._override_page(request, story, form)
        reason = form.cleaned_data["reason"] if form is not None else None
        try:
            result = story_publish(
                story=story, actor=request.user.get_username(), user=request.user, override_reason=reason
            )
        except OverrideRefused as refusal:
            self.message_user(request, refusal.message, messages.ERROR)
        except PublishRefused as refusal:
            run = VerificationRun.objects.current_for(Story.objects.get(pk=story.pk))
            if may_override and run is not None:
                # Checks on the current content did not pass: this editor may publish with a reason.
                return self._override_page(request, story, OverrideForm(), refusal=refusal.message)
            self.message_user(request, refusal.message, messages.ERROR)
        except WorkflowError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            if not result.published:
                self.message_user(
                    request, "Already published, nothing to do: readers get this very content.", messages.INFO
                )
            elif result.overridden:
                self.message_user(request, "Published, overriding the checks; your reason is kept with the run.")
            elif result.run.status == VerificationRun.Status.REVIEW:
                self.message_user(
                    request,
                    f"Published: run {result.run.pk} found nothing wrong, and the desk confirmed the support of "
                    "every part it left for review.",
                    messages.SUCCESS,
                )
            else:
                self.message_user(request, f"Published: run {result.run.pk} passed every check.", messages.SUCCESS)
        return self._back_to(story)

    def _override_page(self, request: HttpRequest, story: Story, form: OverrideForm, refusal: str = "") -> HttpResponse:
        run = VerificationRun.objects.current_for(story)
        return self._form_page(
            request,
            story,
            title=f"Publish “{story}” although its checks did not pass?",
            form=form,
            action=self._step_url("publish", story),
            submit_label="Publish with this reason",
            refusal=refusal,
            problems=run_problems(run, limit=20) if run is not None else [],
        )

    def review_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The parts the current run left for review, each beside its cited claims' texts and
        the reasons, with "Confirm support" and "Not supported"."""
        story = self._story_for_step(request, object_id)
        if request.method == "POST":
            try:
                story = story_review_decide(
                    story=story,
                    at=request.POST.get("at", ""),
                    verdict=request.POST.get("verdict", ""),
                    user=request.user,
                )
            except WorkflowError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self._say_review_outcome(request, story)
            return HttpResponseRedirect(self._step_url("review", story))
        run = VerificationRun.objects.current_for(story)
        items = review_items(run) if run is not None and run.status == VerificationRun.Status.REVIEW else []
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": story,
            "title": f"Review the support of “{story}”",
            "run": run,
            "items": items,
            "open_count": sum(item.state == "open" for item in items),
            "action": self._step_url("review", story),
            "change_url": reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[story.pk]),
        }
        return TemplateResponse(request, self.workflow_review_template, context)

    def _say_review_outcome(self, request: HttpRequest, story: Story) -> None:
        if story.status == Story.Status.PUBLISHED:
            self.message_user(request, "Every part is confirmed: the story was published.", messages.SUCCESS)
        elif story.status == Story.Status.VERIFIED:
            self.message_user(request, "Every part is confirmed: the story may be published.", messages.SUCCESS)
        elif story.status == Story.Status.FAILED:
            self.message_user(
                request,
                "Recorded: a part is not supported, so the story cannot be published as it is. Rewrite the part "
                "in the claims' words or cite the claims that back it, then submit it again.",
                messages.WARNING,
            )
        else:
            self.message_user(request, "Recorded.", messages.SUCCESS)

    def retract_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_for_step(request, object_id)
        if story.status == Story.Status.RETRACTED:
            self.message_user(request, "Already retracted, nothing to do.", messages.INFO)
            return self._back_to(story)
        form = RetractForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                story_retract(story=story, user=request.user, reason=form.cleaned_data["reason"])
            except WorkflowError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self.message_user(request, "Retracted. Its address now tells readers it was withdrawn.")
            return self._back_to(story)
        return self._form_page(
            request,
            story,
            title=f"Retract “{story}”",
            form=form,
            action=self._step_url("retract", story),
            submit_label="Retract the story",
        )

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        story = self._story_for_step(request, object_id)
        form = CorrectionForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                story_add_correction(story=story, text=form.cleaned_data["text"], user=request.user)
            except WorkflowError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self.message_user(request, "Correction added.", messages.SUCCESS)
            return self._back_to(story)
        return self._form_page(
            request,
            story,
            title=f"Add a correction to “{story}”",
            form=form,
            action=self._step_url("correct", story),
            submit_label="Add the correction",
        )

    # --- Bulk actions ------------------------------------------------------------------------

    @admin.action(description="Submit selected stories for checks", permissions=["change"])
    def submit_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._each(
            request,
            queryset,
            "submitted",
            lambda story: story_submit(story=story, actor=request.user.get_username(), user=request.user),
        )

    @admin.action(description="Publish selected stories (their checks must have passed)", permissions=["publish"])
    def publish_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._each(
            request,
            queryset,
            "published",
            lambda story: story_publish(story=story, actor=request.user.get_username(), user=request.user),
        )

    @admin.action(description="Retract selected stories (one reason for all)", permissions=["publish"])
    def retract_selected(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        form = RetractForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return self._bulk_page(request, queryset, "retract_selected", form, "Retract the selected stories")
        reason = form.cleaned_data["reason"]
        self._each(
            request,
            queryset,
            "retracted",
            lambda story: story_retract(story=story, user=request.user, reason=reason),
        )
        return None

    @admin.action(description="Schedule selected stories for one publication time", permissions=["publish"])
    def schedule_selected(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        form = ScheduleForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return self._bulk_page(request, queryset, "schedule_selected", form, "Schedule the selected stories")
        publish_at = form.cleaned_data["publish_at"]
        done = "scheduled" if publish_at else "taken off the schedule"
        self._each(
            request,
            queryset,
            done,
            lambda story: story_schedule(story=story, user=request.user, publish_at=publish_at),
        )
        waiting = queryset.exclude(status=Story.Status.VERIFIED).filter(publish_at=publish_at).count()
        if publish_at and waiting:
            # As on one story's schedule page: the gate decides at that time, so say so now.
            self.message_user(
                request,
                f"{waiting} of them {'is' if waiting == 1 else 'are'} not verified yet: each publishes then "
                "only if its checks pass.",
                messages.WARNING,
            )
        return None

    def has_publish_permission(self, request: HttpRequest) -> bool:
        """Retracting and scheduling are a chief's: the actions show to chiefs only."""
        return is_chief_somewhere(request.user)

    def _bulk_page(
        self, request: HttpRequest, queryset: QuerySet, action: str, form: forms.Form, title: str
    ) -> TemplateResponse:
        """An action's own form (a reason, a time) for the stories chosen on the list."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": title,
            "form": form,
            "stories": list(queryset),
            "action": action,
            "submit_label": title.replace(" the selected stories", ""),
            "changelist_url": reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist"),
        }
        return TemplateResponse(request, self.workflow_bulk_template, context)

    def _each(self, request: HttpRequest, queryset: QuerySet, done: str, step: Any) -> None:
        succeeded = 0
        for story in queryset:
            try:
                outcome = step(story)
            except WorkflowError as error:
                self.message_user(request, f"{story.desk_id}: {error.message}", messages.ERROR)
            else:
                if getattr(outcome, "published", True):
                    succeeded += 1
                else:
                    self.message_user(request, f"{story.desk_id}: already published, nothing to do.", messages.INFO)
        if succeeded:
            self.message_user(request, f"{succeeded} {'story' if succeeded == 1 else 'stories'} {done}.")
