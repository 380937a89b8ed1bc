"""Verification runs (the five checks over one version of a story) and the repeat index.

A run records the content hash it checked; the story's hash changes with every edit, so a
run whose hash differs from its story's is stale. Runs are created pending and claimed
atomically by whoever executes them (a Celery worker, ``verify_story``), so two workers never
run the same one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from stories.models import Story


class CheckStatus(models.TextChoices):
    PASS = "pass", "Pass"
    FAIL = "fail", "Fail"
    UNKNOWN = "unknown", "Unknown"
    # Nothing found wrong that the check is sure of, but a part it cannot vouch for: the desk
    # reads the part beside its cited claims and confirms it, or it does not go out.
    REVIEW = "review", "Needs review"

    @classmethod
    def worst(cls, statuses: Iterable[str]) -> CheckStatus:
        """The status of a check (or a run) from its problems' (its checks'): fail, then
        unknown, then review, then pass."""
        found = set(statuses)
        return next((cls(status) for status in CHECK_SEVERITY if status in found), cls.PASS)


# Worst first: the order problems are listed in, and which status a check or a run takes.
CHECK_SEVERITY = {
    status: rank
    for rank, status in enumerate((CheckStatus.FAIL, CheckStatus.UNKNOWN, CheckStatus.REVIEW, CheckStatus.PASS))
}


class VerificationRunQuerySet(models.QuerySet):
    def for_story(self, story: Story) -> VerificationRunQuerySet:
        return self.filter(story=story)

    def for_content(self, story: Story) -> VerificationRunQuerySet:
        """Runs that checked exactly the story's current content."""
        return self.filter(story=story, content_hash=story.content_hash)

    def finished(self) -> VerificationRunQuerySet:
        return self.filter(status__in=VerificationRun.FINISHED)

    def unfinished(self) -> VerificationRunQuerySet:
        return self.exclude(status__in=VerificationRun.FINISHED)

    def latest_for(self, story: Story) -> VerificationRun | None:
        """The story's newest run, whatever content it checked (compare ``is_stale``)."""
        return self.for_story(story).order_by("-queued_at", "-pk").first()

    def current_for(self, story: Story) -> VerificationRun | None:
        """The newest run for the story's current content, finished or not; None if there is none.

        This is the run the publish gate reads: an edit changes ``story.content_hash``, so
        after an edit this is None until the new content is checked.
        """
        return self.for_content(story).order_by("-queued_at", "-pk").first()

    def decided_for(self, story: Story) -> VerificationRun | None:
        """The newest passed or failed run for the current content: one to reuse, not re-run."""
        return (
            self.for_content(story)
            .filter(status__in=[VerificationRun.Status.PASSED, VerificationRun.Status.FAILED])
            .order_by("-queued_at", "-pk")
            .first()
        )

    def awaiting_retry(self) -> VerificationRunQuerySet:
        """Runs that could not decide whose story still waits on them: submitted, holding the
        content they checked, and no newer run asked for since. The beat sweep asks again for each
        at its ``retry_at``; any other run's ``retry_at`` is a time nothing will happen at."""
        newer = VerificationRun.objects.filter(story=OuterRef("story")).filter(
            Q(queued_at__gt=OuterRef("queued_at")) | Q(queued_at=OuterRef("queued_at"), pk__gt=OuterRef("pk"))
        )
        return self.filter(
            status=VerificationRun.Status.UNKNOWN,
            retry_at__isnull=False,
            story__status=Story.Status.SUBMITTED,
            story__content_hash=F("content_hash"),
        ).exclude(Exists(newer))

    def retry_due(self, now: datetime) -> VerificationRunQuerySet:
        """Runs awaiting a retry whose time has come, the longest overdue first."""
        return self.awaiting_retry().filter(retry_at__lte=now).order_by("retry_at", "pk")

    def claimable(self, now: datetime | None = None) -> VerificationRunQuerySet:
        """Runs a worker may take: pending ones, and running ones whose worker has gone.

        A worker killed mid-run leaves its run ``running``; once the lease has passed, the
        redelivered task (or the beat sweep) may take it over.
        """
        now = now or timezone.now()
        lease = timedelta(seconds=settings.VERIFY_RUN_LEASE_SECONDS)
        return self.filter(
            Q(status=VerificationRun.Status.PENDING)
            | Q(status=VerificationRun.Status.RUNNING, started_at__lt=now - lease)
        )


