"""The read API: requests per second for a page of 50 stories and for a story's desk/1
document, against a plain DRF "hello" APIView on the same gunicorn stack, in the same run.

    .venv/bin/python bench/api.py                      # defaults: 5 rounds of 3 s per target
    .venv/bin/python bench/api.py --database postgres  # the same against PostgreSQL

It makes a throwaway database (SQLite unless told otherwise), loads the demo (the two seeds,
checked and published through the gate), publishes generated copies of a seed until 60 stories
are live (unchecked, recorded as such), and starts one gunicorn on 127.0.0.1 with the real
settings and middleware, DEBUG off, through ``bench/pages.py``'s server and client helpers.
A second server runs without a cache, to show what a list page costs when it is built (after
a change, or for a search). The hello view is an APIView as the API's are: anonymous,
throttled (the rate set high enough never to refuse, so the throttle's bookkeeping is counted
on both sides), rendered as JSON.

Targets: story list (page of 50) >= 30% of hello; story detail >= 60%.

Beside them, without a target: the changes feed's first page (50 events, for a mirror), and
one MCP tool call (``get_story`` at /mcp/, with a token) against a DRF hello, one request at a
time on one connection, median milliseconds each.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from django.urls import path

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BASE_DIR))
from bench import pages  # noqa: E402

HELLO = "/__bench__/api-hello/"
LIST = "/api/v1/stories/?page_size=50"
DETAIL = "/api/v1/stories/81/"
CHANGES = "/api/v1/changes/?page_size=50"
TARGETS = {"list": 0.30, "detail": 0.60}
LIVE_STORIES = 60


# --- The server side: imported by gunicorn as bench.api ----------------------------------------


def wsgi_app() -> Any:
    """The pages bench's application (the whole site), with a DRF hello view in front."""
    application = pages.wsgi_app()
    from rest_framework.permissions import AllowAny
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class Hello(APIView):
        authentication_classes = ()
        permission_classes = (AllowAny,)

        def get(self, request: Request) -> Response:
            return Response({"hello": "world"})

    pages.urlpatterns.insert(0, path(HELLO.strip("/") + "/", Hello.as_view()))
    return application


