"""Verification runs and the repeat index: the changes that span models.

The life of a run: ``verification_run_request`` records a pending run for the story's current
content (or hands back one that already decided it); ``verification_run_execute`` claims it
atomically, performs the five checks and records the verdict. ``story_verify`` does both at
once. A Celery task calls ``verification_run_execute(run_id=...)`` on a run requested at
submission; redelivering that task is harmless.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from newsroom.ops.metrics import count_check_results
from stories.models import PublishedVersion, Story
from stories.services import version_flag

from . import repeat
from .checks import CHECKS, checkable, parts, story_texts
from .models import CheckStatus, StorySignature, StorySignatureKey, VerificationRun
from .review import run_allows_publication

logger = logging.getLogger(__name__)


# --- Runs ----------------------------------------------------------------------------------


def verification_run_request(
    *, story: Story, started_by: str, user: Any = None, force: bool = False
) -> VerificationRun:
    """The run that will decide the story's current content, created pending if need be.

    Returns, in this order of preference: the newest passed or failed run for the current
    content (its verdict stands, unless ``force``); the run already pending or running for it;
    a new pending run. A run that ended ``unknown`` is never reused: it may decide this time.
    """
    if not started_by.strip():
        raise ValueError("started_by must say who or what asked for the run")
    # The caller's object may be older than the last edit; the hash in the database is the truth.
    story.content_hash = Story.objects.values_list("content_hash", flat=True).get(pk=story.pk)
    runs = VerificationRun.objects
    if not force and (decided := runs.decided_for(story)):
        return decided
    if unfinished := runs.for_content(story).unfinished().first():
        return unfinished
    try:
        # A savepoint: losing the race to the partial unique constraint must not break the
        # caller's transaction.
        with transaction.atomic():
            return runs.create(
                story=story,
                content_hash=story.content_hash,
                started_by=started_by,
                started_by_user=user if getattr(user, "pk", None) else None,
            )
    except IntegrityError:
        # Another request created the pending run for this content a moment ago: use it.
        return runs.for_content(story).unfinished().get()


RETRY_STARTED_BY = "retry: the last run could not decide"


def verification_run_retry(*, run: VerificationRun) -> VerificationRun | None:
    """Ask again for the content a run could not decide, once its ``retry_at`` has come.

    Returns the pending run to queue (a new one: an ``unknown`` run is never reused), or None if
    another sweep took this retry already. The claim clears ``retry_at``, so of two sweeps one
    asks; the new run is recorded in the same transaction.
    """
    if run.retry_at is None:
        return None
    with transaction.atomic():
        if not VerificationRun.objects.filter(pk=run.pk, retry_at=run.retry_at).update(retry_at=None):
            return None
        return verification_run_request(story=run.story, started_by=RETRY_STARTED_BY)


def _claim(run_id: int) -> VerificationRun | None:
    """Take the run for this worker, or None if another worker has it or it is finished.

    One UPDATE with the state in its WHERE clause: of two workers racing, exactly one changes
    the row. A running run is taken over only after its lease expired (its worker died).
    """
    now = timezone.now()
    claimed = (
        VerificationRun.objects.claimable(now)
        .filter(pk=run_id)
        .update(status=VerificationRun.Status.RUNNING, started_at=now, attempts=F("attempts") + 1)
    )
    if claimed != 1:
        return None
    return VerificationRun.objects.select_related("story").get(pk=run_id)


def _perform_checks(story: Story) -> list[dict[str, Any]]:
    results = []
    for name, check in CHECKS:
        started = time.perf_counter()
        try:
            result = check(story)
            entry = result.as_dict()
            if result.details:
                entry["details"] = result.details
        except Exception as error:
            # One broken check must not lose the others' results; it cannot decide, so unknown.
            logger.exception("check %s crashed on story %s", name, story.pk)
            entry = {
                "name": name,
                "status": str(CheckStatus.UNKNOWN),
                "problems": [
                    {
                        "at": "$",
                        "message": f"the check could not run: {type(error).__name__}: {error}",
                        "code": "check_crashed",
                        "status": str(CheckStatus.UNKNOWN),
                    }
                ],
            }
        entry["duration_ms"] = round((time.perf_counter() - started) * 1000, 2)
        results.append(entry)
    return results


def verification_run_execute(*, run_id: int) -> VerificationRun:
    """Perform a pending run and record its verdict; safe to call twice or from two workers.

    If the run is finished, or another live worker holds it, nothing is done and the run is
    returned as it stands. If the story was edited after the run was queued, the run ends
    ``unknown`` without checking: its content no longer exists, and the edit queues its own run.
    """
    run = _claim(run_id)
    if run is None:
        return VerificationRun.objects.select_related("story").get(pk=run_id)
    started_at = run.started_at
    story = checkable(Story.objects.filter(pk=run.story_id)).get()
    if story.content_hash != run.content_hash:
        checks = [
            {
                "name": name,
                "status": str(CheckStatus.UNKNOWN),
                "problems": [
                    {
                        "at": "$",
                        "message": "the story was edited after this run was queued; a newer run checks it",
                        "code": "edited_since_queued",
                        "status": str(CheckStatus.UNKNOWN),
                    }
                ],
                "duration_ms": 0.0,
            }
            for name, _ in CHECKS
        ]
    else:
        checks = _perform_checks(story)
    status = VerificationRun.status_for(check["status"] for check in checks)
    # Record only if this worker still holds the run: after a lease expiry another worker may
    # have taken it over, and then its result is the one kept.
    recorded = VerificationRun.objects.filter(
        pk=run_id, status=VerificationRun.Status.RUNNING, started_at=started_at
    ).update(status=status, checks=checks, finished_at=timezone.now())
    if not recorded:
        logger.warning("run %s was taken over by another worker; this worker's result is dropped", run_id)
    else:
        # Counted here, where results are kept, so a dropped result is never counted.
        count_check_results(checks)
        logger.info("run %s for story %s recorded: %s", run_id, run.story_id, status)
    return VerificationRun.objects.select_related("story").get(pk=run_id)


def story_verify(*, story: Story, started_by: str, user: Any = None, force: bool = False) -> VerificationRun:
    """Run the five checks on the story's current content now, record the run and return it.

    Idempotent by content: a passed or failed run for the current content is returned as it is
    (``force`` runs again, e.g. after the manifest store changed). A run another worker is
    performing right now is returned unfinished.
    """
    run = verification_run_request(story=story, started_by=started_by, user=user, force=force)
    if run.is_finished:
        return run
    return verification_run_execute(run_id=run.pk)


def live_version_recheck(*, version: PublishedVersion) -> str:
    """Run the checks again for a live story after a claim it cites may have changed.

    The story stays up whatever they say; when they no longer pass, its version is flagged
    with the reason, for its editors (admin shows it). Returns the flag ("" when it passes).
    The checks read the working copy, so they judge the live content when the two are equal;
    when the working copy has moved on, the flag says the live content could not be re-checked.
    """
    story = Story.objects.get(pk=version.pk)
    failed: list[str] = []
    if story.content_hash != version.content_hash:
        flag = (
            "a claim this story cites changed after publication; the working copy has changed since, so the "
            "live content could not be re-checked: submit and republish to check it"
        )
    else:
        run = story_verify(story=story, started_by="recheck after a source changed", force=True)
        problems = [
            f"{check['name']}: {problem['at']}: {problem['message']}"
            for check in run.checks
            if check["status"] != CheckStatus.PASS
            for problem in check.get("problems", [])
        ]
        failed = [check["name"] for check in run.checks if check["status"] != CheckStatus.PASS]
        flag = (
            ""
            if run_allows_publication(run)
            else (
                f"re-check after a source changed did not pass (run {run.pk}, {run.status}): " + "; ".join(problems[:3])
            )
        )
    version_flag(version=version, flag=flag, failed=failed)
    return flag


# --- The repeat index ----------------------------------------------------------------------


def story_signature_refresh(*, story: Story) -> StorySignature | None:
    """Bring the story's entry in the repeat index in line with the story.

    A published story gets its signature and index keys (recomputed only when its content or
    publication time changed); any other story has none, so a retraction leaves the index.
    """
    state = Story.objects.filter(pk=story.pk).values("status", "published_at", "content_hash").first()
    if state is None:
        return None
    if state["status"] != Story.Status.PUBLISHED or state["published_at"] is None:
        StorySignature.objects.filter(story_id=story.pk).delete()
        StorySignatureKey.objects.filter(story_id=story.pk).delete()
        return None
    current = StorySignature.objects.filter(story_id=story.pk).first()
    if current and (current.content_hash, current.published_at) == (state["content_hash"], state["published_at"]):
        # Unchanged: no need to load the story's parts at all.
        return current
    story = checkable(Story.objects.filter(pk=story.pk)).get()
    story_parts = parts(story)
    signature = repeat.minhash(repeat.features(story_texts(story, story_parts)))
    manifest_ids = list(dict.fromkeys(cite.manifest_id for part in story_parts for cite in part.cites))
    with transaction.atomic():
        entry, _ = StorySignature.objects.update_or_create(
            story_id=story.pk,
            defaults={
                "content_hash": story.content_hash,
                "published_at": story.published_at,
                "minhash": repeat.pack(signature),
                "manifest_ids": manifest_ids,
            },
        )
        StorySignatureKey.objects.filter(story_id=story.pk).delete()
        StorySignatureKey.objects.bulk_create(
            StorySignatureKey(story_id=story.pk, key=key, published_at=story.published_at)
            for key in repeat.index_keys(signature, manifest_ids)
        )
    return entry
