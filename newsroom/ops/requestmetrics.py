"""django-prometheus's request metrics, counted in this process's memory and put together when
``/metrics`` is scraped.

prometheus-client's metric objects check their state and take a lock on every increment, and a
request adds to thirteen of them. Here a request takes one lock and adds to a few plain numbers
(``RequestTally.count``); ``RequestMetricsCollector`` turns them into django-prometheus's families,
with its names, help texts, labels and buckets (read from ``django_prometheus.middleware.Metrics``
itself), when scraped.

Several processes (``PROMETHEUS_MULTIPROC_DIR`` set): each process also saves its counts to a file
of its own in that directory, at most once a second while it serves and when it exits, and the
collector adds up every process's file, its own counts read live. A scrape so sees another
process's requests up to a second late, and a process killed outright loses its last second.
Files of processes that exited keep counting, as prometheus-client's own files do.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import prometheus_client
from django_prometheus.middleware import Metrics
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

SAVE_SECONDS = 1.0
FILE_PREFIX = "newsroom_requests_"


@dataclass(frozen=True)
class Family:
    """One of django-prometheus's request metrics, as it defines it."""

    histogram: bool
    name: str
    documentation: str
    labels: tuple[str, ...]
    bounds: tuple[float, ...]  # a histogram's upper bounds, +Inf last


class _Definitions(Metrics):
    """django-prometheus's ``Metrics``, each family described instead of registered."""

    def register_metric(self, metric_cls: Any, name: str, documentation: str, labelnames: Any = (), **kwargs: Any):
        namespace = kwargs.get("namespace")
        bounds = tuple(float(bound) for bound in kwargs.get("buckets", ()))
        if bounds and bounds[-1] != float("inf"):
            bounds += (float("inf"),)
        histogram = metric_cls is prometheus_client.Histogram
        return Family(histogram, f"{namespace}_{name}" if namespace else name, documentation, tuple(labelnames), bounds)


FAMILIES = _Definitions()
LATENCY_BOUNDS = FAMILIES.requests_latency_by_view_method.bounds
BYTES_BOUNDS = FAMILIES.requests_body_bytes.bounds


class Histogram:
    """Observations by bucket (not cumulative: that is the scrape's work) and their sum."""

    __slots__ = ("bounds", "counts", "created", "total")

    def __init__(self, bounds: tuple[float, ...]):
        self.bounds = bounds
        self.counts = [0] * len(bounds)
        self.total = 0.0
        self.created = time.time()

    def observe(self, value: float) -> None:
        # The first bucket whose bound is at least the value, as prometheus-client finds it.
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def saved(self) -> list[Any]:
        return [list(self.counts), self.total, self.created]


# What a response is counted under: view, method, transport, status, charset (empty: none),
# whether it reached its view through URL resolution, whether it was an AJAX request, streaming.
ResponseKey = tuple[str, str, str, str, str, bool, bool, bool]


