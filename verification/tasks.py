"""Celery tasks: fetch manifests, verify a story, and the beat sweep that loses nothing.

Tasks take ids, are queued after commit (``transaction.on_commit``) and do their work through
services. Every task is safe to run twice: ``acks_late`` with ``reject_on_worker_lost`` means a
task whose worker died mid-way is delivered again (Redis hands it out once the visibility
timeout has passed), and the services it calls act through atomic claims.

Routes, time limits and the beat schedule are in ``newsroom/settings.py``; the system checks in
``verification/system_checks.py`` keep the visibility timeout and the run lease longer than the
longest hard time limit.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from manifests.provider import ProviderUnavailable
from manifests.services import FetchOutcome, manifests_fetch
from newsroom.celery import app
from stories.models import PublishedVersion, Story
from stories.services import version_rerender

from .gate import story_apply_verdict
from .models import CheckStatus, VerificationRun
from .schedule import publish_due_stories
from .services import live_version_recheck, verification_run_execute, verification_run_retry

logger = logging.getLogger(__name__)

# What queuing raises while the broker is unreachable: kombu wraps connection failures in its
# OperationalError; redis-py's own errors can escape from a half-open connection.
BROKER_ERRORS = (BrokerOperationalError, RedisConnectionError, RedisTimeoutError)
# A database that went away for a moment (failover, restart, dropped connection) is worth a retry.
TRANSIENT_DATABASE_ERRORS = (DatabaseOperationalError, InterfaceError)
# Publishing a task while the broker is down: a few quick attempts, then give up and let the
# sweep queue it; a web request must not hang on a dead broker.
PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
# A sweep queues at most this many runs; the next sweep takes the rest.
SWEEP_BATCH = 500
# Ids of manifests one fetch task takes at most.
FETCH_MAX_IDS = 1000


def capped_countdown(seconds: float) -> float:
    """A retry's delay, at most half the visibility timeout.

    A task waiting for its ETA sits unacknowledged in a worker; if it waited longer than the
    visibility timeout, Redis would hand it to a second worker as well.
    """
    visibility = app.conf.broker_transport_options.get("visibility_timeout", 3600)
    return max(0, min(seconds, visibility / 2))


def enqueue_verification(run_id: int) -> bool:
    """Queue the verify task for a run; False (logged) if the broker cannot take it now.

    Called from ``transaction.on_commit`` hooks, so the run is in the database before a worker
    looks for it. A broker failure is never raised: the submission is saved with its run
    pending, and ``requeue_pending_runs`` queues it once the broker is back.
    """
    try:
        verify_story_task.apply_async(args=[run_id], retry_policy=PUBLISH_RETRY_POLICY)
    except BROKER_ERRORS as error:
        logger.warning(
            "run %s is saved pending but could not be queued (broker unreachable: %s); "
            "the requeue_pending_runs sweep will queue it when the broker is back",
            run_id,
            error,
        )
        return False
    return True


# What every task here declares: acknowledged only when done and redelivered if its worker
# dies, and retried with jittered backoff when the database hiccups.
DURABLE: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_DATABASE_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
}
# The beat's own tasks: durable like the others, unbound, and retried a few times only, since
# the next beat tick does the same work anyway.
BEAT_SWEEP: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_DATABASE_ERRORS,
    "retry_backoff": True,
    "max_retries": 3,
}


@app.task(
    **DURABLE,
    max_retries=8,
    soft_time_limit=settings.VERIFY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.VERIFY_TASK_TIME_LIMIT,
)
def verify_story_task(self: Any, run_id: int) -> str:
    """Perform a verification run and apply its verdict to the story; returns the run's status.

    Idempotent: a finished run is not performed again (its verdict is applied again, which
    changes nothing); a run another live worker holds is left to it and looked at again once
    that worker's lease would have run out.
    """
    if (self.request.delivery_info or {}).get("redelivered"):
        # The broker handed this task out before and it was never acknowledged: its worker died.
        logger.warning("verify run %s: redelivered message (a worker died before finishing it)", run_id)
    try:
        run = verification_run_execute(run_id=run_id)
    except VerificationRun.DoesNotExist:
        logger.warning("verify run %s: no such run (its story was deleted?); nothing to do", run_id)
        return "missing"
    except SoftTimeLimitExceeded:
        # The run stays "running"; once its lease runs out the sweep queues it again, and after
        # VERIFY_RUN_MAX_ATTEMPTS claims it is given up as unknown.
        logger.error("verify run %s: over the soft time limit of %ss", run_id, settings.VERIFY_TASK_SOFT_TIME_LIMIT)
        raise
    if run.status == VerificationRun.Status.RUNNING:
        # Another worker holds it. If that worker is dead, its lease ends and a later look
        # takes the run over; if it is alive, a later look finds the run finished.
        if self.request.is_eager:
            return str(run.status)
        remaining = settings.VERIFY_RUN_LEASE_SECONDS
        if run.started_at is not None:
            ends = run.started_at + timedelta(seconds=settings.VERIFY_RUN_LEASE_SECONDS)
            remaining = max(0, int((ends - timezone.now()).total_seconds()))
        raise self.retry(countdown=capped_countdown(remaining + 1), max_retries=self.max_retries)
    story_apply_verdict(run=run)
    return str(run.status)


def fetch_retry(outcomes: dict[str, FetchOutcome], *, retries: int, max_retries: int) -> tuple[list[str], float] | None:
    """Which ids to fetch again, and in how many seconds; None when done or out of retries.

    Only ids the provider could not answer for now (down, too slow, rate limited) are retried:
    a missing manifest, a rejected key or a broken reply will not change by waiting. The wait
    doubles with each retry from MANIFEST_PROVIDER_MAX_WAIT, and is never shorter than what the
    provider asked for in Retry-After.
    """
    unavailable = [
        manifest_id
        for manifest_id, outcome in outcomes.items()
        if outcome.status == "error" and isinstance(outcome.error, ProviderUnavailable)
    ]
    if not unavailable or retries >= max_retries:
        return None
    asked = [outcomes[manifest_id].error.retry_after or 0 for manifest_id in unavailable]
    backoff = min(settings.MANIFEST_PROVIDER_MAX_WAIT * 2**retries, 3600)
    return unavailable, max([backoff, *asked])


@app.task(
    **DURABLE,
    max_retries=5,
    soft_time_limit=settings.FETCH_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.FETCH_TASK_TIME_LIMIT,
)
def fetch_manifests_task(self: Any, manifest_ids: list[str], refresh: bool = False) -> dict[str, str]:
    """Make sure these manifests are in the store; returns each id's outcome status.

    Ids the provider could not answer for now (down, rate limited) are tried again later,
    honouring its Retry-After; the others are done. Safe to repeat: stored manifests are reused.
    """
    if (
        not isinstance(manifest_ids, list)
        or not manifest_ids
        or not all(isinstance(manifest_id, str) and manifest_id for manifest_id in manifest_ids)
    ):
        raise ValueError(f"manifest_ids must be a non-empty list of non-empty strings, not {manifest_ids!r}")
    if len(manifest_ids) > FETCH_MAX_IDS:
        raise ValueError(f"at most {FETCH_MAX_IDS} manifest ids a task, not {len(manifest_ids)}")
    outcomes = manifests_fetch(manifest_ids=manifest_ids, refresh=refresh)
    retry = fetch_retry(outcomes, retries=self.request.retries, max_retries=self.max_retries)
    # In-process (eager) runs do not retry: a retry there would replay at once, inside the request.
    if retry is not None and not self.request.is_eager:
        ids, countdown = retry
        logger.info("fetch: %d manifest(s) unavailable; trying them again in %ss", len(ids), countdown)
        # Only the ids still wanted; refresh is kept so a forced refetch stays forced.
        raise self.retry(args=[ids], kwargs={"refresh": refresh}, countdown=capped_countdown(countdown))
    return {manifest_id: outcome.status for manifest_id, outcome in outcomes.items()}


def _give_up(run: VerificationRun, now: Any) -> bool:
    """End a run that kept losing its worker as unknown, so an editor can act on it."""
    message = (
        f"the checks were started {run.attempts} times and never finished (each time the worker "
        "died or ran out of time); they are tried again later, or a chief may override"
    )
    undecided = str(CheckStatus.UNKNOWN)
    problem = {"at": "$", "message": message, "code": "run_never_finished", "status": undecided}
    checks = [{"name": "run", "status": undecided, "problems": [problem]}]
    lease = timedelta(seconds=settings.VERIFY_RUN_LEASE_SECONDS)
    # The claim: only a run still running past its lease is ended, never one a worker took back.
    return bool(
        VerificationRun.objects.filter(
            pk=run.pk, status=VerificationRun.Status.RUNNING, started_at=run.started_at, started_at__lt=now - lease
        ).update(status=VerificationRun.Status.UNKNOWN, checks=checks, finished_at=now)
    )


@app.task(
    **BEAT_SWEEP,
    soft_time_limit=settings.SWEEP_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.SWEEP_TASK_TIME_LIMIT,
)
def requeue_pending_runs() -> dict[str, int]:
    """The beat sweep: queue again the work that was lost, so nothing waits forever.

    Runs pending longer than VERIFY_REQUEUE_AFTER_SECONDS (submitted while the broker was
    down, or their message lost) and runs still running past their lease (their worker died)
    are queued again; a run claimed VERIFY_RUN_MAX_ATTEMPTS times is given up as unknown. A
    submitted story whose run finished without its verdict applied gets it applied. A submitted
    story whose checks could not decide (its run ended unknown) is checked again by a new run
    once that run's ``retry_at`` has come.
    """
    now = timezone.now()
    lease = timedelta(seconds=settings.VERIFY_RUN_LEASE_SECONDS)
    waited = timedelta(seconds=settings.VERIFY_REQUEUE_AFTER_SECONDS)
    counts = {"queued": 0, "given_up": 0, "not_queued": 0, "verdicts": 0, "retried": 0}
    stalled = VerificationRun.objects.filter(
        Q(status=VerificationRun.Status.PENDING, queued_at__lt=now - waited)
        | Q(status=VerificationRun.Status.RUNNING, started_at__lt=now - lease)
    ).order_by("queued_at", "pk")[:SWEEP_BATCH]
    for run in stalled:
        if run.status == VerificationRun.Status.RUNNING and run.attempts >= settings.VERIFY_RUN_MAX_ATTEMPTS:
            if _give_up(run, now):
                counts["given_up"] += 1
                logger.error("run %s given up after %s attempts", run.pk, run.attempts)
                story_apply_verdict(run=run)
            continue
        if not enqueue_verification(run.pk):
            # The broker is still down: the rest would fail the same way; the next sweep tries.
            counts["not_queued"] += 1
            break
        # Queued again now: the next sweep waits VERIFY_REQUEUE_AFTER_SECONDS before another copy.
        VerificationRun.objects.filter(pk=run.pk, status=VerificationRun.Status.PENDING).update(queued_at=now)
        counts["queued"] += 1
    # A verdict recorded by a worker that died before applying it (or whose message was lost).
    for story in Story.objects.filter(status=Story.Status.SUBMITTED, updated_at__lt=now - waited)[:SWEEP_BATCH]:
        run = VerificationRun.objects.latest_for(story)
        if run is not None and run.is_finished:
            before = story.status
            if story_apply_verdict(run=run).status != before:
                counts["verdicts"] += 1
    # Runs that could not decide: their story waits, submitted, for a run that can. A new
    # pending run the broker cannot take now is queued by a later sweep, like any pending run.
    for run in VerificationRun.objects.retry_due(now).select_related("story")[:SWEEP_BATCH]:
        retry = verification_run_retry(run=run)
        if retry is None or retry.is_finished:
            continue
        counts["retried"] += 1
        if not enqueue_verification(retry.pk):
            counts["not_queued"] += 1
            break
    if any(counts.values()):
        logger.info("requeue_pending_runs: %s", counts)
    return counts


def enqueue_live_refresh(*, version_ids: list[int], recheck: bool) -> None:
    """Queue the refresh of these live versions after a source they show changed; logged, never
    raised, when the broker cannot take it (``manage.py rerender`` repairs)."""
    if not version_ids:
        return
    try:
        refresh_live_versions_task.apply_async(
            args=[version_ids], kwargs={"recheck": recheck}, retry_policy=PUBLISH_RETRY_POLICY
        )
    except BROKER_ERRORS as error:
        logger.warning("could not queue the refresh of %d live versions: %s", len(version_ids), error)


@app.task(
    **DURABLE,
    max_retries=5,
    soft_time_limit=settings.REFRESH_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.REFRESH_TASK_TIME_LIMIT,
)
def refresh_live_versions_task(self: Any, version_ids: list[int], recheck: bool = False) -> dict[str, int]:
    """Render these live versions again (a manifest, claim, newsroom or beat they show changed)
    and, when a claim may have changed, run their checks again. Safe to repeat: rendering the
    same sources gives the same artifacts, and a recheck records one more run."""
    counts = {"rerendered": 0, "flagged": 0}
    for version in PublishedVersion.objects.filter(pk__in=version_ids):
        counts["rerendered"] += version_rerender(version=version)
        if recheck and version.withdrawn_at is None:
            counts["flagged"] += bool(live_version_recheck(version=version))
    return counts


@app.task(
    **BEAT_SWEEP,
    soft_time_limit=settings.SCHEDULE_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.SCHEDULE_TASK_TIME_LIMIT,
)
def publish_scheduled_task() -> dict[str, int]:
    """The beat task: publish, through the gate, the stories whose scheduled time has come.
    Safe to run twice: each story is claimed by clearing its time, which only one run wins."""
    outcomes = publish_due_stories()
    published = sum(outcome.published for outcome in outcomes)
    return {"published": published, "refused_or_unchanged": len(outcomes) - published}
