"""Admin for verification runs, and the latest verdict on the story page.

The story admin lives in ``stories`` (a lower room that must not know about verification), so
this module extends it from above: it takes the StoryAdmin class currently registered,
subclasses it with a read-only "Verification" fieldset, and registers the subclass in its
place, the way projects extend ``UserAdmin``. Whatever the stories room adds to its admin
later is inherited.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.timesince import timesince

import stories.admin  # noqa: F401  (registers StoryAdmin, which is extended below)
from newsroom.admin import InUsersNewsroomsAdmin
from newsroom.usertime import format_when
from stories.history_admin import EditVersionLockAdminMixin, StoryHistoryAdminMixin
from stories.models import Story
from stories.paths import describe_path

from . import desk_admin  # noqa: F401  (registers the editions' and manifests' desk pages)
from .gate import run_problems
from .models import ReviewDecision, VerificationRun
from .workflow_admin import StoryWorkflowAdminMixin

STATUS_COLOURS = {
    "passed": "#1a7f37",
    "pass": "#1a7f37",
    "failed": "#cf222e",
    "fail": "#cf222e",
    "unknown": "#9a6700",
    "review": "#8250df",
    "pending": "#57606a",
    "running": "#0969da",
}


def _badge(status: str) -> SafeString:
    return format_html('<strong style="color: {}">{}</strong>', STATUS_COLOURS.get(status, "inherit"), status.upper())


def checks_html(run: VerificationRun) -> SafeString:
    """Each check's status and problems, as a list an editor can act on."""
    if not run.checks:
        return format_html("<em>{}</em>", "no results yet" if not run.is_finished else "no checks recorded")
    items = []
    for check in run.checks:
        # In an editor's words ("Section 2, paragraph 1"), the desk/1 path kept as a tooltip.
        problems = format_html_join(
            "",
            '<li><span title="{}">{}</span>: {}</li>',
            ((problem["at"], describe_path(problem["at"]), problem["message"]) for problem in check["problems"]),
        )
        items.append(
            format_html(
                "<li>{} {} <small>({} ms)</small>{}</li>",
                _badge(check["status"]),
                check["name"],
                check.get("duration_ms", "?"),
                format_html("<ul>{}</ul>", problems) if check["problems"] else "",
            )
        )
    return format_html('<ul style="margin-left: 0">{}</ul>', format_html_join("", "{}", ((item,) for item in items)))


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(InUsersNewsroomsAdmin, admin.ModelAdmin):
    """The desk's decisions on parts left for review: records, read-only here. Decisions are
    made on a story's review page (its "Review" button), through ``story_review_decide``."""

    list_display = ["story", "at", "verdict", "decided_by_name", "decided_at"]
    list_filter = ["verdict", "decided_at"]
    list_select_related = ["story"]
    search_fields = ["=story__desk_id", "story__headline", "decided_by_name"]
    fields = ["story", "at", "verdict", "decided_by", "decided_by_name", "decided_at", "passage_hash", "claims_hash"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ReviewDecision | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ReviewDecision | None = None) -> bool:
        return False


