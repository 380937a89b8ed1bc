"""The embedded scheduler: without celery beat (make run), a thread of the serving process runs
beat's task, so a scheduled story is published at its time. The real thread, the real task, the
real clock; committed data, since the thread reads on its own connection."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import OperationalError
from django.urls import reverse
from django.utils import timezone

from stories.models import Story
from stories.services import story_schedule
from verification import embedded_scheduler
from verification.embedded_scheduler import EmbeddedScheduler, serving_process, start_embedded_scheduler
from verification.workflow import story_submit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager")]


def wait_for(condition, *, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except OperationalError:
            # The test database is SQLite in memory, shared between threads: a read while the
            # scheduler's transaction writes finds the table locked, rather than waiting.
            pass
        time.sleep(0.1)
    return False


def test_the_thread_publishes_a_scheduled_story_once_its_time_has_come(stories, chief):
    story = stories.good()
    story_submit(story=story, actor="writer-agent")  # eager: checked at once, after commit
    assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED
    due = timezone.now() + dt.timedelta(seconds=2)
    story_schedule(story=story, user=chief, publish_at=due)

    scheduler = EmbeddedScheduler(every=0.2).start()
    try:
        assert wait_for(lambda: Story.objects.get(pk=story.pk).status == Story.Status.PUBLISHED)
    finally:
        scheduler.stop()

    assert not scheduler.alive
    story = Story.objects.get(pk=story.pk)
    assert story.published_at >= due
    assert story.publish_at is None
    assert story.live_version.published_by == "schedule:chief"


def test_a_failing_tick_does_not_end_the_thread():
    calls = []

    def task():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database is away")
        return {"published": 0}

    scheduler = EmbeddedScheduler(every=0.05, task=task).start()
    try:
        assert wait_for(lambda: len(calls) >= 3, seconds=5)
        assert scheduler.alive
    finally:
        scheduler.stop()


@pytest.mark.parametrize(
    ("argv", "environ", "serves"),
    [
        (["manage.py", "runserver", "127.0.0.1:8000"], {"RUN_MAIN": "true"}, True),
        (["manage.py", "runserver"], {}, False),  # the autoreloader's watcher, not the server
        (["manage.py", "runserver", "--noreload"], {}, True),
        (["/srv/newsroom/.venv/bin/gunicorn", "newsroom.wsgi"], {}, True),
        (["manage.py", "load_demo"], {"RUN_MAIN": "true"}, False),
        (["/usr/bin/pytest", "-q"], {}, False),
        (["celery", "-A", "newsroom", "worker"], {}, False),
    ],
)
def test_it_runs_only_in_processes_that_serve_stories(argv, environ, serves):
    assert serving_process(argv, environ) is serves


def test_it_starts_once_and_only_when_enabled(settings, monkeypatch):
    monkeypatch.setattr(embedded_scheduler, "_running", None)
    settings.EMBEDDED_SCHEDULER_SECONDS = 60.0
    settings.EMBEDDED_SCHEDULER = False
    assert start_embedded_scheduler(argv=["gunicorn"]) is None
    settings.EMBEDDED_SCHEDULER = True
    assert start_embedded_scheduler(argv=["pytest"]) is None
    first = start_embedded_scheduler(argv=["gunicorn"])
    try:
        assert first is not None
        assert first.alive
        assert start_embedded_scheduler(argv=["gunicorn"]) is first
    finally:
        first.stop()


def test_the_embedded_default_turns_it_on_and_the_test_run_does_not_start_it(settings):
    assert settings.EMBEDDED_SCHEDULER is settings.CELERY_TASK_ALWAYS_EAGER
    assert embedded_scheduler._running is None  # pytest is no serving process


def test_an_overdue_story_shows_so_in_the_admin_list_with_the_reason(stories, chief, client):
    story = stories.good()
    story_schedule(story=story, user=chief, publish_at=timezone.now() + dt.timedelta(seconds=1))
    Story.objects.filter(pk=story.pk).update(publish_at=timezone.now() - dt.timedelta(minutes=5))
    client.force_login(chief)

    listing = client.get(reverse("admin:stories_story_changelist")).content.decode()

    assert "OVERDUE: due " in listing
    assert "no scheduler has published it yet" in listing


def test_scheduling_a_story_that_is_not_verified_says_it_publishes_only_if_its_checks_pass(stories, chief, client):
    story = stories.good()  # a draft: not checked yet
    client.force_login(chief)
    url = reverse("admin:stories_story_schedule", args=[story.pk])
    when = (timezone.localtime() + dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")

    response = client.post(url, {"publish_at": when}, follow=True)

    page = response.content.decode()
    assert "This story is draft, not verified: it will be published at that time only if its checks" in page
    assert Story.objects.get(pk=story.pk).publish_at is not None
