"""Scheduled publication: at its time the beat task takes a story through the same gate, with the
role of whoever scheduled it; a refusal is shown on the story, never skipped. Time is frozen."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from newsroom.celery import app as celery_app
from newsroom.models import Membership, Role
from stories.models import Revision, Story
from stories.services import WorkflowError, WorkflowPermissionDenied, story_schedule
from verification.schedule import edition_schedule
from verification.tasks import publish_scheduled_task
from verification.workflow import story_submit

from .conftest import StoryMaker

pytestmark = pytest.mark.usefixtures("eager")

START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def checked(story: Story, capture) -> Story:
    with capture(execute=True):
        story_submit(story=story, actor="writer-agent")
    return Story.objects.get(pk=story.pk)


def beat() -> dict[str, int]:
    """The beat's task, run as a worker runs it (eagerly, in-process)."""
    return publish_scheduled_task.apply().get()


def test_the_task_is_on_the_beat_schedule_with_time_limits():
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == publish_scheduled_task.name)
    assert entry["schedule"] == 60.0
    task = celery_app.tasks[publish_scheduled_task.name]
    assert task.soft_time_limit == settings.SCHEDULE_TASK_SOFT_TIME_LIMIT < task.time_limit


def test_a_scheduled_story_is_published_at_its_time_through_the_gate(
    stories, chief, django_capture_on_commit_callbacks
):
    with time_machine.travel(START, tick=False):
        story = checked(stories.good(), django_capture_on_commit_callbacks)
        assert story.status == Story.Status.VERIFIED
        story_schedule(story=story, user=chief, publish_at=START + dt.timedelta(hours=1))

    with time_machine.travel(START + dt.timedelta(minutes=59), tick=False):
        assert beat() == {"published": 0, "refused_or_unchanged": 0}
        assert Story.objects.get(pk=story.pk).status == Story.Status.VERIFIED

    with time_machine.travel(START + dt.timedelta(hours=1, seconds=30), tick=False):
        assert beat() == {"published": 1, "refused_or_unchanged": 0}
        assert beat() == {"published": 0, "refused_or_unchanged": 0}  # claimed once

    story = Story.objects.get(pk=story.pk)
    assert story.status == Story.Status.PUBLISHED
    assert story.published_at == START + dt.timedelta(hours=1, seconds=30)
    assert story.publish_at is None
    assert story.schedule_problem == ""
    assert story.live_version.published_by == "schedule:chief"
    assert Revision.objects.filter(story=story, actor="schedule:chief", note__startswith="published").count() == 1


def test_a_failed_gate_is_recorded_and_shown_never_skipped(stories, chief, client, django_capture_on_commit_callbacks):
    with time_machine.travel(START, tick=False):
        story = checked(stories.bad(), django_capture_on_commit_callbacks)
        assert story.status == Story.Status.FAILED
        story_schedule(story=story, user=chief, publish_at=START + dt.timedelta(minutes=10))
    with time_machine.travel(START + dt.timedelta(minutes=11), tick=False):
        assert beat() == {"published": 0, "refused_or_unchanged": 1}

    story = Story.objects.get(pk=story.pk)
    assert story.status == Story.Status.FAILED
    assert story.publish_at is None
    assert story.schedule_problem.startswith("Scheduled publication at 2026-12-01T09:10:00Z was refused: ")
    assert "its checks did not pass" in story.schedule_problem
    assert Revision.objects.filter(story=story, note=story.schedule_problem[:300]).count() == 1
    client.force_login(chief)
    listing = client.get(reverse("admin:stories_story_changelist")).content.decode()
    assert "REFUSED: Scheduled publication at 2026-12-01T09:10:00Z was refused" in listing


def test_the_gate_asks_the_role_of_whoever_scheduled_it_at_publication(
    stories, chief, django_capture_on_commit_callbacks
):
    with time_machine.travel(START, tick=False):
        story = checked(stories.good(), django_capture_on_commit_callbacks)
        story_schedule(story=story, user=chief, publish_at=START + dt.timedelta(minutes=5))
        Membership.objects.filter(user=chief).update(role=Role.EDITOR)  # demoted before the time came
    with time_machine.travel(START + dt.timedelta(minutes=6), tick=False):
        beat()

    story = Story.objects.get(pk=story.pk)
    assert story.status == Story.Status.VERIFIED
    assert "needs the chief role" in story.schedule_problem


