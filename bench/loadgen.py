"""A closed-loop HTTP load generator that keeps every request: when it started, how long it took
and how it ended. For the load run (``bench/load.py``) and the fault drills
(``tests/integration/``), which need more than a rate: the latency percentiles, the status of
each response, timeouts counted as such, and all of it per window of time (before, during and
after a fault).

``connections`` client threads, spread over a few processes (so the client's own Python does
not become the bottleneck), each send one request at a time over a new connection (gunicorn's
sync workers close every connection) and start the next as soon as the answer is complete.
A request that has not been answered in full within ``timeout`` seconds is abandoned and
counted as a timeout, with its latency taken as the time waited. Paths are taken in turn from
the mix, each thread starting at its own place in it.

    load = Load(port, ["/", "/search/?q=x"], connections=16, timeout=2.0).start()
    ...  # a fault, at a time you note with time.monotonic()
    samples = load.stop()
    print(summary(samples, start, end))
"""

from __future__ import annotations

import math
import multiprocessing
import os
import socket
import threading
import time
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# Status codes for requests that got no HTTP status.
TIMEOUT = 0
ERROR = -1  # refused, reset, or an answer that is not HTTP


@dataclass(frozen=True)
class Sample:
    started: float  # time.monotonic(), the same clock in every process on Linux
    latency: float  # seconds
    status: int  # the HTTP status, TIMEOUT or ERROR
    path: int  # index in the mix


