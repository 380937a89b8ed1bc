"""Public pages: requests per second for the seed story page served from the page cache (warm)
and from its stored artifact (cold), against a plain "hello" Django view on the same server, in
the same run; and how soon a publish reaches readers.

    .venv/bin/python bench/pages.py                    # defaults: 5 rounds of 3 s per target
    .venv/bin/python bench/pages.py --seconds 5 --rounds 5 --workers 2 --clients 2
    .venv/bin/python bench/pages.py --database postgres  # the same against PostgreSQL
    .venv/bin/python bench/pages.py --database postgres --cache redis  # as deployed: Redis cache

It makes a throwaway database (SQLite unless told otherwise), loads the demo (the two seeds,
checked and published through the gate) and starts two gunicorn servers on 127.0.0.1, each
with the real settings and middleware, DEBUG off:

- "cache on", warm: the site as deployed (local-memory cache, or with ``--cache redis`` the
  Redis at 127.0.0.1:6379, database 14, under a key prefix of its own, read through redis-py's
  client-side cache as settings configure it); the story page is answered from the page cache by
  ``PageCacheMiddleware``, right after SecurityMiddleware.
- "cache off", cold: the same site with Django's dummy cache, so every request misses the page
  cache: the view reads the stored page (one indexed query) and sends it.

Both servers also mount ``/__bench__/hello/``, a view returning "hello" through the same
middleware, added by this file's URLconf only. Client processes open a new connection per
request (gunicorn's sync workers close each one), loopback only, each for a bounded time
and at most ``--max-requests``. Rounds interleave the targets so background load on the
machine falls on all of them alike; the median round counts.

Publish to readers: with the Redis cache, a separate process edits the story's working copy,
has it checked, publishes it, and from the moment the publish call returns asks the warm
server for the page until it shows the new headline. (With the local-memory cache each process
keeps its own pages, so a publish made in another process reaches that server's readers when
its pages expire, PAGE_CACHE_SECONDS; the embedded default serves and publishes in one process.)

Targets: warm story page >= 90% of hello; cold >= 50%.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
STORY = "/stories/2026-10-16/agent-training-stack/"
HELLO = "/__bench__/hello/"
# What Chromium sends with every request: readers' browsers all take gzip.
BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd"
TARGETS = {"cached": 0.90, "uncached": 0.50}
DATABASE_NAMES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
CACHE_NAMES = {"locmem": "local-memory cache", "redis": "Redis cache"}
REDIS_URL = "redis://127.0.0.1:6379/14"  # not CI's 15
# What bench/middleware.py leaves out to show what observability costs a request.
OBSERVABILITY_MIDDLEWARE = {"newsroom.ops.observe.RequestObservabilityMiddleware"}


# --- The server side: imported by gunicorn as bench.pages --------------------------------------


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("hello", content_type="text/plain")


# Filled by wsgi_app(), once Django is set up: the hello view, then the whole site.
urlpatterns: list[Any] = []


def wsgi_app() -> Any:
    """The site's WSGI application with this URLconf; the page cache, or the observability
    middleware, off when asked."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
    import django
    from django.conf import settings

    django.setup(set_prefix=False)
    urlpatterns[:] = [path(HELLO.strip("/") + "/", hello), path("", include("newsroom.urls"))]
    settings.ROOT_URLCONF = __name__
    if os.environ.get("BENCH_PAGE_CACHE") == "off":
        # Read before the first cache access, so every request misses: a full render each time.
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    if os.environ.get("BENCH_OBSERVABILITY") == "off":
        settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name not in OBSERVABILITY_MIDDLEWARE]
    from newsroom.serving import serving_application

    return serving_application()  # as newsroom/wsgi.py makes it


