"""Checks that could not decide: a run that ends ``unknown`` is no verdict on the story. It stays
submitted, the beat sweep runs its checks again later (the wait doubling), and the desk says
that the checks could not decide, why, and when they run again."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from stories.desk import format_utc
from stories.models import PublishedVersion, Story
from tests.workflow.conftest import UNREACHABLE_BROKER
from verification.gate import story_apply_verdict
from verification.models import VerificationRun
from verification.services import RETRY_STARTED_BY, verification_run_request
from verification.tasks import requeue_pending_runs
from verification.workflow import story_submit

REASON = "manifest m-1 is not in the store and the provider could not be asked: it answered 503"


def undecided_run(story: Story, *, ended: timedelta = timedelta(0)) -> VerificationRun:
    """The story submitted, and its run for the current content ended unknown ``ended`` ago, as a
    worker records it when the provider is down."""
    Story.objects.filter(pk=story.pk).update(status=Story.Status.SUBMITTED)
    run = verification_run_request(story=story, started_by="test")
    checks = [
        {"name": "manifests_exist", "status": "unknown", "problems": [{"at": "key_facts[0]", "message": REASON}]},
        {"name": "claims_belong", "status": "pass", "problems": []},
    ]
    finished = timezone.now() - ended
    VerificationRun.objects.filter(pk=run.pk).update(
        status=VerificationRun.Status.UNKNOWN, checks=checks, started_at=finished, finished_at=finished, attempts=1
    )
    return VerificationRun.objects.get(pk=run.pk)


def status_of(story: Story) -> str:
    return Story.objects.get(pk=story.pk).status


# --- The verdict -------------------------------------------------------------------------------


def test_a_run_that_could_not_decide_leaves_the_story_submitted_with_a_time_to_try_again(
    stories, auto_publish, settings
):
    settings.VERIFY_UNKNOWN_RETRY_SECONDS = 300
    story = stories.good()
    run = undecided_run(story)

    assert story_apply_verdict(run=run).status == Story.Status.SUBMITTED

    run.refresh_from_db()
    assert status_of(story) == Story.Status.SUBMITTED
    assert run.retry_at == run.finished_at + timedelta(seconds=300)
    # Its newsroom publishes automatically, but only on a pass.
    assert not PublishedVersion.objects.filter(pk=story.pk).exists()


def test_applying_the_verdict_again_does_not_push_the_retry_away(stories, settings):
    story = stories.good()
    run = undecided_run(story)
    story_apply_verdict(run=run)
    first = VerificationRun.objects.get(pk=run.pk).retry_at

    story_apply_verdict(run=run)

    assert VerificationRun.objects.get(pk=run.pk).retry_at == first


def test_the_wait_doubles_with_each_run_of_the_same_content_that_could_not_decide_up_to_a_cap(stories, settings):
    settings.VERIFY_UNKNOWN_RETRY_SECONDS = 300
    settings.VERIFY_UNKNOWN_RETRY_MAX_SECONDS = 1000
    story = stories.good()
    waits = []
    for _ in range(4):
        run = undecided_run(story)
        story_apply_verdict(run=run)
        run.refresh_from_db()
        waits.append((run.retry_at - run.finished_at).total_seconds())

    assert waits == [300, 600, 1000, 1000]


def test_a_run_that_failed_still_fails_the_story(stories, eager, django_capture_on_commit_callbacks):
    story = stories.bad()
    with django_capture_on_commit_callbacks(execute=True):
        run = story_submit(story=story, actor="writer-agent")

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.FAILED
    assert run.retry_at is None
    assert status_of(story) == Story.Status.FAILED


# --- The sweep asks again --------------------------------------------------------------------


def test_the_sweep_checks_an_undecided_story_again_once_its_time_has_come(stories, auto_publish, eager):
    story = stories.good()
    run = undecided_run(story)
    story_apply_verdict(run=run)

    assert requeue_pending_runs()["retried"] == 0  # not yet
    VerificationRun.objects.filter(pk=run.pk).update(retry_at=timezone.now() - timedelta(seconds=1))

    assert requeue_pending_runs()["retried"] == 1

    retry = VerificationRun.objects.latest_for(story)
    assert retry.pk != run.pk
    assert retry.started_by == RETRY_STARTED_BY
    assert retry.status == VerificationRun.Status.PASSED
    assert status_of(story) == Story.Status.PUBLISHED  # the newsroom publishes on a pass
    assert VerificationRun.objects.get(pk=run.pk).retry_at is None
    # Asked once: the next sweep finds nothing to retry.
    assert requeue_pending_runs()["retried"] == 0
    assert VerificationRun.objects.filter(story=story).count() == 2


def test_the_sweep_leaves_alone_an_undecided_run_whose_story_moved_on(stories, eager, settings):
    overdue = timezone.now() - timedelta(seconds=1)
    edited, resubmitted = stories.good(), stories.good()
    for story in (edited, resubmitted):
        story_apply_verdict(run=undecided_run(story))
    VerificationRun.objects.update(retry_at=overdue)
    # One was edited (back to draft, a new hash); the other was submitted again by an editor,
    # whose own run now decides it.
    Story.objects.filter(pk=edited.pk).update(status=Story.Status.DRAFT, content_hash="0" * 64)
    newer = verification_run_request(story=resubmitted, started_by="editor")

    assert requeue_pending_runs()["retried"] == 0

    assert VerificationRun.objects.filter(story=edited).count() == 1
    assert VerificationRun.objects.filter(story=resubmitted).count() == 2
    assert VerificationRun.objects.latest_for(resubmitted) == newer


def test_a_retry_the_broker_cannot_take_waits_pending_for_a_later_sweep(stories, switch_broker, settings):
    story = stories.good()
    run = undecided_run(story)
    story_apply_verdict(run=run)
    VerificationRun.objects.filter(pk=run.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
    switch_broker(UNREACHABLE_BROKER, eager=False)

    counts = requeue_pending_runs()

    assert counts["retried"] == 1
    assert counts["not_queued"] == 1
    retry = VerificationRun.objects.latest_for(story)
    assert retry.status == VerificationRun.Status.PENDING
    # The broker is back: the pending-run part of the sweep queues it, as any pending run.
    settings.VERIFY_REQUEUE_AFTER_SECONDS = 0
    switch_broker("memory://", eager=True)
    assert requeue_pending_runs()["queued"] == 1
    assert VerificationRun.objects.get(pk=retry.pk).status == VerificationRun.Status.PASSED
    assert status_of(story) == Story.Status.VERIFIED


def test_import_says_the_checks_could_not_decide_and_leaves_the_story_submitted(
    transactional_db, stories, eager, tmp_path
):
    document = stories.document(number=9_700, manifest_id="m-nowhere", claim_ids=["c-1"], text="A fact.")
    document["published_at"] = format_utc(timezone.now())
    path = tmp_path / "story.json"
    path.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()

    call_command("import_desk", str(path), stdout=out, stderr=err)  # no provider: nothing can decide

    assert f"story {document['id']}: imported, not published yet: the checks could not decide (" in err.getvalue()
    assert "m-nowhere" in err.getvalue()
    assert "it stays submitted and they run again by themselves" in err.getvalue()
    assert f"{document['id']}\tworkflow-story-9700\tcreated\tsubmitted" in out.getvalue()


# --- What the desk shows -----------------------------------------------------------------------


def change_page(client, story: Story) -> str:
    return client.get(reverse("admin:stories_story_change", args=[story.pk])).content.decode()


@pytest.mark.usefixtures("eager")
def test_the_story_page_says_the_checks_could_not_decide_why_and_when_they_run_again(client, stories, editor):
    story = stories.good()
    run = undecided_run(story)
    story_apply_verdict(run=run)
    client.force_login(editor)

    html = change_page(client, story)

    assert "The checks could not decide" in html
    assert "they run again by themselves at" in html
    assert REASON in html
    # On the line of the key fact it concerns, too; and beside that key fact as rows.
    assert f"Line 1, key fact 1: {REASON}" in html
    rows = client.get(reverse("admin:stories_story_change", args=[story.pk]), {"mode": "rows"}).content.decode()
    assert f"Key fact 1: {REASON}" in rows


@pytest.mark.usefixtures("eager")
def test_a_story_no_longer_waiting_on_its_checks_is_told_to_submit_again(client, stories, editor):
    story = stories.good()
    undecided_run(story)  # e.g. manage.py verify_story: a run, but no submission waiting on it
    Story.objects.filter(pk=story.pk).update(status=Story.Status.DRAFT)
    client.force_login(editor)

    html = change_page(client, story)

    assert "The checks could not decide" in html
    assert "submit the story to check it again" in html
    assert "they run again by themselves" not in html


@pytest.mark.usefixtures("eager")
def test_while_the_checks_run_again_the_page_keeps_the_reason_the_last_run_gave(client, stories, editor):
    story = stories.good()
    run = undecided_run(story)
    story_apply_verdict(run=run)
    VerificationRun.objects.filter(pk=run.pk).update(retry_at=None)
    verification_run_request(story=story, started_by=RETRY_STARTED_BY)  # pending: the broker has it
    client.force_login(editor)

    html = change_page(client, story)

    assert "Checking again" in html
    assert f"run {run.pk}</a> could not decide" in html
    assert REASON in html
    assert f"Key fact 1: {REASON}" in html


@pytest.mark.usefixtures("eager")
def test_the_desk_index_lists_stories_whose_checks_could_not_decide(client, stories, editor):
    undecided, failed = stories.good(), stories.bad()
    story_apply_verdict(run=undecided_run(undecided))
    Story.objects.filter(pk=failed.pk).update(status=Story.Status.FAILED)
    client.force_login(editor)

    html = client.get(reverse("admin:index")).content.decode()

    tile = html.split("Checks could not decide", 1)[1].split("desk-tile", 1)[0]
    assert undecided.headline in tile
    assert failed.headline not in tile