@admin.register(VerificationRun)
class VerificationRunAdmin(InUsersNewsroomsAdmin, admin.ModelAdmin):
    """Runs are records: read-only here. Overrides are given through the publish gate."""

    list_display = ["id", "story", "status_badge", "queued_at", "finished_at", "started_by", "is_current", "overridden"]
    list_display_links = ["id", "story"]
    list_filter = ["status", "queued_at", "started_by"]
    list_select_related = ["story"]
    search_fields = ["=story__desk_id", "story__headline", "story__slug", "content_hash", "started_by"]
    date_hierarchy = "queued_at"
    fieldsets = [
        (None, {"fields": ["story", "status_badge", "content_hash", "is_current"]}),
        ("Checks", {"fields": ["checks_display"]}),
        ("Timing", {"fields": ["queued_at", "started_at", "finished_at", "duration", "attempts", "retry_at"]}),
        ("Started by", {"fields": ["started_by", "started_by_user"]}),
        ("Editor's override", {"fields": ["override_reason", "overridden_by", "overridden_at"]}),
    ]
    readonly_fields = [
        "story",
        "status_badge",
        "content_hash",
        "is_current",
        "checks_display",
        "queued_at",
        "started_at",
        "finished_at",
        "duration",
        "attempts",
        "retry_at",
        "started_by",
        "started_by_user",
        "override_reason",
        "overridden_by",
        "overridden_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: VerificationRun | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: VerificationRun | None = None) -> bool:
        return False

    @admin.display(description="status", ordering="status")
    def status_badge(self, run: VerificationRun) -> SafeString:
        return _badge(run.status)

    @admin.display(description="checks current content", boolean=True)
    def is_current(self, run: VerificationRun) -> bool:
        return not run.is_stale

    @admin.display(description="overridden", boolean=True)
    def overridden(self, run: VerificationRun) -> bool:
        return run.is_overridden

    @admin.display(description="results")
    def checks_display(self, run: VerificationRun) -> SafeString:
        return checks_html(run)

    @admin.display(description="duration")
    def duration(self, run: VerificationRun) -> str:
        return "—" if run.duration_ms is None else f"{run.duration_ms:.0f} ms"


def undecided_note(story: Story, run: VerificationRun) -> SafeString | str:
    """Say so when the checks could not decide the story's content, why, and what happens next.

    A run that ended unknown is no verdict: its story stays submitted and the beat sweep runs the
    checks again at the run's ``retry_at``; while that new run works, the reasons the last one
    gave stay in view.
    """
    if run.status == VerificationRun.Status.UNKNOWN:
        if story.status in (Story.Status.PUBLISHED, Story.Status.RETRACTED):
            # A re-check of a live story: the live version's flag says what it means for readers.
            next_step = ""
        elif run.retry_at is not None and story.status == Story.Status.SUBMITTED:
            next_step = (
                f"; they run again by themselves at {format_when(run.retry_at)}. A chief may also publish "
                "overriding them, with a written reason"
            )
        else:
            next_step = "; submit the story to check it again"
        return format_html(
            '<p class="desk-undecided"><strong>The checks could not decide</strong> (a source could not be '
            "reached, or a claim's text is not known: why is below){}.</p>",
            next_step,
        )
    if run.is_finished:
        return ""
    previous = VerificationRun.objects.for_content(story).finished().exclude(pk=run.pk).first()
    if previous is None or previous.status != VerificationRun.Status.UNKNOWN:
        return ""
    return format_html(
        '<p class="desk-undecided"><strong>Checking again</strong>: <a href="{}">run {}</a> could not '
        "decide ({} ago): {}</p>",
        reverse("admin:verification_verificationrun_change", args=[previous.pk]),
        previous.pk,
        timesince(previous.finished_at or previous.queued_at, timezone.now()),
        "; ".join(run_problems(previous)) or "no reason was recorded",
    )


def verification_summary(story: Story) -> SafeString:
    """The latest run for the story's content (or, marked stale, the latest run of any content)."""
    if story.pk is None:
        return format_html("<em>{}</em>", "Checks run once the story is saved and submitted.")
    runs_url = reverse("admin:verification_verificationrun_changelist") + f"?story__id__exact={story.pk}"
    run = VerificationRun.objects.current_for(story)
    note = ""
    if run is None:
        run = VerificationRun.objects.latest_for(story)
        if run is None:
            return format_html('<em>Never checked.</em> <a href="{}">Runs</a>', runs_url)
        note = format_html(
            ' <strong style="color: {}">STALE</strong>: the story was edited after this run', STATUS_COLOURS["unknown"]
        )
    run_url = reverse("admin:verification_verificationrun_change", args=[run.pk])
    override = ""
    if run.is_overridden:
        override = format_html(
            "<p>Overridden by {} on {}: {}</p>",
            run.overridden_by or "?",
            f"{run.overridden_at:%Y-%m-%d %H:%M}",
            run.override_reason,
        )
    return format_html(
        '<p class="desk-run">{}{} — <a href="{}">run {}</a>, {} ago ({} UTC) by {} · <a href="{}">all runs</a></p>'
        "{}{}{}",
        _badge(run.status),
        note,
        run_url,
        run.pk,
        timesince(run.finished_at or run.queued_at, timezone.now()),
        f"{run.queued_at:%Y-%m-%d %H:%M}",
        run.started_by,
        runs_url,
        undecided_note(story, run),
        override,
        checks_html(run),
    )


BaseStoryAdmin = type(admin.site.get_model_admin(Story))


class StoryAdmin(StoryHistoryAdminMixin, EditVersionLockAdminMixin, StoryWorkflowAdminMixin, BaseStoryAdmin):
    readonly_fields = [*BaseStoryAdmin.readonly_fields, "verification"]
    # The checks' state and age first: what an editor opens the page to learn.
    fieldsets = [("Checks", {"fields": ["verification"]}), *BaseStoryAdmin.fieldsets]

    def check_problems(self, story_pk: int) -> list[tuple[str, str]]:
        """The last run's problems (of checks that did not pass), shown beside their parts."""
        run = VerificationRun.objects.filter(story_id=story_pk).order_by("-queued_at", "-pk").first()
        if run is None:
            return []
        if not run.is_finished:
            # Checking the same content again (its last run could not decide): that run's
            # reasons stay beside their parts until the new one has its own.
            run = (
                VerificationRun.objects.filter(story_id=story_pk, content_hash=run.content_hash)
                .finished()
                .order_by("-queued_at", "-pk")
                .first()
            ) or run
        return [
            (problem["at"], problem["message"])
            for check in run.checks
            if check["status"] != "pass"
            for problem in check.get("problems", [])
        ]

    @admin.display(description="latest checks")
    def verification(self, story: Story) -> SafeString:
        return verification_summary(story)


admin.site.unregister(Story)
admin.site.register(Story, StoryAdmin)
