#!/usr/bin/env python
"""Must-show: real Redis, real PostgreSQL, real ``celery worker`` processes, one killed with -9.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python tests/integration/worker_kill.py

The servers come from DATABASE_URL and REDIS_URL (defaults: 127.0.0.1); the script uses a
database and a Redis DB number of its own (WORKER_KILL_DB, default ``newsroom_worker_kill``;
WORKER_KILL_REDIS_DB, default 13), made fresh at the start.

1. A test manifest provider serves one manifest per story over real HTTP on 127.0.0.1, each
   reply ``PROVIDER_DELAY`` seconds late, so every run takes a while.
2. 50 draft stories are submitted: one newsroom publishes automatically, the other waits for
   an editor; every seventh story cites a claim its manifest does not have, so it fails.
3. A worker (``celery -A newsroom worker -Q verification,manifests --concurrency 2``) starts;
   once some runs have finished and some are running, its whole process group gets SIGKILL.
4. Another worker starts. The dead worker's tasks were never acknowledged (late acks), so Redis
   hands them out again after the (short) visibility timeout; their runs, left "running", are
   taken over once their (short) lease has passed.
5. Within TIMEOUT seconds every run must finish, and then: every story has exactly one finished
   run for its content; each story's state matches its verdict and its newsroom; no story was
   published twice or half; the interrupted runs were redelivered and finished.

Exit status 0 when everything holds, 1 otherwise. All processes are stopped in every case.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

STORIES = 50
TIMEOUT = float(os.getenv("WORKER_KILL_TIMEOUT", "180"))
PROVIDER_DELAY = float(os.getenv("WORKER_KILL_PROVIDER_DELAY", "1.5"))
# Kill the first worker once this many runs have finished and at least one is running.
KILL_AFTER_FINISHED = 6
DB_NAME = os.getenv("WORKER_KILL_DB", "newsroom_worker_kill")
REDIS_DB = int(os.getenv("WORKER_KILL_REDIS_DB", "13"))
LOG_DIR = Path(os.getenv("WORKER_KILL_LOG_DIR", ROOT / "test-artifacts" / "worker_kill"))

# Short timeouts so redelivery happens in seconds, kept in the order the system checks demand:
# every hard time limit < VERIFY_RUN_LEASE_SECONDS (for the verify task) < visibility timeout.
SHORT_TIMEOUTS = {
    "VERIFY_TASK_SOFT_TIME_LIMIT": "8",
    "VERIFY_TASK_TIME_LIMIT": "10",
    "FETCH_TASK_SOFT_TIME_LIMIT": "8",
    "FETCH_TASK_TIME_LIMIT": "10",
    "SWEEP_TASK_SOFT_TIME_LIMIT": "8",
    "SWEEP_TASK_TIME_LIMIT": "10",
    "REFRESH_TASK_SOFT_TIME_LIMIT": "8",
    "REFRESH_TASK_TIME_LIMIT": "10",
    "SCHEDULE_TASK_SOFT_TIME_LIMIT": "8",
    "SCHEDULE_TASK_TIME_LIMIT": "10",
    "WEBHOOK_TASK_SOFT_TIME_LIMIT": "8",
    "WEBHOOK_TASK_TIME_LIMIT": "10",
    "VERIFY_RUN_LEASE_SECONDS": "11",
    "CELERY_VISIBILITY_TIMEOUT": "12",
    "CELERY_UNACKED_RESTORE_INTERVAL": "2",
}

# Made-up words to draw each story's own vocabulary from (a hundred of them).
WORDS = [
    head + tail
    for head in ("bar", "kel", "mon", "tur", "vos", "dri", "lam", "pex", "sor", "gun")
    for tail in ("dra", "vin", "lok", "mer", "tas", "bel", "quo", "zin", "fer", "hul")
]


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def with_path(url: str, path: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=path))


def configure_environment(provider_url: str, provider_key: str) -> tuple[str, str]:
    """Point this process (and the workers it starts) at the dedicated database and Redis DB."""
    database_server = os.getenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    if urlsplit(database_server).scheme not in {"postgres", "postgresql"}:
        raise SystemExit(f"DATABASE_URL must point at PostgreSQL, not {database_server!r}")
    redis_server = os.getenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    database_url = with_path(database_server, f"/{DB_NAME}")
    redis_url = with_path(redis_server, f"/{REDIS_DB}")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "newsroom.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CACHE_KEY_PREFIX": "worker-kill",
            "MANIFEST_PROVIDER_URL": provider_url,
            "MANIFEST_PROVIDER_KEY": provider_key,
            "MANIFEST_PROVIDER_READ_TIMEOUT": "5",
            "MANIFEST_PROVIDER_MAX_RETRIES": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.getenv("PYTHONPATH")])),
            **SHORT_TIMEOUTS,
        }
    )
    return database_url, redis_url


def fresh_database(database_url: str) -> None:
    import psycopg

    admin_url = with_path(database_url, "/postgres")
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{DB_NAME}"')


def drop_database(database_url: str) -> None:
    import psycopg

    with psycopg.connect(with_path(database_url, "/postgres"), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def phrase(rng: random.Random, count: int) -> str:
    return " ".join(rng.sample(WORDS, count))


def story_document(number: int, newsroom: str, manifest_id: str, claim_ids: list[str], text: str) -> dict[str, Any]:
    from django.utils import timezone

    cites = [{"manifest_id": manifest_id, "claim_ids": claim_ids}]
    return {
        "schema": "hangingcontext.desk/1",
        "type": "story",
        "id": str(500_000 + number),
        "slug": f"worker-kill-{number}",
        "edition": timezone.now().strftime("%Y-%m-%dT%H"),
        "newsroom": newsroom,
        "beat": "integration",
        "angle": "Integration.",
        "headline": f"Report {number} on {text.split(' ', 3)[1]}",
        "dek": "",
        "labels": {"trust": "reported"},
        "key_facts": [{"text": text, "self_reported": False, "cites": cites}],
        "sections": [{"heading": "The news", "paragraphs": [{"markdown": text, "cites": cites}]}],
    }


def make_stories(provider: Any) -> dict[int, dict[str, Any]]:
    """50 draft stories, each citing a manifest only the provider has; returns the plan per story."""
    from newsroom.models import Newsroom
    from stories.services import story_import_desk
    from tests.provider_server import manifest_payload

    Newsroom.objects.create(slug="auto-desk", title="Auto Desk", auto_publish=True)
    Newsroom.objects.create(slug="editor-desk", title="Editor Desk", auto_publish=False)
    rng = random.Random(20261129)
    plan = {}
    for number in range(STORIES):
        # Words of its own, so no story repeats another that was published a moment before.
        text = f"The {phrase(rng, 3)} survey reported {phrase(rng, 4)} along the {phrase(rng, 3)} coast."
        manifest_id = f"wk-{number}"
        claim_id = f"wk-{number}-claim"
        provider.add_manifest(
            manifest_payload(
                manifest_id, claims=[{"claim_id": claim_id, "text": text, "type": "fact", "confidence": 0.9}]
            )
        )
        good = number % 7 != 3
        auto = number % 2 == 0
        story = story_import_desk(
            document=story_document(
                number,
                "auto-desk" if auto else "editor-desk",
                manifest_id,
                [claim_id] if good else ["no-such-claim"],
                text,
            ),
            as_draft=True,
            actor="integration",
        ).story
        plan[story.pk] = {"good": good, "auto": auto}
    return plan


def start_worker(name: str) -> tuple[subprocess.Popen, Path]:
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    path = LOG_DIR / f"{name}.log"
    output = path.open("w")
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "newsroom",
        "worker",
        "-Q",
        "verification,manifests",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
        "--hostname",
        f"{name}@%h",
        "--without-gossip",
        "--without-mingle",
    ]
    # A session of its own: the worker and its pool children form one process group, so one
    # killpg reaches them all (a kill -9 of the machine, not just of the parent).
    process = subprocess.Popen(
        command, cwd=ROOT, env=os.environ.copy(), stdout=output, stderr=subprocess.STDOUT, start_new_session=True
    )
    log(f"started worker {name} (pid {process.pid}), log {path}")
    return process, path


def kill_group(process: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def stop_worker(process: subprocess.Popen) -> None:
    """Warm shutdown of the main process (its children finish and acknowledge their tasks);
    SIGKILL for the whole group if it will not go."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)
    kill_group(process)


