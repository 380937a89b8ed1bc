"""Prometheus metrics: requests by view (never by raw path), tasks by outcome, check results by
check and result, queue lengths; /metrics only for the allowed addresses or the token."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from newsroom.celery import app as celery_app
from newsroom.ops.tasks import worker_heartbeat
from stories.models import Story
from tests.factories import StoryFactory, publish_story
from tests.ops.helpers import grown, scrape, value
from verification.models import VerificationRun
from verification.services import story_verify

OUTSIDE = "203.0.113.9"
BASE_DIR = Path(__file__).resolve().parents[2]


# --- Who may read them -----------------------------------------------------------------------


def test_metrics_answer_the_local_scraper(client, db):
    response = client.get("/metrics")  # the test client comes from 127.0.0.1

    assert response.status_code == 200
    assert b"django_http_requests_total_by_method_total" in response.content


@pytest.mark.parametrize("address", [OUTSIDE, "10.0.0.7", "2001:db8::1"])
def test_metrics_are_refused_to_any_other_address(client, db, address):
    response = client.get("/metrics", REMOTE_ADDR=address)

    assert response.status_code == 403
    assert b"newsroom_" not in response.content


def test_a_request_through_an_untrusted_proxy_is_refused_though_it_comes_from_127_0_0_1(client, db):
    # A proxy on the machine forwards the public: its address says nothing of the client's.
    response = client.get("/metrics", HTTP_X_FORWARDED_FOR=OUTSIDE)

    assert response.status_code == 403


def test_behind_trusted_proxies_the_forwarded_client_address_decides(client, db, settings):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client.get("/metrics", HTTP_X_FORWARDED_FOR=OUTSIDE).status_code == 403
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR=f"{OUTSIDE}, 127.0.0.1").status_code == 200


def test_allowed_addresses_may_be_networks(client, db, settings):
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8"]

    assert client.get("/metrics", REMOTE_ADDR="10.20.30.40").status_code == 200
    assert client.get("/metrics").status_code == 403  # 127.0.0.1 is no longer listed


def test_the_bearer_token_opens_metrics_from_anywhere(client, db, settings):
    settings.METRICS_TOKEN = "scrape-token-0123456789"

    allowed = client.get("/metrics", REMOTE_ADDR=OUTSIDE, HTTP_AUTHORIZATION="Bearer scrape-token-0123456789")
    wrong = client.get("/metrics", REMOTE_ADDR=OUTSIDE, HTTP_AUTHORIZATION="Bearer scrape-token-9876543210")
    bare = client.get("/metrics", REMOTE_ADDR=OUTSIDE, HTTP_AUTHORIZATION="scrape-token-0123456789")

    assert allowed.status_code == 200
    assert (wrong.status_code, bare.status_code) == (403, 403)


def test_without_a_token_set_no_authorization_header_opens_them(client, db, settings):
    settings.METRICS_TOKEN = ""

    assert client.get("/metrics", REMOTE_ADDR=OUTSIDE, HTTP_AUTHORIZATION="Bearer ").status_code == 403


# --- Requests --------------------------------------------------------------------------------

LATENCY = "django_http_requests_latency_seconds_by_view_method_count"


def test_request_latency_is_labelled_by_view_name_not_path(client, db):
    story = publish_story(StoryFactory(status=Story.Status.DRAFT))
    before = scrape(client)

    pages = [story.get_absolute_url(), story.get_absolute_url() + "index.json", "/no-such-page/", "/healthz"]
    statuses = [client.get(path).status_code for path in pages]
    client.get(story.get_absolute_url())  # now from the page cache, before URL resolving

    after = scrape(client)
    assert statuses == [200, 200, 404, 200]
    assert grown(before, after, LATENCY, view="story", method="GET") == 2
    assert grown(before, after, LATENCY, view="story-json", method="GET") == 1
    assert grown(before, after, LATENCY, view="healthz", method="GET") == 1
    assert value(after, LATENCY, view="<unnamed view>", method="GET") > 0
    # No raw path ever becomes a label: the number of series stays bounded.
    assert not any(
        "/no-such-page/" in label_value or story.slug in label_value for _, labels in after for _, label_value in labels
    )


# --- Tasks -----------------------------------------------------------------------------------

TASKS = "newsroom_task_duration_seconds_count"


@pytest.fixture
def eager() -> Iterator[None]:
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


def test_tasks_are_timed_by_name_and_outcome(client, db, eager):
    heartbeat = "newsroom.ops.tasks.worker_heartbeat"
    before = scrape(client)

    worker_heartbeat.delay("verification")
    worker_heartbeat.delay("manifests")
    # A heartbeat without its queue fails. Run as a worker runs it, the error is recorded, not
    # raised to the caller (an eager task raises it before Celery's failure signals).
    result = worker_heartbeat.apply(args=[], throw=False)

    after = scrape(client)
    assert isinstance(result.result, TypeError)
    assert grown(before, after, TASKS, task=heartbeat, outcome="SUCCESS") == 2
    assert grown(before, after, TASKS, task=heartbeat, outcome="FAILURE") == 1
    assert grown(before, after, "newsroom_task_failures_total", task=heartbeat, exception="TypeError") == 1


# --- Checks ----------------------------------------------------------------------------------

CHECKS = "newsroom_verification_checks_total"


def test_each_recorded_run_counts_its_checks_by_name_and_result(client, db):
    story = StoryFactory(status=Story.Status.DRAFT, published_at=None)
    before = scrape(client)

    run = story_verify(story=story, started_by="metrics test")
    story_verify(story=story, started_by="metrics test")  # its verdict stands: no second run, no count

    after = scrape(client)
    assert len(run.checks) == 5
    for check in run.checks:
        labels = {"check": check["name"], "result": check["status"]}
        assert grown(before, after, CHECKS, **labels) == 1, labels
    counted = sum(after[key] - before.get(key, 0) for key in after if key[0] == CHECKS)
    assert counted == 5


# --- Queues ----------------------------------------------------------------------------------


def test_queue_lengths_are_reported_when_there_is_a_broker(client, db, require_redis, settings):
    settings.CELERY_BROKER_URL = require_redis
    samples = scrape(client)

    for queue in settings.CELERY_HEARTBEAT_QUEUES:
        assert ("newsroom_celery_queue_length", (("queue", queue),)) in samples


def test_no_queue_lengths_without_a_broker(client, db, settings):
    settings.CELERY_BROKER_URL = "memory://"

    assert not any(name == "newsroom_celery_queue_length" for name, _ in scrape(client))


def test_the_age_of_the_oldest_submission_waiting_for_its_checks(client, db):
    assert value(scrape(client), "newsroom_oldest_submission_age_seconds") == 0

    older = StoryFactory(status=Story.Status.SUBMITTED, published_at=None)
    newer = StoryFactory(status=Story.Status.SUBMITTED, published_at=None)
    now = timezone.now()
    for story, waited in ((older, timedelta(minutes=7)), (newer, timedelta(minutes=1))):
        VerificationRun.objects.create(story=story, content_hash="a", started_by="test", queued_at=now - waited)
    # A finished run, however old, is not waiting.
    done = StoryFactory(status=Story.Status.SUBMITTED, published_at=None)
    VerificationRun.objects.create(
        story=done, content_hash="c", started_by="test", queued_at=now - timedelta(hours=2), status="passed"
    )

    age = value(scrape(client), "newsroom_oldest_submission_age_seconds")
    assert 7 * 60 <= age < 8 * 60


# --- Several processes -------------------------------------------------------------------------

COUNT_IN_A_PROCESS = """
import django
django.setup()
from newsroom.ops.metrics import count_check_results
count_check_results([{"name": "not_repeat", "status": "pass"}])
"""

REQUEST_IN_A_PROCESS = """
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
for _ in range(3):
    assert Client().get("/healthz").status_code == 200
