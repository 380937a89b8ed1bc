"""The publish gate, and what a finished verification run does to its story.

``story_publish`` is the one way a story becomes published: admin, API and tasks all call it.
It refuses unless the newest run for the story's *current* content passed, or a chief of the
story's newsroom gives a written reason (kept on the run). An edit
changes the story's content hash, so a run checked before the edit no longer counts.

``story_apply_verdict`` moves a submitted story to verified, review or failed when its run
finishes, and publishes a verified one through the gate when its newsroom publishes
automatically. A run that could
not decide (``unknown``: the provider down, a claim's text not known) is no verdict on the story:
it stays submitted, and the run gets the time at which the beat sweep asks again. Both are safe to
call again with the same run (a redelivered task does): every state change is an atomic claim
``filter(pk=..., status__in=...).update(...)`` that acts only when one row changed.

This module never queues tasks (``verification.tasks`` imports it); ``verification.workflow``
is the entry point that does both.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from newsroom.cleantext import text_problem
from newsroom.models import Label
from newsroom.roles import may_write
from stories.desk import disclosure_for, format_utc, site_texts_in_force
from stories.labels import verification_record
from stories.models import PublishedVersion, Story
from stories.paths import describe_path
from stories.services import (
    WorkflowError,
    WorkflowPermissionDenied,
    require_chief,
    story_record_change,
    version_freeze,
)

from .models import CHECK_SEVERITY, CheckStatus, ReviewDecision, VerificationRun
from .review import review_items, review_outcome, run_allows_publication

logger = logging.getLogger(__name__)

AUTO_PUBLISH_ACTOR = "auto-publish"
# Stories the gate may publish: a published one too, when its working copy holds new content.
# A retracted story stays so.
PUBLISHABLE = (
    Story.Status.DRAFT,
    Story.Status.SUBMITTED,
    Story.Status.REVIEW,
    Story.Status.VERIFIED,
    Story.Status.FAILED,
    Story.Status.PUBLISHED,
)
# What a finished run that decided makes of its submitted story. A run left for review never
# publishes by itself: the desk confirms its parts first.
STORY_STATUS_AFTER = {
    VerificationRun.Status.PASSED: Story.Status.VERIFIED,
    VerificationRun.Status.REVIEW: Story.Status.REVIEW,
    VerificationRun.Status.FAILED: Story.Status.FAILED,
}
# The statuses a story of a run left for review takes as the desk decides its parts.
UNDER_REVIEW = (Story.Status.REVIEW, Story.Status.VERIFIED, Story.Status.FAILED)
# How many of a run's problems a refusal quotes.
SHOWN_PROBLEMS = 3


class PublishRefused(WorkflowError):
    """The gate refused to publish; ``message`` says why and what would let it through."""


class OverrideRefused(PublishRefused, WorkflowPermissionDenied):
    """An override was asked for without a chief signed in."""


@dataclass(frozen=True)
class PublishResult:
    """``published`` is False when the story was already published: nothing was done."""

    story: Story
    run: VerificationRun | None
    published: bool
    overridden: bool = False


def run_problems(run: VerificationRun, limit: int = SHOWN_PROBLEMS, *, paths: bool = False) -> list[str]:
    """The run's problems as 'check: where: message' lines, failing checks first. Where is in an
    editor's words ("Section 2, paragraph 1"), or with ``paths`` the desk/1 path a document's
    author fixes (``sections[1].paragraphs[0]``: the API, import_desk)."""
    where = str if paths else describe_path
    lines = [
        f"{check['name']} ({problem.get('status', check['status'])}): {where(problem['at'])}: {problem['message']}"
        for check in sorted(run.checks, key=lambda check: CHECK_SEVERITY.get(check["status"], len(CHECK_SEVERITY)))
        if check["status"] != CheckStatus.PASS
        for problem in check.get("problems", [])
    ]
    shown = lines[:limit]
    if len(lines) > limit:
        shown.append(f"... and {len(lines) - limit} more")
    return shown


def _why_not_passed(run: VerificationRun) -> str:
    if not run.is_finished:
        return f"its checks are still {run.get_status_display().lower()} (run {run.pk})"
    problems = "; ".join(run_problems(run)) or "no problem was recorded"
    return f"its checks did not pass (run {run.pk}: {run.get_status_display()}): {problems}"


def story_publish(*, story: Story, actor: str, user: Any = None, override_reason: str | None = None) -> PublishResult:
    """Publish the story if its current content passed its checks, or on a written override.

    ``actor`` names who or what publishes (a username, "auto-publish", "api:<agent>");
    ``user``, when given, must be allowed to change stories, and must hold the override
    chief role in the story's newsroom (``newsroom.roles``), which also lets them publish through
    checks that did not pass with ``override_reason``.
    Raises ``PublishRefused`` (``OverrideRefused`` for an override without a user) with a message an
    editor can act on. Publishing a published story does nothing and returns
    ``published=False``: it never happens twice, and never half (one transaction).
    """
    if not isinstance(actor, str) or not actor.strip():
        raise ValueError("actor must name who or what publishes the story")
    reason = override_reason.strip() if isinstance(override_reason, str) else None
    if override_reason is not None and not isinstance(override_reason, str):
        raise PublishRefused("An override reason must be text")
    problem = text_problem(reason, multiline=True) if reason else None
    if problem:
        raise PublishRefused(f"An override reason {problem}")
    if user is not None:
        require_chief(user, story, "Publishing a story")

    with transaction.atomic():
        # Lock the story row until commit: a concurrent publish, edit or retraction of this story
        # waits, so the gate decides on the content and status it then changes.
        current = Story.objects.select_for_update().get(pk=story.pk)
        live = PublishedVersion.objects.filter(pk=current.pk).first()
        if live is not None and live.withdrawn_at is None and live.content_hash == current.content_hash:
            return PublishResult(story=current, run=VerificationRun.objects.current_for(current), published=False)
        if current.status not in PUBLISHABLE:
            raise PublishRefused(f"A {current.get_status_display().lower()} story cannot be published again")
        # The newest run for the content as it is now: a run from before an edit does not count.
        # Its row is locked too, so an override is written on the very run the gate judged.
        run = VerificationRun.objects.select_for_update().for_content(current).order_by("-queued_at", "-pk").first()
        if run is None:
            stale = VerificationRun.objects.latest_for(current)
            why = (
                f"the story was edited after its last check (run {stale.pk}); submit it to check the new content"
                if stale is not None
                else "its content has not been checked; submit it first"
            )
            raise PublishRefused(f"Story {current.desk_id} cannot be published: {why}")

        overriding = False
        if not run_allows_publication(run):
            if not reason:
                raise PublishRefused(
                    f"Story {current.desk_id} cannot be published: {_why_not_passed(run)}. "
                    "A chief of its newsroom may override the checks with a written reason."
                )
            if user is None:
                raise OverrideRefused(
                    f"Story {current.desk_id} cannot be published: {_why_not_passed(run)}; "
                    "only a chief of its newsroom, signed in, may override the checks"
                )
            overriding = True

        now = timezone.now()
        label = Label.CHECKED
        confirmed: list[str] = []
        if overriding:
            label = Label.OVERRIDDEN
            run.override_reason = reason
            run.overridden_by = user
            run.overridden_at = now
            run.save(update_fields=["override_reason", "overridden_by", "overridden_at"])
            gate = f"overridden by {actor} (run {run.pk} {run.status}): {reason}"
            note = f"published overriding checks (run {run.pk})"
        elif run.status == VerificationRun.Status.REVIEW:
            label = Label.CONFIRMED
            confirmed = [item.at for item in review_items(run)]
            count = len(confirmed)
            gate = f"checks passed, {count} part{'s' * (count != 1)} confirmed by the desk (run {run.pk})"
            note = f"published (run {run.pk} passed with the desk's review)"
        else:
            gate = f"checks passed (run {run.pk})"
            note = f"published (run {run.pk} passed)"
        record = verification_record(
            label=label,
            published_at=format_utc(now),
            run_id=run.pk,
            checks=run.checks,
            reason=reason if overriding else "",
            confirmed=confirmed,
        )
        published = _publish(
            current, live, actor=actor, gate=gate, note=note, content_hash=run.content_hash, now=now, record=record
        )
    logger.info("story %s published by %s%s", published.desk_id, actor, " overriding its checks" if overriding else "")
    return PublishResult(story=published, run=run, published=True, overridden=overriding)


def story_publish_unchecked(*, story: Story, actor: str, reason: str) -> Story:
    """Publish without running the checks: an archive migration, say (``import_desk
    --unchecked --reason``). Recorded like an override, with its reason, on the live version
    and in the revision, and shown in admin. Only operators reach it, from the command line."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise PublishRefused("Publishing without checks needs a written reason")
    problem = text_problem(reason, multiline=True)
    if problem:
        raise PublishRefused(f"The reason for publishing without checks {problem}")
    with transaction.atomic():
        current = Story.objects.select_for_update().get(pk=story.pk)
        live = PublishedVersion.objects.filter(pk=current.pk).first()
        if live is not None and live.withdrawn_at is None and live.content_hash == current.content_hash:
            return current
        if current.status not in PUBLISHABLE:
            raise PublishRefused(f"A {current.get_status_display().lower()} story cannot be published again")
        gate = f"published without checks by {actor}: {reason}"
        note = f"published without checks: {reason}"
        now = timezone.now()
        record = verification_record(label=Label.UNCHECKED, published_at=format_utc(now), reason=reason)
        published = _publish(
            current, live, actor=actor, gate=gate, note=note, content_hash=current.content_hash, now=now, record=record
        )
    logger.warning("story %s published WITHOUT checks by %s: %s", published.desk_id, actor, reason)
    return published