class RequestTally:
    """This process's counts. Thread-safe: one lock a request, held for a few additions."""

    def __init__(self, directory: str | None = None):
        self.directory = Path(directory) if directory else None
        self._lock = threading.Lock()
        self.created = time.time()
        # key -> [count, created, its view and method's latency histogram]
        self.responses: dict[ResponseKey, list[Any]] = {}
        self.latency_by_view: dict[tuple[str, str], Histogram] = {}
        self.latency = Histogram(LATENCY_BOUNDS)
        self.request_bytes = Histogram(BYTES_BOUNDS)
        self.response_bytes = Histogram(BYTES_BOUNDS)
        # family attribute -> label value -> [count, created]
        self.rare: dict[str, dict[str, list[float]]] = {
            "exceptions_by_type": {},
            "exceptions_by_view": {},
            "responses_by_templatename": {},
        }
        self._save_due = time.monotonic() + SAVE_SECONDS if self.directory else None
        if self.directory:
            atexit.register(self.save)

    def count(self, key: ResponseKey, elapsed: float, request_bytes: int, response_bytes: int | None) -> None:
        with self._lock:
            entry = self.responses.get(key)
            if entry is None:
                entry = self.responses[key] = [0, time.time(), self._latency_of(key[0], key[1])]
            entry[0] += 1
            # The two latency histograms have the same buckets: one search for both.
            bucket = bisect_left(LATENCY_BOUNDS, elapsed)
            for latency in (entry[2], self.latency):
                latency.counts[bucket] += 1
                latency.total += elapsed
            self.request_bytes.observe(request_bytes)
            if response_bytes is not None:
                self.response_bytes.observe(response_bytes)
        if self._save_due is not None and time.monotonic() >= self._save_due:
            self.save()

    def _latency_of(self, view: str, method: str) -> Histogram:
        histogram = self.latency_by_view.get((view, method))
        if histogram is None:
            histogram = self.latency_by_view[(view, method)] = Histogram(LATENCY_BOUNDS)
        return histogram

    def count_rare(self, family: str, label: str) -> None:
        """An exception (by type, by view) or a template response: not on every request."""
        with self._lock:
            entry = self.rare[family].setdefault(label, [0, time.time()])
            entry[0] += 1

    def snapshot(self) -> dict[str, Any]:
        """The counts as plain data: what a scrape reads and what a process saves."""
        with self._lock:
            return {
                "created": self.created,
                "responses": [[*key, count, created] for key, (count, created, _) in self.responses.items()],
                "latency_by_view": [[*key, *histogram.saved()] for key, histogram in self.latency_by_view.items()],
                "latency": self.latency.saved(),
                "request_bytes": self.request_bytes.saved(),
                "response_bytes": self.response_bytes.saved(),
                "rare": {
                    family: [[label, *entry] for label, entry in counts.items()] for family, counts in self.rare.items()
                },
            }

    def file(self, pid: int | None = None) -> Path:
        assert self.directory is not None
        return self.directory / f"{FILE_PREFIX}{pid or os.getpid()}.json"

    def save(self) -> None:
        """Write this process's counts to its file, whole or not at all (written aside, renamed)."""
        if self.directory is None:
            return
        self._save_due = time.monotonic() + SAVE_SECONDS
        target = self.file()
        written = target.with_suffix(".tmp")
        written.write_text(json.dumps(self.snapshot()))
        os.replace(written, target)

    def snapshots(self) -> list[dict[str, Any]]:
        """Every process's counts: this one's live, the others' from their files."""
        own = self.snapshot()
        if self.directory is None:
            return [own]
        mine = self.file()
        others = []
        for path in sorted(self.directory.glob(f"{FILE_PREFIX}*.json")):
            if path != mine:
                try:
                    others.append(json.loads(path.read_text()))
                except (OSError, ValueError):  # gone, or being replaced this instant
                    continue
        return [own, *others]


def _sum_histograms(saved: Iterable[list[Any]], bounds: tuple[float, ...]) -> tuple[list[int], float, float]:
    counts, total, created = [0] * len(bounds), 0.0, float("inf")
    for bucket_counts, bucket_total, bucket_created in saved:
        counts = [a + b for a, b in zip(counts, bucket_counts, strict=True)]
        total += bucket_total
        created = min(created, bucket_created)
    return counts, total, created


