"""Two requests at once on PostgreSQL: the row lock and the atomic claim let only one through."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from stories.models import Revision, Story
from verification.gate import story_publish
from verification.models import VerificationRun
from verification.services import verification_run_execute
from verification.workflow import story_submit

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("eager")]


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; each thread has its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = calls[index]()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def passed_story(transactional_db, require_postgres, stories) -> Story:
    story = stories.good()
    run = story_submit(story=story, actor="writer-agent")  # no transaction around: hooks run now
    assert VerificationRun.objects.get(pk=run.pk).status == VerificationRun.Status.PASSED
    return story


def test_two_publications_at_once_publish_once(passed_story):
    results = at_once([lambda n=n: story_publish(story=passed_story, actor=f"editor-{n}") for n in range(4)])

    assert sorted(result.published for result in results) == [False, False, False, True]
    assert Revision.objects.filter(story=passed_story, note__startswith="published").count() == 1
    assert Story.objects.get(pk=passed_story.pk).status == Story.Status.PUBLISHED


def test_two_workers_executing_one_run_perform_it_once(transactional_db, require_postgres, stories):
    from verification.services import verification_run_request

    run = verification_run_request(story=stories.good(), started_by="test")

    at_once([lambda: verification_run_execute(run_id=run.pk) for _ in range(4)])

    run.refresh_from_db()
    assert run.status == VerificationRun.Status.PASSED
    assert run.attempts == 1
