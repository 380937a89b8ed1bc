"""Verification runs: recorded, idempotent by content, claimed atomically, stale after an edit."""

from __future__ import annotations

import datetime as dt
import re
import threading

import pytest
from django.db import connection
from django.utils import timezone

from stories.models import PublishedVersion, Story
from tests.factories import StoryFactory
from verification.checks import CHECKS, _Findings
from verification.gate import PublishRefused, story_publish
from verification.models import VerificationRun
from verification.services import story_verify, verification_run_execute, verification_run_request
from verification.workflow import story_submit

from .conftest import make_manifest, story_document

pytestmark = pytest.mark.django_db

M1 = "m-rockets"
CLAIM = "Acme launched 12 rockets in October from its coastal site."


@pytest.fixture
def story(import_story):
    make_manifest(M1, {"c1": CLAIM})
    return import_story(
        story_document(paragraphs=[("Acme launched 12 rockets in October from its coastal site.", [(M1, ["c1"])])])
    )


@pytest.fixture
def undecided_story(import_story, settings):
    settings.MANIFEST_PROVIDER_URL = ""  # the manifest is not in the store and cannot be fetched
    return import_story(story_document(paragraphs=[("Acme launched 12 rockets.", [("m-nowhere", ["c1"])])]))


def edit(import_story, text):
    return import_story(story_document(paragraphs=[(text, [(M1, ["c1"])])]))


def test_story_verify_runs_every_check_and_records_the_run(story, django_user_model):
    editor = django_user_model.objects.create_user("editor")

    run = story_verify(story=story, started_by="editor in admin", user=editor)

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PASSED
    assert run.content_hash == story.content_hash != ""
    assert [check["name"] for check in run.checks] == [name for name, _ in CHECKS]
    for check in run.checks:
        assert set(check) >= {"name", "status", "problems", "duration_ms"}
        assert check["duration_ms"] >= 0
    assert (run.started_by, run.started_by_user) == ("editor in admin", editor)
    assert run.queued_at <= run.started_at <= run.finished_at
    assert run.attempts == 1
    assert VerificationRun.objects.current_for(story) == run


def test_a_decided_run_is_returned_again_without_running_the_checks(story, django_assert_max_num_queries):
    first = story_verify(story=story, started_by="test")

    with django_assert_max_num_queries(3):
        again = story_verify(story=story, started_by="test again")

    assert again.pk == first.pk
    assert VerificationRun.objects.count() == 1


def test_force_runs_the_checks_again(story):
    first = story_verify(story=story, started_by="test")

    again = story_verify(story=story, started_by="test", force=True)

    assert again.pk != first.pk
    assert again.status == VerificationRun.Status.PASSED


def test_an_unknown_result_is_run_again(undecided_story):
    first = story_verify(story=undecided_story, started_by="test")
    assert first.status == VerificationRun.Status.UNKNOWN

    again = story_verify(story=undecided_story, started_by="test")

    assert again.pk != first.pk
    assert VerificationRun.objects.filter(story=undecided_story).count() == 2


def test_a_failing_check_fails_the_run(import_story):
    make_manifest(M1, {"c1": CLAIM})
    story = import_story(story_document(paragraphs=[("Acme launched 13 rockets in October.", [(M1, ["c1"])])]))

    run = story_verify(story=story, started_by="test")

    assert run.status == VerificationRun.Status.FAILED
    assert run.check_result("paragraphs_supported")["problems"] == [
        {
            "at": "sections[0].paragraphs[0]",
            "message": "'13' is in none of the cited claims (they give 12)",
            "code": "figure_mismatch",
            "status": "fail",
        }
    ]


def test_editing_a_story_makes_its_last_result_stale(story, import_story):
    run = story_verify(story=story, started_by="test")

    edited = edit(import_story, "Acme launched 12 rockets from its coastal site in October.")

    run.refresh_from_db()
    assert edited.content_hash != run.content_hash
    assert run.is_stale
    assert VerificationRun.objects.current_for(edited) is None
    assert VerificationRun.objects.latest_for(edited) == run
    assert story_verify(story=edited, started_by="test").pk != run.pk


def test_a_run_of_content_edited_after_it_was_queued_ends_unknown_without_checking(story, import_story):
    run = verification_run_request(story=story, started_by="submission")
    edit(import_story, "Acme launched 12 rockets from its coastal site in October.")

    run = verification_run_execute(run_id=run.pk)

    assert run.status == VerificationRun.Status.UNKNOWN
    assert run.checks[0]["problems"] == [
        {
            "at": "$",
            "message": "the story was edited after this run was queued; a newer run checks it",
            "code": "edited_since_queued",
            "status": "unknown",
        }
    ]


def test_requests_for_the_same_content_share_one_pending_run(story):
    first = verification_run_request(story=story, started_by="api")
    second = verification_run_request(story=story, started_by="admin")

    assert first.pk == second.pk
    assert first.status == VerificationRun.Status.PENDING


def test_executing_a_finished_run_again_does_nothing(story):
    run = verification_run_request(story=story, started_by="task")
    finished = verification_run_execute(run_id=run.pk)

    again = verification_run_execute(run_id=run.pk)

    assert again.status == finished.status == VerificationRun.Status.PASSED
    assert (again.attempts, again.finished_at) == (1, finished.finished_at)