def get(app: Any, url_path: str, *, accept_encoding: str = "") -> None:
    """A GET of ``url_path`` from the WSGI application, called directly, with this
    Accept-Encoding if any; raises unless it is a 200."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": url_path,
        "QUERY_STRING": "",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }
    if accept_encoding:
        environ["HTTP_ACCEPT_ENCODING"] = accept_encoding
    statuses = []
    b"".join(app(environ, lambda status, headers, exc_info=None: statuses.append(status)))
    if not statuses[0].startswith("200"):
        raise RuntimeError(f"{url_path} answered {statuses[0]}")


def cpu_per_request(url_path: str, *, requests: int) -> float:
    """Milliseconds of this process's CPU per request, calling the WSGI app directly: what the
    server spends on the page, without the network, the client or other load on the machine."""
    app = wsgi_app()
    for _ in range(5):
        get(app, url_path)
    # The best of five batches, as timeit advises: the others include time taken by whatever
    # else the machine was doing.
    batches = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(requests):
            get(app, url_path)
        batches.append((time.process_time() - start) / requests * 1000)
    return min(batches)


def publish_and_watch(port: int, times: int) -> None:
    """Run in a process of its own against the bench's database and cache: edit the story's
    working copy, check it, publish it, and print how many milliseconds after the publish call
    returned the server first answered the page with the new headline."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
    import django

    django.setup()
    from newsroom.models import Newsroom
    from stories import desk
    from stories.models import Story
    from stories.services import story_import_desk
    from verification.gate import story_publish
    from verification.workflow import story_submit

    story = Story.objects.get(slug="agent-training-stack")
    # Published by the call timed here, not by the newsroom's automatic publishing.
    Newsroom.objects.filter(pk=story.newsroom_id).update(auto_publish=False)
    request = f"GET {STORY} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    for round_number in range(times):
        headline = f"Agent training gets practical, take {round_number} {secrets.token_hex(4)}"
        document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
        document["headline"] = headline
        story_import_desk(document=document, actor="bench")
        story_submit(story=story, actor="bench")  # the checks run in-process (eager tasks)
        story_publish(story=story, actor="bench")
        published = time.perf_counter()
        deadline = published + 30
        while time.perf_counter() < deadline:
            with socket.create_connection(("127.0.0.1", port)) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(65536):
                    answer += chunk
            if headline.encode() in answer:
                print(f"{(time.perf_counter() - published) * 1000:.2f}", flush=True)
                break
        else:
            print("timeout", flush=True)


def _publish_latency(env: dict[str, str], port: int, times: int = 5) -> list[str]:
    code = f"from bench.pages import publish_and_watch; publish_and_watch({port}, {times})"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True
    )
    return [line for line in result.stdout.splitlines() if line == "timeout" or line[:1].isdigit()]


# --- The client side ---------------------------------------------------------------------------