def publish_generated(count: int) -> None:
    """Run in a process of its own against the bench's database: publish ``count`` copies of
    a seed, each with its own id, slug and headline, older than the seeds."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings")
    import django

    django.setup()
    from stories.services import story_import_desk
    from verification.gate import story_publish_unchecked

    seed = json.loads((BASE_DIR / "stories/fixtures/seeds/agentic-rl-production.json").read_text())
    for number in range(count):
        document = json.loads(json.dumps(seed))
        document |= {
            "id": str(50_000 + number),
            "slug": f"generated-{number}",
            "headline": f"{seed['headline']} ({number})",
            "edition": "2026-10-20T00",
            "published_at": f"2026-10-20T00:{number % 50:02d}:00Z",
        }
        for key in ("url", "links", "reuse"):  # they follow from the address, made on publishing
            document.pop(key, None)
        story = story_import_desk(document=document, actor="bench").story
        story_publish_unchecked(story=story, actor="bench", reason="bench: generated story")


def _check(server: pages.Server) -> None:
    """Each target answers what it should before it is timed."""
    if json.loads(urllib.request.urlopen(server.url(HELLO)).read()) != {"hello": "world"}:
        raise RuntimeError("the hello view does not say hello")
    listed = json.loads(urllib.request.urlopen(server.url(LIST)).read())
    if len(listed["results"]) != 50:
        raise RuntimeError(f"the story list has {len(listed['results'])} stories, not 50")
    detail = urllib.request.urlopen(server.url(DETAIL)).read()
    twin = urllib.request.urlopen(server.url("/stories/2026-10-16/agent-training-stack/index.json")).read()
    if detail != twin:
        raise RuntimeError("the story detail is not its JSON twin")


MCP = "/mcp/"
MCP_CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "get_story", "arguments": {"id": "81"}},
}


def mcp_token(env: dict[str, str]) -> str:
    """A token of an editor of the seeds' newsroom, made in the bench's database."""
    manage = [sys.executable, "manage.py"]
    add = [*manage, "add_editor", "bench-agent", "--newsroom", "artificial-intelligence", "--create"]
    subprocess.run(
        add, cwd=BASE_DIR, env=env | {"ADD_EDITOR_PASSWORD": "x-bench-only"}, check=True, capture_output=True
    )
    made = subprocess.run(
        [*manage, "create_api_token", "bench-agent"], cwd=BASE_DIR, env=env, check=True, capture_output=True, text=True
    )
    return made.stdout.split()[-1]


def latency(port: int, method: str, url_path: str, *, headers: dict[str, str], body: bytes | None, count: int) -> float:
    """Median milliseconds of ``count`` requests, one at a time on one kept-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    try:
        for _ in range(count):
            start = time.perf_counter()
            connection.request(method, url_path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
            times.append(time.perf_counter() - start)
            if response.status != 200:
                raise RuntimeError(f"{method} {url_path} answered {response.status}: {content[:200]!r}")
    finally:
        connection.close()
    return statistics.median(times) * 1000


def mcp_timing(server: pages.Server, token: str, count: int) -> None:
    body = json.dumps(MCP_CALL).encode()
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    answer = json.loads(urllib.request.urlopen(urllib.request.Request(server.url(MCP), body, headers)).read())
    if answer["result"].get("isError") or answer["result"]["structuredContent"]["story"]["id"] != "81":
        raise RuntimeError(f"the MCP get_story call did not answer story 81: {str(answer)[:300]}")
    hello = latency(server.port, "GET", HELLO, headers={}, body=None, count=count)
    call = latency(server.port, "POST", MCP, headers=headers, body=body, count=count)
    print(f"api  hello (DRF)          {hello:8.2f} ms   one request at a time, median of {count}", flush=True)
    print(f"api  MCP get_story call   {call:8.2f} ms   ({call / hello:.1f} x hello; no target)", flush=True)


def run(*, database: str, seconds: float, rounds: int, clients: int, workers: int, max_requests: int) -> dict[str, Any]:
    sys.path.insert(0, str(BENCH_DIR))
    from common import fresh_database_url

    env = pages._environment(fresh_database_url(database, "api"))
    # Never refused, but counted: a window of one second keeps the throttle's history short.
    env |= {"API_ANON_RATE": "1000000/second"}
    pages._prepare_database(env)
    code = f"from bench.api import publish_generated; publish_generated({LIVE_STORIES - 2})"
    subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, check=True, capture_output=True)
    load_average = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    servers: dict[str, pages.Server] = {}
    try:
        servers["on"] = pages.Server(env, cache="on", workers=workers, app="bench.api:wsgi_app()")
        # Every list page computed afresh (Django's dummy cache): what a change, or a search, costs.
        servers["off"] = pages.Server(env, cache="off", workers=workers, app="bench.api:wsgi_app()")
        for server in servers.values():
            _check(server)
        token = mcp_token(env)
        plan = {
            "hello (DRF)": (servers["on"], HELLO),
            "story list, 50": (servers["on"], LIST),
            "story detail": (servers["on"], DETAIL),
            "list, no cache": (servers["off"], LIST),
            "changes feed, 50": (servers["on"], CHANGES),
        }
        samples: dict[str, list[float]] = {name: [] for name in plan}
        for _ in range(rounds):
            for name, (server, url_path) in plan.items():
                rate = pages.measure(server.port, url_path, seconds=seconds, clients=clients, max_requests=max_requests)
                samples[name].append(rate)
        mcp_timing(servers["on"], token, count=200)
    finally:
        for server in servers.values():
            server.stop()
    rates = {name: statistics.median(values) for name, values in samples.items()}
    pairs = {"list": "story list, 50", "detail": "story detail"}
    ratios = {kind: rates[name] / rates["hello (DRF)"] for kind, name in pairs.items()}
    uncached = rates["list, no cache"] / rates["hello (DRF)"]
    print(
        f"api  {LIVE_STORIES} live stories  gunicorn {workers} sync worker(s), {clients} client process(es), "
        f"{rounds} rounds x {seconds:g} s, {pages.DATABASE_NAMES[database]} with persistent connections, "
        f"local-memory cache; load average {load_average} on {os.cpu_count()} CPUs",
        flush=True,
    )
    for name, rate in rates.items():
        spread = ", ".join(f"{value:.0f}" for value in samples[name])
        print(f"api  {name:16} {rate:8.0f} req/s   (rounds: {spread})", flush=True)
    for kind, ratio in ratios.items():
        verdict = "met" if ratio >= TARGETS[kind] else "MISSED"
        each = [s / h for s, h in zip(samples[pairs[kind]], samples["hello (DRF)"], strict=True)]
        print(
            f"api  {pairs[kind]:16} / hello = {ratio:6.1%}   target >= {TARGETS[kind]:.0%}: {verdict}"
            f"   (round by round: {min(each):.1%} to {max(each):.1%})",
            flush=True,
        )
    print(f"api  list, no cache   / hello = {uncached:6.1%}   (no target: every request builds the page)", flush=True)
    changes = rates["changes feed, 50"] / rates["hello (DRF)"]
    print(f"api  changes feed, 50 / hello = {changes:6.1%}   (no target: a mirror's first page of events)", flush=True)
    return {"rates": rates, "ratios": ratios, "samples": samples}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=sorted(pages.DATABASE_NAMES), default="sqlite", help="default sqlite")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds over the four targets (default 5)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers (default 2)")
    parser.add_argument("--max-requests", type=int, default=200_000, help="cap per client per run")
    args = parser.parse_args(argv)
    return run(
        database=args.database,
        seconds=args.seconds,
        rounds=args.rounds,
        clients=args.clients,
        workers=args.workers,
        max_requests=args.max_requests,
    )


if __name__ == "__main__":
    main()
