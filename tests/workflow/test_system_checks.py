"""The task-settings system checks: a task must never be handed to two workers at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.checks import run_checks

from newsroom.celery import app as celery_app
from verification.tasks import fetch_manifests_task, verify_story_task


def error_ids() -> list[str]:
    return [message.id for message in run_checks(tags=["celery"]) if message.id.startswith("verification.")]


@pytest.fixture
def transport_options() -> Iterator[dict]:
    saved = celery_app.conf.broker_transport_options
    celery_app.conf.broker_transport_options = dict(saved)
    yield celery_app.conf.broker_transport_options
    celery_app.conf.broker_transport_options = saved


@pytest.fixture
def restore_limits() -> Iterator[None]:
    saved = [(task, task.time_limit, task.soft_time_limit) for task in (verify_story_task, fetch_manifests_task)]
    yield
    for task, hard, soft in saved:
        task.time_limit, task.soft_time_limit = hard, soft


def test_the_project_settings_pass():
    assert error_ids() == []


def test_a_visibility_timeout_not_longer_than_the_longest_task_is_an_error(transport_options):
    transport_options["visibility_timeout"] = verify_story_task.time_limit

    messages = [message for message in run_checks(tags=["celery"]) if message.id == "verification.E001"]

    assert len(messages) == 1
    assert f"({verify_story_task.time_limit}s)" in messages[0].msg
    assert "verification.tasks.verify_story_task" in messages[0].msg


def test_redis_default_visibility_timeout_is_used_when_the_setting_leaves_it_out(transport_options, restore_limits):
    transport_options.pop("visibility_timeout")
    verify_story_task.time_limit = 3600
    verify_story_task.soft_time_limit = 3500

    assert "verification.E001" in error_ids()


def test_a_run_lease_not_longer_than_the_verify_task_is_an_error(settings):
    settings.VERIFY_RUN_LEASE_SECONDS = verify_story_task.time_limit - 1

    assert error_ids() == ["verification.E002"]


def test_a_task_without_a_hard_time_limit_is_an_error(restore_limits):
    fetch_manifests_task.time_limit = None

    assert error_ids() == ["verification.E003"]


def test_a_soft_limit_not_below_the_hard_one_is_an_error(restore_limits):
    fetch_manifests_task.soft_time_limit = fetch_manifests_task.time_limit

    assert error_ids() == ["verification.E003"]