def _one_request(port: int, request: bytes) -> str:
    """The response's status line ("" when the server closed without one)."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request)
        first = connection.recv(65536)
        while connection.recv(65536):
            pass
    return first.split(b"\r\n", 1)[0].decode("latin-1")


def _client(port: int, url_path: str, seconds: float, max_requests: int, results: Any) -> None:
    request = f"GET {url_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    done = failed = 0
    first_failure = ""
    deadline = time.perf_counter() + seconds
    while done < max_requests and time.perf_counter() < deadline:
        status = _one_request(port, request)
        if status.split(" ")[1:2] != ["200"]:
            failed += 1
            first_failure = first_failure or status or "no status line"
        done += 1
    results.put((done, failed, first_failure))


def measure(port: int, url_path: str, *, seconds: float, clients: int, max_requests: int) -> float:
    """Requests per second that ``clients`` processes get from the server in ``seconds``."""
    results: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(target=_client, args=(port, url_path, seconds, max_requests, results))
        for _ in range(clients)
    ]
    start = time.perf_counter()
    for process in processes:
        process.start()
    counts = [results.get(timeout=seconds + 60) for _ in processes]
    elapsed = time.perf_counter() - start
    for process in processes:
        process.join(timeout=10)
    failed = sum(f for _, f, _ in counts)
    if failed:
        first = next(status for _, f, status in counts if f)
        raise RuntimeError(f"{failed} requests to {url_path} did not answer 200 (the first: {first!r})")
    return sum(d for d, _, _ in counts) / elapsed


# --- Orchestration -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "DATABASE_URL"}}
    env |= {
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "newsroom.settings",
        "DJANGO_MODE": "development",
        "DEBUG": "false",
        # Persistent database connections, as in production (settings default them to 60 s
        # there): opening SQLite afresh for every request would be measured instead of the page.
        "DATABASE_CONN_MAX_AGE": "600",
        "PYTHONPATH": str(BASE_DIR),
        # load_demo would print a generated admin password; give it a throwaway one instead.
        "DJANGO_SUPERUSER_PASSWORD": secrets.token_urlsafe(16),
    }
    return env


def _delete_keys(prefix: str, url: str = REDIS_URL) -> None:
    import redis

    server = redis.Redis.from_url(url)
    keys = list(server.scan_iter(match=f"{prefix}:*"))
    if keys:
        server.delete(*keys)


def _prepare_database(env: dict[str, str]) -> None:
    for command in (["migrate", "--no-input"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=BASE_DIR, env=env, check=True, capture_output=True)


class Server:
    """A gunicorn serving the site on 127.0.0.1, stopped on exit."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        cache: str,
        workers: int,
        app: str = "bench.pages:wsgi_app()",
        log_path: Path | None = None,
    ):
        self.port = _free_port()
        # The site's log goes to a file (a temporary one unless asked): a pipe nobody reads would
        # block the workers once full, and every request logs a line.
        self.log_path = log_path
        self.log = log_path.open("wb") if log_path else tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        errors = self.log
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [
                str(gunicorn),
                app,
                f"--bind=127.0.0.1:{self.port}",
                f"--workers={workers}",
                "--worker-class=sync",
                "--log-level=warning",
                "--chdir",
                str(BASE_DIR),
            ],
            env=env | {"BENCH_PAGE_CACHE": cache},
            cwd=BASE_DIR,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,
        )
        self._wait_until_ready()

    def url(self, url_path: str) -> str:
        return f"http://127.0.0.1:{self.port}{url_path}"

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                output = self.log.read() if not self.log_path else self.log_path.read_bytes()
                raise RuntimeError(f"gunicorn exited: {output.decode()[-2000:]}")
            try:
                urllib.request.urlopen(self.url(HELLO), timeout=2).read()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not start within 30 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: the master and workers
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        self.log.close()


def _check_pages(server: Server) -> None:
    """Each target answers what it should before it is timed."""
    if urllib.request.urlopen(server.url(HELLO)).read() != b"hello":
        raise RuntimeError("the hello view does not say hello")
    for _ in range(3):  # the first fills the cache (when on), the others are answered by it
        page = urllib.request.urlopen(server.url(STORY)).read().decode()
        if "Agent training gets practical" not in page or 'id="manifests"' not in page:
            raise RuntimeError("the story page is not whole")


def _cpu(env: dict[str, str], cache: str, url_path: str) -> float:
    """cpu_per_request in a process of its own: settings are read once per process."""
    requests = 1000
    arguments = f"{url_path!r}, requests={requests}"
    code = f"from bench.pages import cpu_per_request; print(cpu_per_request({arguments}))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=env | {"BENCH_PAGE_CACHE": cache},
        check=True,
        capture_output=True,
        text=True,
    )
    return float(result.stdout.strip().splitlines()[-1])


def _rates(
    env: dict[str, str], *, seconds: float, rounds: int, clients: int, workers: int, max_requests: int, latency: bool
) -> tuple[dict[str, list[float]], list[str]]:
    """Requests per second of each target in each round, from two servers: cache on and off;
    then, when asked, the publish-to-readers latencies on the cache-on server."""
    servers: dict[str, Server] = {}
    try:
        servers["on"] = Server(env, cache="on", workers=workers)
        servers["off"] = Server(env, cache="off", workers=workers)
        for server in servers.values():
            _check_pages(server)
        plan = {
            "hello (cache on)": (servers["on"], HELLO),
            "story cached": (servers["on"], STORY),
            "hello (cache off)": (servers["off"], HELLO),
            "story uncached": (servers["off"], STORY),
        }
        samples: dict[str, list[float]] = {name: [] for name in plan}
        for _ in range(rounds):
            for name, (server, url_path) in plan.items():
                rate = measure(server.port, url_path, seconds=seconds, clients=clients, max_requests=max_requests)
                samples[name].append(rate)
        latencies = _publish_latency(env, servers["on"].port) if latency else []
        return samples, latencies
    finally:
        for server in servers.values():
            server.stop()