def _publish(
    current: Story,
    live: PublishedVersion | None,
    *,
    actor: str,
    gate: str,
    note: str,
    content_hash: str,
    now: Any,
    record: dict[str, Any],
) -> Story:
    """The gate has opened: claim the story, freeze its live version and record it."""
    # A republished story keeps its address and first publication time; a first publication
    # keeps a time the working copy carries (an imported archive's), else it is now. The
    # dateline is the working copy's (one typed for the draft, or its edition's date): the
    # address the draft was previewed at is the one it is published at, so no URL moves.
    published_at = live.published_at if live is not None else (current.published_at or now)
    dateline = live.dateline if live is not None else current.dateline
    # Site texts: those the story already points at (an imported story's, a republished
    # story's), else the versions in force at its publication; the disclosure is the one
    # written for the version's label and its writer.
    in_force = site_texts_in_force(published_at)
    texts = {
        name: getattr(current, f"{name}_id") or (version.pk if version else None) for name, version in in_force.items()
    }
    disclosure = disclosure_for(current, label=record["state"], at=published_at)
    texts["disclosure"] = disclosure.pk if disclosure is not None else None
    try:
        # A savepoint, so a URL already taken on the publication date is reported, not a 500.
        with transaction.atomic():
            # The claim: the row changes only if it is still publishable and still holds the
            # content the gate opened for.
            claimed = Story.objects.filter(pk=current.pk, status__in=PUBLISHABLE, content_hash=content_hash).update(
                status=Story.Status.PUBLISHED,
                published_at=published_at,
                dateline=dateline,
                updated_at=now,
                # A publication, by hand or on time, ends any schedule and its old refusal.
                publish_at=None,
                schedule_problem="",
                **{f"{name}_id": pk for name, pk in texts.items()},
            )
            if claimed != 1:
                # Unreachable while the row lock is held; kept so a change of locking cannot publish twice.
                raise PublishRefused(f"Story {current.desk_id} changed while it was being published; try again")
            published = Story.objects.get(pk=current.pk)
            try:
                version_freeze(story=published, actor=actor, gate=gate, verification=record)
            except WorkflowError as refusal:
                raise PublishRefused(refusal.message) from None
    except IntegrityError:
        raise PublishRefused(
            f"Story {current.desk_id} cannot be published: another story already uses the address "
            f"/stories/{dateline.isoformat()}/{current.slug}/; change its slug"
        ) from None
    story_record_change(story=published, actor=actor, note=note[:300])
    return published