class VerificationRun(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"
        UNKNOWN = "unknown", "Unknown (some checks could not decide)"
        REVIEW = "review", "Needs the desk's review"

    FINISHED = (Status.PASSED, Status.FAILED, Status.UNKNOWN, Status.REVIEW)

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="verification_runs")
    # The story's content_hash when the run was queued: what this run's verdict is about.
    content_hash = models.CharField(max_length=64, db_index=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    # [{"name", "status", "problems": [{"at", "message"}], "duration_ms"}] in the order run.
    checks = models.JSONField(default=list, blank=True)

    started_by = models.CharField(max_length=200, help_text="Who or what asked for the run.")
    started_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    queued_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # How many times a worker claimed the run; more than one means a worker died mid-run.
    attempts = models.PositiveSmallIntegerField(default=0)

    # An editor holding the override permission may let a story through checks that did not
    # pass; the reason is kept with the run and shown in admin.
    override_reason = models.TextField(blank=True)
    overridden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    overridden_at = models.DateTimeField(null=True, blank=True)
    # A run that could not decide leaves its story submitted; the beat sweep asks for a new run
    # for the same content at this time (``verification.gate.story_apply_verdict`` sets it, the
    # sweep clears it when it asks).
    retry_at = models.DateTimeField(
        "checks run again at",
        null=True,
        blank=True,
        help_text="Set while the story waits on a run that could not decide.",
    )

    objects = VerificationRunQuerySet.as_manager()

    class Meta:
        ordering = ["-queued_at", "-pk"]
        indexes = [models.Index(fields=["story", "content_hash", "-queued_at"], name="run_story_content_latest")]
        constraints = [
            # At most one run in flight per version of a story: a second submission of the same
            # content joins the pending run instead of queuing another.
            models.UniqueConstraint(
                fields=["story", "content_hash"],
                condition=Q(status__in=["pending", "running"]),
                name="one_unfinished_run_per_content",
            ),
        ]

    def __str__(self) -> str:
        return f"Run {self.pk} of story {self.story_id}: {self.status}"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def is_stale(self) -> bool:
        """The story has been edited since this run's content was checked."""
        return self.content_hash != self.story.content_hash

    @property
    def is_overridden(self) -> bool:
        return self.overridden_at is not None

    @property
    def allows_publication(self) -> bool:
        """Passed, or overridden by an editor. The gate also requires the run to be current."""
        return self.status == self.Status.PASSED or self.is_overridden

    @property
    def duration_ms(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds() * 1000

    def next_retry_at(self) -> datetime:
        """When to ask again for the content this run could not decide.

        VERIFY_UNKNOWN_RETRY_SECONDS after the run ended, doubling with each run of the same
        content that could not decide, up to VERIFY_UNKNOWN_RETRY_MAX_SECONDS: a provider down
        for an hour is asked a handful of times, one down for days a few times a day.
        """
        undecided = (
            VerificationRun.objects.filter(
                story_id=self.story_id, content_hash=self.content_hash, status=self.Status.UNKNOWN
            ).count()
            or 1
        )
        delay = min(
            settings.VERIFY_UNKNOWN_RETRY_SECONDS * 2 ** min(undecided - 1, 20),
            settings.VERIFY_UNKNOWN_RETRY_MAX_SECONDS,
        )
        return (self.finished_at or timezone.now()) + timedelta(seconds=delay)

    def check_result(self, name: str) -> dict[str, Any] | None:
        return next((check for check in self.checks if check["name"] == name), None)

    @staticmethod
    def status_for(check_statuses: Iterable[str]) -> str:
        """A run fails if any check fails; it is unknown if none fails but some could not decide
        (or there were no checks); it needs review if every other check passed but some part
        waits on the desk; else it passed."""
        statuses = set(check_statuses)
        if not statuses:
            return VerificationRun.Status.UNKNOWN
        return RUN_STATUS_OF_CHECKS[CheckStatus.worst(statuses)]


RUN_STATUS_OF_CHECKS = {
    CheckStatus.FAIL: VerificationRun.Status.FAILED,
    CheckStatus.UNKNOWN: VerificationRun.Status.UNKNOWN,
    CheckStatus.REVIEW: VerificationRun.Status.REVIEW,
    CheckStatus.PASS: VerificationRun.Status.PASSED,
}


class ReviewDecision(models.Model):
    """The desk's word on a part the support check could not vouch for: an editor or chief of
    the story's newsroom read the passage beside its cited claims and confirmed its support, or
    found it not supported.

    A decision is about exactly what was read: the passage's text and the cited claims' texts,
    by hash. Editing the passage, or a change of a cited claim's text, makes it stale (no longer
    matching), and the part waits on the desk again; an unchanged part keeps its decision
    through edits of other parts and new runs. ``verification.review`` reads them;
    ``verification.gate.story_review_decide`` records them.
    """

    class Verdict(models.TextChoices):
        CONFIRMED = "confirmed", "Support confirmed"
        NOT_SUPPORTED = "not_supported", "Not supported"

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="review_decisions")
    # Where the part was when it was decided, for people; matching is by the hashes.
    at = models.CharField(max_length=100)
    passage_hash = models.CharField(max_length=64)
    claims_hash = models.CharField(max_length=64)
    verdict = models.CharField(max_length=20, choices=Verdict.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Kept when the user is deleted: the audit trail names who decided.
    decided_by_name = models.CharField(max_length=150)
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-decided_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["story", "passage_hash", "claims_hash"], name="one_review_decision_per_reading"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()}: {self.at} of story {self.story_id}"


class StorySignature(models.Model):
    """What the repeat check compares: a MinHash of a published story's text and its manifests.

    Only published stories have one (the repeat check looks for earlier published stories);
    ``verification.repeat`` keeps it current and ``manage.py index_story_signatures`` backfills.
    """

    story = models.OneToOneField(Story, on_delete=models.CASCADE, primary_key=True, related_name="repeat_signature")
    content_hash = models.CharField(max_length=64)
    published_at = models.DateTimeField(db_index=True)
    # One-permutation MinHash: SIGNATURE_BINS unsigned 32-bit minima, little-endian.
    minhash = models.BinaryField()
    manifest_ids = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Signature of story {self.story_id}"


class StorySignatureKey(models.Model):
    """The candidate index: LSH band hashes and cited-manifest hashes of each signature.

    Two stories share a band key when a whole band of their MinHash agrees, which is likely
    only for similar text; they share a manifest key when they cite the same manifest. The
    repeat check looks up its own keys here, so it reads a handful of rows, not every story.
    """

    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="+")
    key = models.BigIntegerField()
    # Copied from the story so one index range scan answers "keys in the window".
    published_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["key", "published_at"], name="signature_key_window")]

    def __str__(self) -> str:
        return f"{self.key} -> story {self.story_id}"
