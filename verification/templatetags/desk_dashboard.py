"""The admin index's dashboard: what needs an editor, in the user's newsrooms only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import template
from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse
from django.utils import timezone

from stories.models import Story
from verification.models import VerificationRun

register = template.Library()

SHOWN = 5
DRAFT_AGE = timedelta(days=1)


@dataclass(frozen=True)
class Tile:
    title: str
    help: str
    count: int
    stories: list[Story]
    url: str


def _tile(title: str, help: str, stories: QuerySet, url: str) -> Tile:
    shown = list(stories.only("pk", "desk_id", "headline")[:SHOWN])
    count = len(shown) if len(shown) < SHOWN else stories.count()
    return Tile(title, help, count, shown, url)


def dashboard_tiles(user: Any) -> list[Tile]:
    """Failed checks, parts waiting on review, checks that could not decide, verified and
    waiting, scheduled, drafts older than a day: a few queries whatever the number of stories."""
    mine = Story.objects.for_user(user).order_by("-updated_at")
    changelist = reverse("admin:stories_story_changelist")
    # Submitted, and a run of exactly this content ended unknown: had one decided, the story
    # would be verified or failed.
    undecided = VerificationRun.objects.filter(
        story=OuterRef("pk"), content_hash=OuterRef("content_hash"), status=VerificationRun.Status.UNKNOWN
    )
    return [
        _tile(
            "Checks failed",
            "Fix what the checks found, then submit again.",
            mine.filter(status=Story.Status.FAILED),
            f"{changelist}?status__exact={Story.Status.FAILED}",
        ),
        _tile(
            "Waiting on the desk's review",
            "The checks found nothing wrong but could not show some parts are backed by their claims: "
            "read them beside the claims and confirm, or say they are not supported.",
            mine.filter(status=Story.Status.REVIEW),
            f"{changelist}?status__exact={Story.Status.REVIEW}",
        ),
        _tile(
            "Checks could not decide",
            "A source could not be reached or a claim's text is not known: the checks run again by "
            "themselves; a chief may override them with a reason.",
            mine.filter(Exists(undecided), status=Story.Status.SUBMITTED),
            f"{changelist}?status__exact={Story.Status.SUBMITTED}",
        ),
        _tile(
            "Verified, waiting to be published",
            "Every check passed: a chief may publish.",
            mine.filter(status=Story.Status.VERIFIED),
            f"{changelist}?status__exact={Story.Status.VERIFIED}",
        ),
        _tile(
            "Scheduled",
            "Published through the gate at their time; a refusal is shown on the story.",
            mine.filter(publish_at__isnull=False).order_by("publish_at"),
            f"{changelist}?publish_at__isnull=False",
        ),
        _tile(
            "Drafts older than a day",
            "Written but never submitted for checks.",
            mine.filter(status=Story.Status.DRAFT, created_at__lt=timezone.now() - DRAFT_AGE),
            f"{changelist}?status__exact={Story.Status.DRAFT}",
        ),
    ]


@register.inclusion_tag("admin/verification/dashboard.html", takes_context=True)
def desk_dashboard(context: dict[str, Any]) -> dict[str, Any]:
    user = context["request"].user
    return {"tiles": dashboard_tiles(user) if user.has_perm("stories.view_story") else []}