def test_a_run_another_worker_holds_is_left_alone(story):
    run = verification_run_request(story=story, started_by="task")
    VerificationRun.objects.filter(pk=run.pk).update(status="running", started_at=timezone.now(), attempts=1)

    returned = verification_run_execute(run_id=run.pk)

    assert returned.status == VerificationRun.Status.RUNNING
    assert returned.attempts == 1
    assert returned.checks == []


def test_a_run_whose_worker_died_is_taken_over_after_the_lease(story, settings):
    run = verification_run_request(story=story, started_by="task")
    gone = timezone.now() - dt.timedelta(seconds=settings.VERIFY_RUN_LEASE_SECONDS + 1)
    VerificationRun.objects.filter(pk=run.pk).update(status="running", started_at=gone, attempts=1)

    returned = verification_run_execute(run_id=run.pk)

    assert returned.status == VerificationRun.Status.PASSED
    assert returned.attempts == 2


def test_a_check_that_crashes_is_recorded_as_unknown_and_the_others_still_run(story, monkeypatch):
    def broken(story):
        raise RuntimeError("boom")

    monkeypatch.setattr("verification.services.CHECKS", (("manifests_exist", broken), *CHECKS[1:]))

    run = story_verify(story=story, started_by="test")

    assert run.status == VerificationRun.Status.UNKNOWN
    assert run.checks[0]["problems"] == [
        {
            "at": "$",
            "message": "the check could not run: RuntimeError: boom",
            "code": "check_crashed",
            "status": "unknown",
        }
    ]
    assert [check["status"] for check in run.checks[1:]] == ["pass"] * 4


def test_a_run_needs_to_say_who_started_it(story):
    with pytest.raises(ValueError, match="started_by"):
        verification_run_request(story=story, started_by=" ")


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["pass", "pass"], "passed"),
        (["pass", "unknown"], "unknown"),
        (["unknown", "fail"], "failed"),
        (["pass", "review"], "review"),
        (["review", "unknown"], "unknown"),
        (["fail", "review"], "failed"),
        ([], "unknown"),
    ],
)
def test_the_run_status_follows_its_checks(statuses, expected):
    assert VerificationRun.status_for(statuses) == expected


def test_the_override_fields_let_a_run_allow_publication():
    run = VerificationRun(status=VerificationRun.Status.FAILED, story=StoryFactory.build())
    assert not run.allows_publication
    run.override_reason, run.overridden_at = "Checked by phone with the source.", timezone.now()
    assert run.allows_publication


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_for_one_run_perform_it_once(require_postgres):
    make_manifest(M1, {"c1": CLAIM})
    story = StoryFactory(content_hash="h1")
    run = VerificationRun.objects.create(story=story, content_hash="h1", started_by="task")
    start = threading.Barrier(4)
    results = []

    def worker():
        start.wait()
        try:
            results.append(verification_run_execute(run_id=run.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    run.refresh_from_db()
    assert run.attempts == 1
    assert run.is_finished
    assert len(results) == 4
    assert Story.objects.count() == 1


def test_a_check_lists_its_problems_worst_first_and_takes_the_worst_status():
    findings = _Findings("paragraphs_supported")
    findings.review("sections[0].paragraphs[0]", "cannot vouch for it", code="new_predicate")
    findings.fail("sections[0].paragraphs[1]", "says 13", code="figure_not_in_claims")
    findings.unknown("sections[0].paragraphs[2]", "text not stored", code="claim_texts_not_stored")

    result = findings.result()

    assert result.status == "fail"
    assert [(problem.status, problem.code) for problem in result.problems] == [
        ("fail", "figure_not_in_claims"),
        ("unknown", "claim_texts_not_stored"),
        ("review", "new_predicate"),
    ]


def test_a_run_left_for_review_leaves_its_story_for_the_desk_and_never_publishes_it(
    import_story, monkeypatch, django_capture_on_commit_callbacks
):
    make_manifest(M1, {"c1": CLAIM}, published=timezone.now().date().isoformat())
    story = import_story(story_document(paragraphs=[(CLAIM, [(M1, ["c1"])])]), as_draft=True)

    def for_review(story):
        findings = _Findings("paragraphs_supported")
        findings.review("sections[0].paragraphs[0]", "the rules cannot vouch for it", code="new_predicate")
        return findings.result()

    monkeypatch.setattr("verification.services.CHECKS", (*CHECKS[:4], ("paragraphs_supported", for_review)))
    story.newsroom.auto_publish = True
    story.newsroom.save()

    with django_capture_on_commit_callbacks(execute=True):
        run = story_submit(story=story, actor="test")
    run.refresh_from_db()

    assert run.status == VerificationRun.Status.REVIEW
    assert run.checks[-1]["problems"] == [
        {
            "at": "sections[0].paragraphs[0]",
            "message": "the rules cannot vouch for it",
            "code": "new_predicate",
            "status": "review",
        }
    ]
    story.refresh_from_db()
    assert story.status == Story.Status.REVIEW
    assert not PublishedVersion.objects.filter(pk=story.pk).exists()
    with pytest.raises(PublishRefused, match=re.escape("paragraphs_supported (review): Section 1, paragraph 1")):
        story_publish(story=story, actor="test")
