"""Prometheus metrics, and ``/metrics`` for the scraper only.

- Requests: django-prometheus's families (``django_http_requests_latency_seconds_by_view_method``
  and friends), labelled by view name, never by path, so the number of series stays bounded;
  counted by ``newsroom.ops.observe.RequestObservabilityMiddleware``, which names the view of a
  page answered before URL resolution (the page cache, a live story) by resolving its path, in
  this process's memory, and sent by ``newsroom.ops.requestmetrics``'s collector when scraped.
- Tasks: ``newsroom_task_duration_seconds{task, outcome}`` (Celery's task_prerun and
  task_postrun; outcome is the task's state: SUCCESS, FAILURE, RETRY, ...) and
  ``newsroom_task_failures_total{task, exception}`` (task_failure).
- Checks: ``newsroom_verification_checks_total{check, result}``, counted where a run's results
  are recorded (``verification.services.verification_run_execute``).
- Gauges read at scrape time (``scrape_time``): queue lengths and the oldest submission waiting
  for its checks, added by the rooms that know them.

Under gunicorn or a Celery prefork pool every process keeps its own counts: set
``PROMETHEUS_MULTIPROC_DIR`` (an empty directory, the same for the web and worker processes of
one machine, emptied when they start) and ``/metrics`` adds up every process's files (see the
README's Operations section).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import prometheus_client
from celery.signals import task_failure, task_postrun, task_prerun
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CollectorRegistry, Counter, Histogram, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from .lockout import client_ip
from .requestmetrics import TALLY, RequestMetricsCollector

TASK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)

TASK_DURATION = Histogram(
    "newsroom_task_duration_seconds",
    "Time a Celery task took, by task and outcome (its final state).",
    ["task", "outcome"],
    buckets=TASK_BUCKETS,
)
TASK_FAILURES = Counter(
    "newsroom_task_failures_total", "Celery tasks that raised, by task and exception class.", ["task", "exception"]
)
CHECK_RESULTS = Counter(
    "newsroom_verification_checks_total",
    "Results of the verification checks, as recorded with their runs: by check and result.",
    ["check", "result"],
)


def count_check_results(checks: Iterable[dict[str, Any]]) -> None:
    """Count a recorded run's per-check results (``{"name", "status", ...}`` entries)."""
    for check in checks:
        CHECK_RESULTS.labels(check=check["name"], result=check["status"]).inc()


# --- Tasks -----------------------------------------------------------------------------------


def _task_started(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    if task is not None:
        task.request.ops_started = time.perf_counter()


def _task_finished(task_id: str | None = None, task: Any = None, state: str | None = None, **kwargs: Any) -> None:
    started = getattr(getattr(task, "request", None), "ops_started", None)
    if started is None:
        return
    TASK_DURATION.labels(task=task.name, outcome=state or "UNKNOWN").observe(time.perf_counter() - started)


def _task_failed(sender: Any = None, exception: BaseException | None = None, **kwargs: Any) -> None:
    name = getattr(sender, "name", "unknown")
    TASK_FAILURES.labels(task=name, exception=type(exception).__name__).inc()


def connect_task_signals() -> None:
    # In every process: workers run tasks, and so do web processes with eager tasks.
    task_prerun.connect(_task_started, weak=False, dispatch_uid="ops.metrics.task_started")
    task_postrun.connect(_task_finished, weak=False, dispatch_uid="ops.metrics.task_finished")
    task_failure.connect(_task_failed, weak=False, dispatch_uid="ops.metrics.task_failed")


# --- Gauges read when scraped ----------------------------------------------------------------


class ScrapeTimeCollector(Collector):
    """Runs the registered functions at each scrape; each yields metric families. Rooms above
    this one (verification, for its queue of submissions) register theirs with ``add``."""

    def __init__(self) -> None:
        self._sources: list[Callable[[], Iterable[Any]]] = []

    def add(self, source: Callable[[], Iterable[Any]]) -> None:
        if source not in self._sources:
            self._sources.append(source)

    def describe(self) -> Iterable[Any]:
        return []  # known only when collected; never registered with the global registry

    def collect(self) -> Iterable[Any]:
        for source in self._sources:
            yield from source()


scrape_time = ScrapeTimeCollector()


def queue_lengths() -> Iterable[GaugeMetricFamily]:
    """Messages waiting in each Celery queue (none reported without a broker)."""
    from .health import broker_configured  # health reads settings at call time

    if not broker_configured():
        return
    from newsroom.celery import app

    family = GaugeMetricFamily(
        "newsroom_celery_queue_length",
        "Messages waiting in a Celery queue (not yet taken by a worker).",
        labels=["queue"],
    )
    timeout = settings.READY_CHECK_TIMEOUT_SECONDS
    try:
        with app.connection_for_read(
            connect_timeout=timeout, transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout}
        ) as connection:
            channel = connection.default_channel
            for queue in settings.CELERY_HEARTBEAT_QUEUES:
                # Not passive: kombu's Redis transport finds an emptied queue missing (Redis drops
                # empty lists); declaring one creates nothing there.
                declared = channel.queue_declare(queue=queue, durable=True, auto_delete=False)
                family.add_metric([queue], declared.message_count)
    except Exception:  # an unreachable broker is /readyz's to report; the scrape goes on
        up = GaugeMetricFamily("newsroom_celery_broker_up", "Whether the broker answered the scrape.")
        up.add_metric([], 0)
        yield up
        return
    yield family


scrape_time.add(queue_lengths)


# --- The endpoint ----------------------------------------------------------------------------


def metrics_allowed(request: HttpRequest) -> bool:
    """A bearer token equal to METRICS_TOKEN, or a client address in METRICS_ALLOWED_IPS.

    The address is the one TRUSTED_PROXY_COUNT finds. A request that came through a proxy
    (it carries X-Forwarded-For) while no proxy is trusted is refused by address: every
    client behind that proxy would have the proxy's address, often 127.0.0.1."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.META.get("HTTP_AUTHORIZATION", "")
        if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    if settings.TRUSTED_PROXY_COUNT == 0 and "HTTP_X_FORWARDED_FOR" in request.META:
        return False
    address = client_ip(request)
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(network, strict=False) for network in settings.METRICS_ALLOWED_IPS)


def registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Every process's files in the directory, added up (counters, histograms).
        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
        collected.register(RequestMetricsCollector(TALLY, created=False))
        return collected
    return prometheus_client.REGISTRY


@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return HttpResponse("Forbidden: /metrics is for the metrics scraper.\n", status=403, content_type="text/plain")
    # The exposition format allows families one after the other: the processes' metrics, then
    # the gauges read now (kept out of the multiprocess files, being one value for the site).
    body = prometheus_client.generate_latest(registry()) + prometheus_client.generate_latest(scrape_time)
    return HttpResponse(body, content_type=prometheus_client.CONTENT_TYPE_LATEST)