def story_apply_verdict(*, run: VerificationRun) -> Story:
    """After a run finished: its submitted story becomes verified or failed, or is auto-published.

    A run that ended ``unknown`` leaves the story submitted and sets the run's ``retry_at``,
    when ``verification.tasks.requeue_pending_runs`` asks for the checks again.
    Idempotent: calling it again with the same run changes nothing more. A run that is not the
    newest for its story's current content is ignored; if the story was edited after it was
    submitted, it goes back to draft, to be submitted again.
    """
    run = VerificationRun.objects.select_related("story__newsroom").get(pk=run.pk)
    story = run.story
    if not run.is_finished or story.status not in (Story.Status.SUBMITTED, Story.Status.REVIEW, Story.Status.VERIFIED):
        return story
    if run.content_hash != story.content_hash:
        # Claim on the hash too: only a story still holding the edited content goes back.
        if Story.objects.filter(pk=story.pk, status=Story.Status.SUBMITTED, content_hash=story.content_hash).update(
            status=Story.Status.DRAFT, updated_at=timezone.now()
        ):
            logger.info("story %s was edited after submission; back to draft (run %s is stale)", story.pk, run.pk)
        return Story.objects.get(pk=story.pk)
    newest = VerificationRun.objects.current_for(story)
    if newest is not None and newest.pk != run.pk:
        return story
    if run.status == VerificationRun.Status.UNKNOWN:
        # The checks could not decide, which says nothing against the story: it stays submitted.
        # Set once (a redelivered task must not push the retry further away).
        if (
            run.retry_at is None
            and story.status == Story.Status.SUBMITTED
            and VerificationRun.objects.filter(pk=run.pk, retry_at__isnull=True).update(retry_at=run.next_retry_at())
        ):
            logger.info("story %s: run %s could not decide; the checks run again later", story.pk, run.pk)
        return story
    # A run left for review may already be settled: its parts unchanged since the desk decided.
    after = review_outcome(run) if run.status == VerificationRun.Status.REVIEW else STORY_STATUS_AFTER[run.status]
    Story.objects.filter(pk=story.pk, status=Story.Status.SUBMITTED, content_hash=run.content_hash).update(
        status=after, updated_at=timezone.now()
    )
    return _auto_publish(story, run) if after == Story.Status.VERIFIED else Story.objects.get(pk=story.pk)