def wait_for(what: str, condition: Callable[[], bool], timeout: float, workers: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        for worker in workers:
            if worker.poll() is not None:
                raise AssertionError(f"a worker exited with {worker.returncode} while waiting for {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(0.2)


def run_counts() -> dict[str, int]:
    from django.db.models import Count

    from verification.models import VerificationRun

    return dict(VerificationRun.objects.values_list("status").annotate(n=Count("id")))


class Checker:
    def __init__(self) -> None:
        self.failures: list[str] = []

    def check(self, condition: bool, message: str) -> None:
        if not condition:
            self.failures.append(message)


def verify_outcome(plan: dict[int, dict[str, Any]], interrupted: list[int], unacked: int, worker_log: Path) -> Checker:
    from stories.models import Revision, Story
    from verification.models import StorySignature, VerificationRun

    result = Checker()
    stories = {story.pk: story for story in Story.objects.filter(pk__in=plan)}
    runs = list(VerificationRun.objects.all())
    result.check(len(stories) == STORIES, f"expected {STORIES} stories, found {len(stories)}")
    result.check(all(run.is_finished for run in runs), "some runs are still unfinished")
    signatures = set(StorySignature.objects.values_list("story_id", flat=True))
    published_revisions = {
        pk: Revision.objects.filter(story_id=pk, note__startswith="published").count() for pk in stories
    }
    for pk, story in stories.items():
        expected = plan[pk]
        mine = [run for run in runs if run.story_id == pk]
        finished_for_content = [run for run in mine if run.content_hash == story.content_hash and run.is_finished]
        result.check(
            len(finished_for_content) == 1,
            f"story {pk}: {len(finished_for_content)} finished runs for its content (runs: {mine})",
        )
        result.check(len(mine) == 1, f"story {pk}: {len(mine)} runs in all, expected 1")
        verdict = VerificationRun.Status.PASSED if expected["good"] else VerificationRun.Status.FAILED
        result.check(
            all(run.status == verdict for run in finished_for_content),
            f"story {pk}: verdict {[run.status for run in finished_for_content]}, expected {verdict}",
        )
        if expected["good"] and expected["auto"]:
            status = Story.Status.PUBLISHED
        elif expected["good"]:
            status = Story.Status.VERIFIED
        else:
            status = Story.Status.FAILED
        result.check(story.status == status, f"story {pk}: status {story.status}, expected {status}")
        # Never half published: status, publication time, dateline, revision and index agree.
        published = story.status == Story.Status.PUBLISHED
        result.check(
            published == (story.published_at is not None),
            f"story {pk}: status {story.status} with {story.published_at}",
        )
        result.check(
            published_revisions[pk] == (1 if published else 0),
            f"story {pk}: {published_revisions[pk]} 'published' revisions (status {story.status})",
        )
        if published:
            result.check(
                story.dateline == story.published_at.date(), f"story {pk}: dateline is not its publication date"
            )
        # The repeat index is kept by story_changed and revision receivers after commit.
        result.check((pk in signatures) == published, f"story {pk}: repeat index entry does not match its status")
    # The kill struck mid-task, and the broker redelivered what the dead worker never acknowledged.
    result.check(bool(interrupted), "no run was running when the worker was killed: the kill proved nothing")
    result.check(
        unacked >= len(interrupted),
        f"only {unacked} unacknowledged messages after the kill, but {len(interrupted)} runs were interrupted",
    )
    by_pk = {run.pk: run for run in runs}
    text = worker_log.read_text()
    for run_id in interrupted:
        run = by_pk[run_id]
        result.check(run.attempts >= 2, f"interrupted run {run_id} was claimed {run.attempts} time(s), expected 2+")
        result.check(
            f"verify run {run_id}: redelivered message" in text,
            f"interrupted run {run_id}: the second worker never got its task redelivered",
        )
    return result


def main() -> int:
    from tests.provider_server import ProviderServer, Reply

    workers: list[subprocess.Popen] = []
    database_url = ""
    started = time.monotonic()
    with ProviderServer() as provider:
        # Every reply a little late: a run takes as long as a slow provider makes it.
        provider.always(Reply(delay=PROVIDER_DELAY))
        database_url, redis_url = configure_environment(provider.url, provider.key)
        log(f"database {DB_NAME} and Redis {redis_url}; provider {provider.url} (replies {PROVIDER_DELAY}s late)")
        try:
            fresh_database(database_url)
            import django

            django.setup()
            import redis
            from django.core.checks import run_checks
            from django.core.management import call_command
            from django.db import transaction
            from django.db.models import Count

            from stories.models import Story
            from verification.models import VerificationRun
            from verification.workflow import story_submit

            broker = redis.Redis.from_url(redis_url)
            broker.flushdb()
            call_command("migrate", verbosity=0)
            # As manage.py check does: silenced checks (admin.E409, answered by ops.E003) are not errors.
            errors = [m for m in run_checks() if m.is_serious() and not m.is_silenced()]
            assert not errors, f"system checks fail with the short timeouts: {errors}"

            plan = make_stories(provider)
            for story in Story.objects.filter(pk__in=plan).order_by("pk"):
                # Each submission commits, then queues its task (transaction.on_commit).
                with transaction.atomic():
                    story_submit(story=story, actor="integration")
            queued = broker.llen("verification")
            log(f"submitted {len(plan)} stories; {queued} tasks waiting on the verification queue")
            assert queued == STORIES, f"expected {STORIES} queued tasks, found {queued}"

            first, _ = start_worker("first")
            workers.append(first)

            def mid_flight() -> bool:
                # Best with both pool processes mid-run; one will do if that moment does not come.
                counts = run_counts()
                finished = sum(counts.get(status, 0) for status in VerificationRun.FINISHED)
                running = counts.get("running", 0)
                return finished >= KILL_AFTER_FINISHED and (
                    running >= 2 or (running and finished >= 2 * KILL_AFTER_FINISHED)
                )

            wait_for("the first worker to be mid-way", mid_flight, 90, workers)
            kill_group(first, signal.SIGKILL)
            workers.remove(first)
            counts = run_counts()
            interrupted = list(
                VerificationRun.objects.filter(status=VerificationRun.Status.RUNNING).values_list("pk", flat=True)
            )
            unacked = broker.hlen("unacked")
            log(
                f"kill -9 of the first worker's process group: runs {counts}; interrupted runs {interrupted}; "
                f"{unacked} messages delivered but never acknowledged"
            )

            second, second_log = start_worker("second")
            workers.append(second)

            def all_done() -> bool:
                # Done means every task acknowledged, not only every run finished: a task goes on
                # after its run (the verdict, the auto-publication) and is acknowledged at its end.
                if broker.llen("verification") or broker.hlen("unacked"):
                    return False
                counts = run_counts()
                return (
                    set(counts) <= set(VerificationRun.FINISHED)
                    and not Story.objects.filter(status=Story.Status.SUBMITTED).exists()
                )

            wait_for("every run to finish", all_done, TIMEOUT, workers)
            log(f"all runs finished {time.monotonic() - started:.0f}s after the start: {run_counts()}")
            stop_worker(second)
            workers.remove(second)

            outcome = verify_outcome(plan, interrupted, unacked, second_log)
            statuses = dict(Story.objects.filter(pk__in=plan).values_list("status").annotate(n=Count("id")))
            log(f"stories by status: {statuses}")
            attempts = dict(VerificationRun.objects.filter(pk__in=interrupted).values_list("pk", "attempts"))
            log(f"interrupted runs and their claims: {attempts}")
            redelivered = sorted({int(n) for n in re.findall(r"verify run (\d+): redelivered", second_log.read_text())})
            log(f"runs whose task the broker redelivered to the second worker: {redelivered}")
            if outcome.failures:
                for failure in outcome.failures:
                    log(f"FAIL: {failure}")
                log(f"FAILED: {len(outcome.failures)} problem(s); database {DB_NAME} kept, worker logs in {LOG_DIR}")
                return 1
            log(
                "OK: every story has exactly one finished run for its content; none published twice or half; "
                f"{len(interrupted)} interrupted run(s) redelivered and finished"
            )
            broker.flushdb()
            from django.db import connections

            connections.close_all()
            drop_database(database_url)
            return 0
        finally:
            for worker in workers:
                kill_group(worker)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as failure:
        log(f"FAILED: {failure}; worker logs in {LOG_DIR}")
        sys.exit(1)
