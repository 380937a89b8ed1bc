"""The embedded scheduler: beat's scheduled-publication task, run by a thread of the serving process.

In the embedded default (``make run``: eager tasks, no broker) there is no ``celery beat``, so
nothing would publish a story whose time has come. ``EMBEDDED_SCHEDULER`` (on by default only
when tasks are eager) starts one daemon thread in ``runserver`` or ``gunicorn`` that calls
``publish_scheduled_task`` every ``EMBEDDED_SCHEDULER_SECONDS``, exactly the function beat
calls. Several serving processes each running it is safe: every due story is claimed by one
atomic update (``verification.schedule``), so it is published once. In production beat runs
the task and this stays off.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_running: EmbeddedScheduler | None = None


def _beat_task() -> Any:
    # Imported late: the tasks module imports models, which an AppConfig may not at import time.
    from .tasks import publish_scheduled_task

    return publish_scheduled_task()


class EmbeddedScheduler:
    """Calls ``task`` every ``every`` seconds on a daemon thread until ``stop``."""

    def __init__(self, *, every: float, task: Callable[[], Any] = _beat_task):
        self.every = every
        self.task = task
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="embedded-scheduler", daemon=True)

    def start(self) -> EmbeddedScheduler:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def run_once(self) -> Any:
        """One tick: the task, on this thread's own database connection, closed afterwards."""
        try:
            close_old_connections()
            return self.task()
        except Exception:
            # A tick that fails (the database away) must not end the thread: the next one tries again.
            logger.exception("the embedded scheduler's run failed; it runs again in %s s", self.every)
            return None
        finally:
            # The thread's connection is its own; closing it keeps none open between ticks.
            connections.close_all()

    def _loop(self) -> None:
        # First tick at once: a story that came due while the server was down publishes on start.
        while not self._stop.is_set():
            outcome = self.run_once()
            if outcome and outcome.get("published"):
                logger.info("embedded scheduler published %s scheduled stories", outcome["published"])
            self._stop.wait(self.every)


def serving_process(argv: Sequence[str] | None = None, environ: dict[str, str] | None = None) -> bool:
    """Whether this process serves stories: ``runserver`` (its reloading child, not the watcher)
    or ``gunicorn``. Never a management command, a Celery worker or pytest."""
    argv = sys.argv if argv is None else argv
    environ = os.environ if environ is None else environ
    if len(argv) > 1 and argv[1] == "runserver":
        # With the autoreloader the command runs twice: a watcher and the child (RUN_MAIN) that serves.
        return environ.get("RUN_MAIN") == "true" or "--noreload" in argv
    return bool(argv) and os.path.basename(argv[0]).startswith("gunicorn")


def start_embedded_scheduler(*, argv: Sequence[str] | None = None) -> EmbeddedScheduler | None:
    """Start the scheduler once per process, when it is enabled and the process serves stories."""
    global _running
    if not settings.EMBEDDED_SCHEDULER or not serving_process(argv):
        return None
    with _lock:
        if _running is None or not _running.alive:
            _running = EmbeddedScheduler(every=settings.EMBEDDED_SCHEDULER_SECONDS).start()
            logger.info("embedded scheduler started: scheduled stories are published every %s s", _running.every)
        return _running