def _auto_publish(story: Story, run: VerificationRun) -> Story:
    if story.newsroom.auto_publish:
        try:
            return story_publish(story=story, actor=AUTO_PUBLISH_ACTOR).story
        except PublishRefused as refusal:
            # Checks passed but publication is blocked (e.g. its URL is taken): an editor decides.
            logger.warning("story %s passed its checks but was not auto-published: %s", story.pk, refusal.message)
    return Story.objects.get(pk=story.pk)


def story_review_decide(*, story: Story, at: str, verdict: str, user: Any) -> Story:
    """Record the desk's word on a part the current run left for review, and act on it.

    ``verdict`` is ``confirmed`` (the passage is backed by its cited claims) or
    ``not_supported``. Only a signed-in editor or chief of the story's newsroom decides: no
    API route or tool leads here, so a writer agent's token never confirms its own text.
    Once every part is confirmed the story is verified and, when its newsroom publishes
    automatically, published through the gate; one part not supported fails it. Deciding
    again replaces the decision (a chief may reverse an editor). Raises ``WorkflowError``
    naming what is wrong: nothing waits on review, or the part does not.
    """
    if verdict not in ReviewDecision.Verdict.values:
        raise WorkflowError(f"verdict: {verdict!r} is not one of {', '.join(ReviewDecision.Verdict.values)}")
    if user is None or not may_write(user, story.newsroom_id):
        raise WorkflowPermissionDenied("Reviewing a story's support needs the editor or chief role in its newsroom")
    with transaction.atomic():
        current = Story.objects.select_for_update().get(pk=story.pk)
        run = VerificationRun.objects.current_for(current)
        if run is None or run.status != VerificationRun.Status.REVIEW:
            raise WorkflowError(f"Story {current.desk_id} has no check run of its current content waiting on review")
        items = review_items(run)
        item = next((item for item in items if item.at == at), None)
        if item is None:
            raise WorkflowError(f"{describe_path(at)} of story {current.desk_id} does not wait on review")
        ReviewDecision.objects.update_or_create(
            story=current,
            passage_hash=item.passage_hash,
            claims_hash=item.claims_hash,
            defaults={
                "at": item.at,
                "verdict": verdict,
                "decided_by": user,
                "decided_by_name": user.get_username(),
                "decided_at": timezone.now(),
            },
        )
        words = "confirmed the support of" if verdict == ReviewDecision.Verdict.CONFIRMED else "found not supported"
        story_record_change(story=current, actor=user.get_username(), note=f"{words} {item.where} (run {run.pk})")
        after = review_outcome(run)
        Story.objects.filter(pk=current.pk, status__in=UNDER_REVIEW, content_hash=run.content_hash).update(
            status=after, updated_at=timezone.now()
        )
    logger.info("story %s: %s %s %s", current.desk_id, user.get_username(), words, at)
    return _auto_publish(current, run) if after == Story.Status.VERIFIED else Story.objects.get(pk=current.pk)