def _request(port: int, request: bytes, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        head = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            connection.settimeout(remaining)
            chunk = connection.recv(65536)
            if not chunk:
                break
            if len(head) < 16:
                head += chunk[:16]
    if not head.startswith(b"HTTP/1.") or not head[9:12].isdigit():
        return ERROR
    return int(head[9:12])


def _thread(port: int, requests: list[bytes], first: int, timeout: float, stop: threading.Event, out: list) -> None:
    starts, latencies, statuses, paths = array("d"), array("d"), array("h"), array("h")
    index = first
    while not stop.is_set():
        number = index % len(requests)
        index += 1
        began = time.monotonic()
        try:
            status = _request(port, requests[number], timeout)
        except TimeoutError:  # socket.timeout is TimeoutError
            status = TIMEOUT
        except Exception:  # refused, reset, anything else: counted, and the client goes on
            status = ERROR
        starts.append(began)
        latencies.append(time.monotonic() - began)
        statuses.append(status)
        paths.append(number)
        if status == ERROR:
            time.sleep(0.01)  # a refused connection returns at once: do not spin on it
    out.append((starts, latencies, statuses, paths))


def _process(port: int, paths: list[str], threads: int, offset: int, timeout: float, stop_event, queue) -> None:
    requests = [f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode() for path in paths]
    stop = threading.Event()
    out: list = []
    workers = [
        threading.Thread(target=_thread, args=(port, requests, offset + n * 7, timeout, stop, out), daemon=True)
        for n in range(threads)
    ]
    for worker in workers:
        worker.start()
    stop_event.wait()
    stop.set()
    for worker in workers:
        worker.join(timeout + 5)
    merged = [array("d"), array("d"), array("h"), array("h")]
    for part in out:
        for whole, piece in zip(merged, part, strict=True):
            whole.extend(piece)
    queue.put([a.tobytes() for a in merged])


class Load:
    """Load on 127.0.0.1:``port`` from ``connections`` concurrent clients, until ``stop()``."""

    def __init__(self, port: int, paths: list[str], *, connections: int, timeout: float = 2.0, processes: int = 0):
        self.port = port
        self.paths = paths
        self.connections = connections
        self.timeout = timeout
        self.processes = processes or min(4, max(1, os.cpu_count() or 1), connections)
        context = multiprocessing.get_context("fork")
        self._stop = context.Event()
        self._queue = context.Queue()
        self._children: list = []
        self._context = context

    def start(self) -> Load:
        per = [
            self.connections // self.processes + (n < self.connections % self.processes) for n in range(self.processes)
        ]
        for number, threads in enumerate(per):
            child = self._context.Process(
                target=_process,
                args=(self.port, self.paths, threads, number * 3, self.timeout, self._stop, self._queue),
                daemon=True,
            )
            child.start()
            self._children.append(child)
        return self

    def stop(self) -> list[Sample]:
        self._stop.set()
        samples: list[Sample] = []
        for _ in self._children:
            raw = self._queue.get(timeout=self.timeout + 60)
            starts, latencies, statuses, paths = array("d"), array("d"), array("h"), array("h")
            for part, data in zip((starts, latencies, statuses, paths), raw, strict=True):
                part.frombytes(data)
            samples += [Sample(*values) for values in zip(starts, latencies, statuses, paths, strict=True)]
        for child in self._children:
            child.join(timeout=10)
        samples.sort(key=lambda sample: sample.started)
        return samples


def run_for(port: int, paths: list[str], seconds: float, **options: float) -> tuple[list[Sample], float, float]:
    """Load for ``seconds``; the samples and the window's start and end."""
    load = Load(port, paths, **options).start()
    start = time.monotonic()
    time.sleep(seconds)
    end = time.monotonic()
    return load.stop(), start, end


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (0 < share <= 1) of values; nan for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class Summary:
    requests: int
    seconds: float
    statuses: Counter
    p50: float  # milliseconds, timeouts counted at the time waited
    p99: float
    max: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else math.nan

    @property
    def timeouts(self) -> int:
        return self.statuses[TIMEOUT]

    @property
    def errors(self) -> int:
        """Requests with no HTTP answer, or a 5xx one."""
        return sum(count for status, count in self.statuses.items() if status <= 0 or status >= 500)

    def count(self, *statuses: int) -> int:
        return sum(self.statuses[status] for status in statuses)

    def statuses_text(self) -> str:
        names = {TIMEOUT: "timeout", ERROR: "error"}
        return " ".join(f"{names.get(status, status)}:{count}" for status, count in sorted(self.statuses.items()))


def summary(samples: Iterable[Sample], start: float, end: float) -> Summary:
    """The requests that started in [start, end)."""
    chosen = [sample for sample in samples if start <= sample.started < end]
    latencies = [sample.latency * 1000 for sample in chosen]
    return Summary(
        requests=len(chosen),
        seconds=end - start,
        statuses=Counter(sample.status for sample in chosen),
        p50=percentile(latencies, 0.50),
        p99=percentile(latencies, 0.99),
        max=max(latencies, default=math.nan),
    )


def table(rows: list[tuple[str, Summary]], *, prefix: str = "") -> str:
    """A compact table of windows: requests, rate, p50, p99, max, timeouts, statuses."""
    lines = [f"{prefix}{'window':28} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}  statuses"]
    for name, s in rows:
        lines.append(
            f"{prefix}{name:28} {s.requests:8d} {s.rate:7.0f} {s.p50:7.1f} {s.p99:7.1f} {s.max:7.0f}  "
            f"{s.statuses_text()}"
        )
    return "\n".join(lines)


def timeline(samples: list[Sample], start: float, end: float, step: float = 1.0, *, prefix: str = "") -> str:
    """One line per ``step`` seconds from ``start``: requests, p99, max and statuses."""
    lines = []
    at = start
    while at < end:
        s = summary(samples, at, min(at + step, end))
        lines.append(
            f"{prefix}t={at - start:5.1f}s {s.requests:6d} req  p99 {s.p99:6.0f} ms  max {s.max:6.0f} ms  "
            f"{s.statuses_text()}"
        )
        at += step
    return "\n".join(lines)


def by_path(samples: list[Sample], paths: list[str], start: float, end: float) -> list[tuple[str, Summary]]:
    """The window's summary for each path of the mix."""
    return [
        (path[-28:], summary([sample for sample in samples if sample.path == number], start, end))
        for number, path in enumerate(paths)
    ]