"""

SCRAPE_IN_A_PROCESS = """
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
print(Client().get("/metrics").content.decode())
"""


def test_in_multiprocess_mode_metrics_add_up_every_process(tmp_path):
    """As under gunicorn and a prefork worker pool: each process writes its counts to
    PROMETHEUS_MULTIPROC_DIR, and /metrics in any process reads them all."""
    files = tmp_path / "metrics"
    files.mkdir()
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(files),
        "DJANGO_SETTINGS_MODULE": "newsroom.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",  # an empty one: the scrape-time gauges skip
    }
    for _ in range(2):
        subprocess.run([sys.executable, "-c", COUNT_IN_A_PROCESS], cwd=BASE_DIR, env=env, check=True)

    scraped = subprocess.run(
        [sys.executable, "-c", SCRAPE_IN_A_PROCESS], cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True
    )

    assert len(list(files.glob("counter_*.db"))) >= 2
    assert 'newsroom_verification_checks_total{check="not_repeat",result="pass"} 2.0' in scraped.stdout


def test_in_multiprocess_mode_request_metrics_add_up_every_process(tmp_path):
    """Each process counts its requests in memory and saves them to its own file in the directory
    (at the latest when it exits); /metrics in any process adds up the files and its own counts."""
    files = tmp_path / "metrics"
    files.mkdir()
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(files),
        "DJANGO_SETTINGS_MODULE": "newsroom.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    for _ in range(2):
        subprocess.run([sys.executable, "-c", REQUEST_IN_A_PROCESS], cwd=BASE_DIR, env=env, check=True)

    scraped = subprocess.run(
        [sys.executable, "-c", SCRAPE_IN_A_PROCESS], cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True
    )

    assert len(list(files.glob("newsroom_requests_*.json"))) == 3  # one a process, the scraper's too
    latency = "django_http_requests_latency_seconds_by_view_method_count"
    assert f'{latency}{{method="GET",view="healthz"}} 6.0' in scraped.stdout
    assert 'django_http_responses_total_by_status_total{status="200"} 6.0' in scraped.stdout
    # One family each, whatever the number of processes: the scrape adds them up.
    assert scraped.stdout.count("# TYPE django_http_requests_total_by_method_total counter") == 1