def test_only_a_chief_schedules_and_only_a_future_time(stories, chief, editor):
    story = stories.good()
    with pytest.raises(WorkflowPermissionDenied, match="chief role"):
        story_schedule(story=story, user=editor, publish_at=timezone.now() + dt.timedelta(hours=1))
    with pytest.raises(WorkflowError, match="must be in the future"):
        story_schedule(story=story, user=chief, publish_at=timezone.now() - dt.timedelta(minutes=1))
    assert Story.objects.get(pk=story.pk).publish_at is None


def test_the_schedule_form_reads_the_time_in_the_editor_s_zone(stories, chief, client):
    story = stories.good()
    client.force_login(chief)
    client.cookies["desk_tz"] = "Europe/Paris"
    url = reverse("admin:stories_story_schedule", args=[story.pk])

    with time_machine.travel(START, tick=False):
        page = client.get(url).content.decode()
        assert "Europe/Paris" in page
        response = client.post(url, {"publish_at": "2026-12-01T12:00"}, follow=True)

    assert "Scheduled for 2026-12-01 12:00 CET (Europe/Paris)." in response.content.decode()
    stored = Story.objects.get(pk=story.pk).publish_at
    assert stored == dt.datetime(2026, 12, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))
    assert stored == dt.datetime(2026, 12, 1, 11, 0, tzinfo=dt.UTC)


def test_an_editor_cannot_open_the_schedule_page(stories, editor, client):
    story = stories.good()
    client.force_login(editor)

    assert client.get(reverse("admin:stories_story_schedule", args=[story.pk])).status_code == 403


def test_an_edition_is_scheduled_for_the_stories_the_chief_may_publish_only(stories, chief):
    mine = stories.good()
    theirs = StoryMaker(newsroom_slug="other-desk").good()
    assert mine.edition_id == theirs.edition_id
    at = timezone.now() + dt.timedelta(hours=2)

    results = edition_schedule(edition_key=mine.edition_id, user=chief, publish_at=at)

    assert [(story.pk, what) for story, what in results] == [(mine.pk, "scheduled")]
    assert Story.objects.get(pk=mine.pk).publish_at == at
    assert Story.objects.get(pk=theirs.pk).publish_at is None


def test_an_editor_picks_a_time_zone_and_a_bad_one_is_refused_in_words(editor, client):
    client.force_login(editor)
    url = reverse("admin:stories_story_time_zone")

    refused = client.post(url, {"zone": "Mars/Olympus_Mons"})
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    assert "desk_tz" not in refused.cookies

    chosen = client.post(url, {"zone": "America/New_York"})
    assert chosen.status_code == 302
    assert chosen.cookies["desk_tz"].value == "America/New_York"
    assert "America/New_York" in client.get(url).content.decode()


def test_a_forged_time_zone_cookie_is_ignored(stories, editor, client):
    story = stories.good()
    client.force_login(editor)
    client.cookies["desk_tz"] = "../../etc/passwd"

    page = client.get(reverse("admin:stories_story_history", args=[story.pk]))

    assert page.status_code == 200
    assert "Times in\n    <strong>UTC</strong>" in page.content.decode()
    assert "passwd" not in page.content.decode()


def test_publishing_by_hand_ends_the_schedule_and_its_old_refusal(stories, chief, django_capture_on_commit_callbacks):
    from verification.gate import story_publish

    story = checked(stories.good(), django_capture_on_commit_callbacks)
    story_schedule(story=story, user=chief, publish_at=timezone.now() + dt.timedelta(hours=3))
    Story.objects.filter(pk=story.pk).update(schedule_problem="Scheduled publication at … was refused: …")

    assert story_publish(story=story, actor="chief", user=chief).published

    story = Story.objects.get(pk=story.pk)
    assert story.publish_at is None
    assert story.schedule_problem == ""
