"""System checks for the task settings: mistakes that would run a task twice at once.

- verification.E001: Redis redelivers a task whose message was not acknowledged within the
  visibility timeout, even while a live worker is still running it (late acks). The timeout
  must be longer than every task's hard time limit.
- verification.E002: a verification run whose worker is silent past VERIFY_RUN_LEASE_SECONDS
  may be taken over; the lease must be longer than the verify task's hard time limit.
- verification.E003: a task without a hard time limit could outlive any timeout; one whose soft
  limit is not below its hard limit never gets the chance to stop cleanly.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.checks import Error, register

# Redis' own default when the setting leaves it out.
DEFAULT_VISIBILITY_TIMEOUT = 3600


def _project_tasks(app: Any) -> list[Any]:
    """Every task of the installed apps, as a worker sees them, without Celery's built-ins."""
    # Import each app's tasks module as autodiscovery does; not through Celery's loader, whose
    # Django fixup runs the system checks again (and so this check, endlessly).
    for config in apps.get_app_configs():
        name = f"{config.name}.tasks"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
    return [task for name, task in sorted(app.tasks.items()) if not name.startswith("celery.")]


@register("celery")
def check_task_time_limits(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    from newsroom.celery import app

    errors = []
    default_hard = app.conf.task_time_limit
    default_soft = app.conf.task_soft_time_limit
    options = app.conf.broker_transport_options or {}
    visibility = options.get("visibility_timeout", DEFAULT_VISIBILITY_TIMEOUT)
    longest: tuple[float, str] | None = None
    for task in _project_tasks(app):
        hard = task.time_limit or default_hard
        soft = task.soft_time_limit or default_soft
        if not hard:
            errors.append(
                Error(
                    f"Task {task.name} has no hard time limit",
                    hint="Give it time_limit= (and soft_time_limit=) so it cannot outlive the visibility timeout.",
                    id="verification.E003",
                )
            )
            continue
        if soft and soft >= hard:
            errors.append(
                Error(
                    f"Task {task.name}: soft time limit {soft}s is not below its hard time limit {hard}s",
                    hint="The soft limit lets the task stop cleanly before the hard limit kills its process.",
                    id="verification.E003",
                )
            )
        if longest is None or hard > longest[0]:
            longest = (hard, task.name)
    if longest is not None and visibility <= longest[0]:
        errors.append(
            Error(
                f"The broker's visibility timeout ({visibility}s) is not longer than the hard time limit "
                f"of {longest[1]} ({longest[0]}s): Redis would hand a running task to a second worker",
                hint="Raise CELERY_VISIBILITY_TIMEOUT or lower the task's time limit.",
                id="verification.E001",
            )
        )
    verify = app.tasks.get("verification.tasks.verify_story_task")
    verify_hard = (verify.time_limit or default_hard) if verify is not None else None
    if verify_hard and verify_hard >= settings.VERIFY_RUN_LEASE_SECONDS:
        errors.append(
            Error(
                f"VERIFY_RUN_LEASE_SECONDS ({settings.VERIFY_RUN_LEASE_SECONDS}s) is not longer than the verify "
                f"task's hard time limit ({verify_hard}s): a second worker could take over a run still in progress",
                hint="Raise VERIFY_RUN_LEASE_SECONDS or lower VERIFY_TASK_TIME_LIMIT.",
                id="verification.E002",
            )
        )
    return errors
