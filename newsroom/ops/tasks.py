"""The worker heartbeat: celery beat sends this task to every queue (CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from .health import heartbeat_record


@shared_task(
    name="newsroom.ops.tasks.worker_heartbeat", ignore_result=True, acks_late=False, soft_time_limit=4, time_limit=5
)
def worker_heartbeat(queue: str) -> None:
    # acks_late is off: a heartbeat lost with its worker is replaced by the next one anyway.
    heartbeat_record(queue)