class RequestMetricsCollector(Collector):
    """django-prometheus's request families, from the tallies, at scrape time."""

    def __init__(self, tally: RequestTally, *, created: bool = True):
        self.tally = tally
        # prometheus-client's ``_created`` samples: one process's alone, as prometheus-client
        # leaves them out in multiprocess mode.
        self.created = created

    def describe(self) -> Iterator[Any]:
        # The names, for the registry's check that no two collectors send the same one.
        yield from self._families([])

    def collect(self) -> Iterator[Any]:
        yield from self._families(self.tally.snapshots())

    def _families(self, snapshots: list[dict[str, Any]]) -> Iterator[Any]:
        created = self.created and prometheus_client.metrics._use_created and len(snapshots) == 1
        started = min((snapshot["created"] for snapshot in snapshots), default=time.time())
        # An unlabelled counter is sent at 0 before anything counts, as prometheus-client sends it.
        counters: dict[str, dict[tuple[str, ...], list[float]]] = {
            name: {} if family.labels else {(): [0, started]}
            for name, family in vars(FAMILIES).items()
            if not family.histogram
        }

        def add(name: str, labels: tuple[str, ...], count: float, since: float) -> None:
            entry = counters[name].setdefault(labels, [0, since])
            entry[0] += count
            entry[1] = min(entry[1], since)

        latency_by_view: dict[tuple[str, ...], list[list[Any]]] = {}
        for snapshot in snapshots:
            for view, method, transport, status, charset, resolved, ajax, streaming, count, since in snapshot[
                "responses"
            ]:
                add("requests_total", (), count, since)
                add("responses_total", (), count, since)
                add("requests_by_method", (method,), count, since)
                add("requests_by_transport", (transport,), count, since)
                # As django-prometheus's process_view: only requests that reached a view count
                # here; the series of one that did not is there, at 0.
                add("requests_by_view_transport_method", (view, transport, method), count if resolved else 0, since)
                add("responses_by_status", (status,), count, since)
                add("responses_by_status_view_method", (status, view, method), count, since)
                if charset:
                    add("responses_by_charset", (charset,), count, since)
                if ajax:
                    add("requests_ajax", (), count, since)
                if streaming:
                    add("responses_streaming", (), count, since)
            for family, entries in snapshot["rare"].items():
                for label, count, since in entries:
                    add(family, (label,), count, since)
            for view, method, *saved in snapshot["latency_by_view"]:
                latency_by_view.setdefault((view, method), []).append(saved)

        histograms = {
            "requests_latency_before": {(): [snapshot["latency"] for snapshot in snapshots]},
            "requests_latency_by_view_method": latency_by_view,
            "requests_body_bytes": {(): [snapshot["request_bytes"] for snapshot in snapshots]},
            "responses_body_bytes": {(): [snapshot["response_bytes"] for snapshot in snapshots]},
        }
        # In django-prometheus's order, which is the order /metrics has always listed them in.
        for name, family in vars(FAMILIES).items():
            if family.histogram:
                yield self._histogram(family, histograms[name], created)
            else:
                yield self._counter(family, counters[name], created)

    @staticmethod
    def _counter(family: Family, series: dict[tuple[str, ...], list[float]], created: bool) -> CounterMetricFamily:
        metric = CounterMetricFamily(family.name, family.documentation, labels=family.labels)
        for labels, (count, since) in series.items():
            metric.add_metric(list(labels), float(count), created=since if created else None)
        return metric

    @staticmethod
    def _histogram(
        family: Family, series: dict[tuple[str, ...], list[list[Any]]], created: bool
    ) -> HistogramMetricFamily:
        metric = HistogramMetricFamily(family.name, family.documentation, labels=family.labels)
        for labels, saved in series.items():
            counts, total, since = _sum_histograms(saved, family.bounds)
            cumulative, buckets = 0, []
            for bound, count in zip(family.bounds, counts, strict=True):
                cumulative += count
                buckets.append((floatToGoString(bound), float(cumulative)))
            metric.add_metric(list(labels), buckets, total)
            if created:
                metric.add_sample(family.name + "_created", dict(zip(family.labels, labels, strict=True)), since)
        return metric


TALLY = RequestTally(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None)
if TALLY.directory is None:
    # One process, the global registry; with several, newsroom.ops.metrics.registry adds the
    # collector to the registry it builds for each scrape.
    prometheus_client.REGISTRY.register(RequestMetricsCollector(TALLY))
