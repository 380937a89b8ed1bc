"""The Celery tasks: idempotent verify, the sweep that loses nothing, fetch with declared retries."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from manifests.models import Manifest
from manifests.services import manifests_fetch
from stories.models import Revision, Story
from tests.provider_server import Reply, manifest_payload
from tests.workflow.conftest import UNREACHABLE_BROKER, own_redis_broker
from verification.models import VerificationRun
from verification.services import verification_run_execute, verification_run_request
from verification.tasks import (
    capped_countdown,
    enqueue_verification,
    fetch_manifests_task,
    fetch_retry,
    requeue_pending_runs,
    verify_story_task,
)
from verification.workflow import story_submit


def long_ago(**kwargs: int):
    return timezone.now() - timedelta(**kwargs)


# --- Submission while the broker is down ----------------------------------------------------


def test_a_submission_while_the_broker_is_down_is_saved_pending_and_the_sweep_queues_it_later(
    stories, switch_broker, django_capture_on_commit_callbacks, caplog, settings
):
    story = stories.good()
    switch_broker(UNREACHABLE_BROKER, eager=False)

    with (
        caplog.at_level(logging.WARNING, logger="verification.tasks"),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        run = story_submit(story=story, actor="writer-agent")

    # The queuing ran after commit, failed, and raised nothing.
    assert any(getattr(callback, "func", None) is enqueue_verification for callback in callbacks)
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PENDING
    assert Story.objects.get(pk=story.pk).status == Story.Status.SUBMITTED
    assert f"run {run.pk} is saved pending but could not be queued" in caplog.text

    # The broker is still down: the sweep tries, keeps the run pending, and says so.
    settings.VERIFY_REQUEUE_AFTER_SECONDS = 0
    assert requeue_pending_runs() == {"queued": 0, "given_up": 0, "not_queued": 1, "verdicts": 0, "retried": 0}
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PENDING

    # The broker is back (here: tasks run in-process): the sweep queues it and it is checked.
    switch_broker("memory://", eager=True)
    assert requeue_pending_runs()["queued"] == 1
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PASSED
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_the_sweep_leaves_a_recently_queued_run_alone(stories, eager, settings):
    settings.VERIFY_REQUEUE_AFTER_SECONDS = 120
    run = verification_run_request(story=stories.good(), started_by="test")

    assert requeue_pending_runs()["queued"] == 0

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PENDING


@pytest.fixture
def test_redis(require_redis, switch_broker):
    """A Redis database of this test's own (not the suite's), emptied before and after."""
    yield from own_redis_broker(require_redis, switch_broker, 14)


def test_the_sweep_puts_the_pending_run_on_the_verification_queue_of_a_real_redis(
    stories, test_redis, settings, django_capture_on_commit_callbacks
):
    settings.VERIFY_REQUEUE_AFTER_SECONDS = 0
    run = verification_run_request(story=stories.good(), started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(queued_at=long_ago(minutes=5))

    assert requeue_pending_runs()["queued"] == 1

    messages = [json.loads(raw) for raw in test_redis.lrange("verification", 0, -1)]
    assert [message["headers"]["task"] for message in messages] == ["verification.tasks.verify_story_task"]
    assert messages[0]["headers"]["argsrepr"] == f"[{run.pk}]"
    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PENDING
    assert run.queued_at > long_ago(minutes=1)  # queued again now, so the next sweep waits


# --- verify_story_task: idempotent, and a run is never done by two workers ------------------


def test_verifying_twice_performs_the_run_once(stories, eager, django_capture_on_commit_callbacks):
    story = stories.good()
    run = verification_run_request(story=story, started_by="test")
    Story.objects.filter(pk=story.pk).update(status=Story.Status.SUBMITTED)

    assert verify_story_task.apply(args=[run.pk]).get() == "passed"
    finished = VerificationRun.objects.get(pk=run.pk)
    assert verify_story_task.apply(args=[run.pk]).get() == "passed"

    again = VerificationRun.objects.get(pk=run.pk)
    assert again.attempts == 1
    assert again.finished_at == finished.finished_at
    assert VerificationRun.objects.filter(story=story).count() == 1
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_a_redelivered_task_of_an_auto_published_story_publishes_it_once(
    stories, auto_publish, eager, django_capture_on_commit_callbacks
):
    story = stories.good()
    with django_capture_on_commit_callbacks(execute=True):
        run = story_submit(story=story, actor="writer-agent")
    assert Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED

    with django_capture_on_commit_callbacks(execute=True):
        verify_story_task.apply(args=[run.pk])

    assert Revision.objects.filter(story=story, note__startswith="published").count() == 1
    assert Revision.objects.filter(story=story).first().actor == "auto-publish"


def test_a_run_held_by_a_live_worker_is_left_to_it(stories, eager):
    run = verification_run_request(story=stories.good(), started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(
        status=VerificationRun.Status.RUNNING, started_at=timezone.now(), attempts=1
    )

    assert verify_story_task.apply(args=[run.pk]).get() == "running"

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.RUNNING
    assert run.attempts == 1


def test_a_run_whose_worker_died_is_taken_over_once_its_lease_ran_out(stories, eager, settings):
    run = verification_run_request(story=stories.good(), started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(
        status=VerificationRun.Status.RUNNING,
        started_at=long_ago(seconds=settings.VERIFY_RUN_LEASE_SECONDS + 1),
        attempts=1,
    )

    assert verify_story_task.apply(args=[run.pk]).get() == "passed"

    run.refresh_from_db()
    assert run.attempts == 2


def test_a_task_for_a_deleted_run_does_nothing(eager, db):
    assert verify_story_task.apply(args=[987654]).get() == "missing"


# --- The sweep -------------------------------------------------------------------------------


def test_the_sweep_requeues_a_run_running_past_its_lease(stories, eager, settings):
    story = stories.good()
    Story.objects.filter(pk=story.pk).update(status=Story.Status.SUBMITTED)
    run = verification_run_request(story=story, started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(
        status=VerificationRun.Status.RUNNING,
        started_at=long_ago(seconds=settings.VERIFY_RUN_LEASE_SECONDS + 5),
        attempts=1,
    )

    assert requeue_pending_runs()["queued"] == 1

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PASSED
    assert run.attempts == 2
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_the_sweep_gives_up_a_run_that_keeps_losing_its_worker(stories, eager, settings):
    story = stories.good()
    Story.objects.filter(pk=story.pk).update(status=Story.Status.SUBMITTED)
    run = verification_run_request(story=story, started_by="test")
    VerificationRun.objects.filter(pk=run.pk).update(
        status=VerificationRun.Status.RUNNING,
        started_at=long_ago(seconds=settings.VERIFY_RUN_LEASE_SECONDS + 5),
        attempts=settings.VERIFY_RUN_MAX_ATTEMPTS,
    )

    assert requeue_pending_runs()["given_up"] == 1

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.UNKNOWN
    assert "started 3 times and never finished" in run.checks[0]["problems"][0]["message"]
    # Could not decide is no verdict: the story waits, submitted, for the checks to be tried again.
    assert Story.objects.get(pk=story.pk).status == Story.Status.SUBMITTED
    assert run.retry_at is not None


def test_the_sweep_applies_a_verdict_its_worker_died_before_applying(stories, eager, settings):
    story = stories.good()
    run = verification_run_request(story=story, started_by="test")
    verification_run_execute(run_id=run.pk)  # the verdict is recorded; the worker dies here
    Story.objects.filter(pk=story.pk).update(status=Story.Status.SUBMITTED, updated_at=long_ago(hours=1))

    assert requeue_pending_runs()["verdicts"] == 1

    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED


def test_a_story_edited_after_submission_goes_back_to_draft(stories, eager, django_capture_on_commit_callbacks):
    from stories.models import KeyFact
    from stories.services import story_record_change

    story = stories.good()
    with django_capture_on_commit_callbacks(execute=False):
        run = story_submit(story=story, actor="writer-agent")
    fact = KeyFact.objects.get(story=story)
    fact.text = "Something else entirely."
    fact.save()
    story_record_change(story=story, actor="editor", note="edited")

    verify_story_task.apply(args=[run.pk])

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.UNKNOWN  # its content no longer exists
    assert Story.objects.get(pk=story.pk).status == Story.Status.DRAFT


# --- fetch_manifests_task --------------------------------------------------------------------


def test_fetch_stores_the_manifests(provider, eager, db):
    provider.add_manifest(manifest_payload("m-1"))

    assert fetch_manifests_task.apply(args=[["m-1", "m-404"]]).get() == {"m-1": "fetched", "m-404": "missing"}

    assert Manifest.objects.get(manifest_id="m-1").claims.count() == 2


def test_fetch_retries_only_what_the_provider_could_not_answer_and_honours_retry_after(provider, settings, db):
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 0
    settings.MANIFEST_PROVIDER_MAX_WAIT = 30
    for manifest_id in ("m-ok", "m-busy", "m-down"):
        provider.add_manifest(manifest_payload(manifest_id))
    provider.script("m-busy", [Reply(status=429, headers={"Retry-After": "90"})])
    provider.script("m-down", [503])
    outcomes = manifests_fetch(manifest_ids=["m-ok", "m-busy", "m-down", "m-gone"])

    assert fetch_retry(outcomes, retries=0, max_retries=5) == (["m-busy", "m-down"], 90)
    assert fetch_retry(outcomes, retries=2, max_retries=5) == (["m-busy", "m-down"], 120)  # backoff doubles
    assert fetch_retry(outcomes, retries=5, max_retries=5) is None


def test_fetch_does_not_retry_a_rejected_key(provider, settings, db):
    settings.MANIFEST_PROVIDER_KEY = "wrong"

    assert fetch_retry(manifests_fetch(manifest_ids=["m-1"]), retries=0, max_retries=5) is None


def test_fetch_in_process_reports_an_unavailable_provider_without_retrying(provider, eager, settings, db):
    settings.MANIFEST_PROVIDER_MAX_RETRIES = 0
    provider.always(503)

    assert fetch_manifests_task.apply(args=[["m-1"]]).get() == {"m-1": "error"}

    assert len(provider.requests_for("m-1")) == 1


@pytest.mark.parametrize("ids", [[], "m-1", [1, 2], [""], None])
def test_fetch_refuses_bad_ids(ids, eager, db):
    with pytest.raises(ValueError, match="non-empty list of non-empty strings"):
        fetch_manifests_task.apply(args=[ids]).get()


def test_a_retry_never_waits_longer_than_half_the_visibility_timeout():
    from newsroom.celery import app

    visibility = app.conf.broker_transport_options["visibility_timeout"]

    assert capped_countdown(86_400) == visibility / 2
    assert capped_countdown(5) == 5