def run(
    *, database: str, cache: str, seconds: float, rounds: int, clients: int, workers: int, max_requests: int
) -> dict[str, Any]:
    sys.path.insert(0, str(BENCH_DIR))
    from common import fresh_database_url

    env = _environment(fresh_database_url(database, "pages"))
    if cache == "redis":
        # Its own key prefix: only these keys are deleted at the end (never FLUSHDB).
        env |= {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": f"bench-pages-{secrets.token_hex(6)}"}
        env |= {"CELERY_TASK_ALWAYS_EAGER": "true"}
    _prepare_database(env)
    # Other work on the machine moves these rates more than it moves one process's latency.
    load_average = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    try:
        load = {"seconds": seconds, "rounds": rounds, "clients": clients, "max_requests": max_requests}
        samples, latencies = _rates(env, workers=workers, latency=cache == "redis", **load)
        cpu = {
            "hello": _cpu(env, "on", HELLO),
            "story cached": _cpu(env, "on", STORY),
            "story uncached": _cpu(env, "off", STORY),
        }
    finally:
        if cache == "redis":
            _delete_keys(env["CACHE_KEY_PREFIX"])
    rates = {name: statistics.median(values) for name, values in samples.items()}
    pairs = {"cached": ("story cached", "hello (cache on)"), "uncached": ("story uncached", "hello (cache off)")}
    ratios = {kind: rates[story] / rates[hello] for kind, (story, hello) in pairs.items()}
    print(
        f"pages  seed story {STORY}  gunicorn {workers} sync worker(s), {clients} client process(es), "
        f"{rounds} rounds x {seconds:g} s, {DATABASE_NAMES[database]} with persistent connections, "
        f"{CACHE_NAMES[cache]}; load average {load_average} on {os.cpu_count()} CPUs",
        flush=True,
    )
    for name, rate in rates.items():
        spread = ", ".join(f"{value:.0f}" for value in samples[name])
        print(f"pages  {name:18} {rate:8.0f} req/s   (rounds: {spread})", flush=True)
    for kind, ratio in ratios.items():
        verdict = "met" if ratio >= TARGETS[kind] else "MISSED"
        # The verdict is on the ratio of the medians; the rounds' own ratios show how far the
        # machine's noise reaches (the story and hello are measured a few seconds apart).
        story, hello = pairs[kind]
        each = [s / h for s, h in zip(samples[story], samples[hello], strict=True)]
        print(
            f"pages  story {kind:8} / hello = {ratio:6.1%}   target >= {TARGETS[kind]:.0%}: {verdict}"
            f"   (round by round: {min(each):.1%} to {max(each):.1%})",
            flush=True,
        )
    if latencies:
        print(f"pages  publish call returned -> page shows it: {', '.join(latencies)} ms", flush=True)
    else:
        print("pages  publish -> readers: not measured with a per-process cache (see the docstring)", flush=True)
    counted = "" if database == "sqlite" else "; the database server's own CPU is not counted"
    print(f"pages  server CPU per request, in-process (no network, no client, no other load{counted}):", flush=True)
    for name, milliseconds in cpu.items():
        share = cpu["hello"] / milliseconds
        print(f"pages  {name:24} {milliseconds:8.3f} ms   (a rate {share:6.1%} of hello's)", flush=True)
    return {"rates": rates, "ratios": ratios, "samples": samples, "cpu_ms": cpu, "publish_ms": latencies}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=sorted(DATABASE_NAMES), default="sqlite", help="default sqlite")
    parser.add_argument("--cache", choices=sorted(CACHE_NAMES), default="locmem", help="default locmem")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the four targets (default 5)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers per server (default 2)")
    parser.add_argument("--max-requests", type=int, default=200_000, help="cap per client per run")
    args = parser.parse_args(argv)
    return run(
        database=args.database,
        cache=args.cache,
        seconds=args.seconds,
        rounds=args.rounds,
        clients=args.clients,
        workers=args.workers,
        max_requests=args.max_requests,
    )


if __name__ == "__main__":
    main()
