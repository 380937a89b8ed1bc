"""Readiness: can this process do its work? Each probe returns a Check; ``readiness()`` runs them.

By hand rather than with django-health-check: its releases for our Python (3.11; 4.9 and later
need 3.14) answer 500 rather than 503, know no "not configured" state (the embedded default has
no broker and no worker, and is ready all the same), and check Celery with a live broadcast ping
rather than the age of a heartbeat. Wrapping all that would take more code than these probes.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Literal

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from kombu import Connection

from newsroom.cache import location_name, skipped_until

Status = Literal["ok", "fail", "not configured"]
HEARTBEAT_KEY = "ops:heartbeat:{queue}"


@dataclass(frozen=True)
class Check:
    status: Status
    detail: str = ""


def _failure(error: Exception) -> str:
    # One line: the class says what kind of failure, the message says where (host and port).
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def check_database() -> Check:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure to answer is the answer
        return Check("fail", _failure(error))
    return Check("ok")


def _breaker_open() -> Check | None:
    location = settings.CACHES["default"].get("LOCATION", "")
    if not isinstance(location, str) or "Redis" not in settings.CACHES["default"]["BACKEND"]:
        return None
    until = skipped_until(location)
    if until is None:
        return None
    when = datetime.fromtimestamp(until, UTC).strftime("%H:%M:%S UTC")
    return Check(
        "fail",
        f"circuit open after a cache error: the cache at {location_name(location)} is skipped until {when} "
        "(pages come from the database meanwhile)",
    )


def check_cache() -> Check:
    """Not ready while this process skips the cache after an error (its breaker is open): the
    probe reports the breaker's state rather than asking the server, which the breaker is
    there to spare. Not ready, like a cache error the probe meets itself, so the two states of
    one outage answer alike and the probe does not flap between them."""
    if (opened := _breaker_open()) is not None:
        return opened
    key, value = f"ops:readyz:{uuid.uuid4().hex}", uuid.uuid4().hex
    try:
        cache.set(key, value, timeout=10)
        read = cache.get(key)
        cache.delete(key)
    except Exception as error:
        return Check("fail", _failure(error))
    if read != value:
        return Check("fail", "a value written to the cache could not be read back")
    return Check("ok")


def broker_configured() -> bool:
    return not settings.CELERY_BROKER_URL.startswith("memory://")


def check_broker() -> Check:
    if not broker_configured():
        return Check("not configured", "no broker (REDIS_URL is not set): tasks run in-process")
    timeout = settings.READY_CHECK_TIMEOUT_SECONDS
    connection = Connection(
        settings.CELERY_BROKER_URL,
        connect_timeout=timeout,
        transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout},
    )
    try:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
    except Exception as error:
        return Check("fail", f"cannot reach the broker at {connection.as_uri()}: {_failure(error)}")
    finally:
        connection.release()
    return Check("ok", connection.as_uri())  # as_uri() masks a password


def heartbeat_record(queue: str) -> None:
    """Note that a worker on this queue is taking tasks (the beat's heartbeat task calls this)."""
    # Kept well beyond the age limit, so that an old heartbeat is reported as old, not as none.
    cache.set(HEARTBEAT_KEY.format(queue=queue), time.time(), timeout=24 * 3600)


def check_workers() -> Check:
    """Every queue has a worker: its heartbeat task, sent by celery beat, ran lately."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Check("not configured", "no workers: tasks run in-process (CELERY_TASK_ALWAYS_EAGER)")
    limit = settings.READY_HEARTBEAT_MAX_AGE_SECONDS
    queues = settings.CELERY_HEARTBEAT_QUEUES
    try:
        beats = cache.get_many([HEARTBEAT_KEY.format(queue=queue) for queue in queues])
    except Exception as error:
        return Check("fail", f"the heartbeats cannot be read from the cache: {_failure(error)}")
    now = time.time()
    problems, ages = [], []
    for queue in queues:
        beat = beats.get(HEARTBEAT_KEY.format(queue=queue))
        if beat is None:
            problems.append(f"queue {queue!r}: no heartbeat yet (are a worker for it and celery beat running?)")
            continue
        age = max(0, round(now - beat))
        ages.append(f"{queue} {age} s ago")
        if age > limit:
            problems.append(f"queue {queue!r}: last heartbeat {age} s ago, more than {limit} s")
    if problems:
        return Check("fail", "; ".join(problems))
    return Check("ok", "last heartbeats: " + ", ".join(ages))


PROBES = {"database": check_database, "cache": check_cache, "broker": check_broker, "workers": check_workers}


def readiness() -> tuple[bool, dict[str, dict[str, str]]]:
    """(ready, each check's status and detail). Ready when nothing failed."""
    results = {name: probe() for name, probe in PROBES.items()}
    ready = all(result.status != "fail" for result in results.values())
    return ready, {name: asdict(result) for name, result in results.items()}
