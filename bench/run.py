"""``make bench``: every benchmark, each in its own process, printing its numbers.

    python bench/run.py                 # all of them, on SQLite and (when reachable) PostgreSQL
    python bench/run.py import checks   # a selection of: pages floor instructions middleware api desk
                                        # import checks supported load

Numbers, not assertions: read them beside the targets each line states. The machine's other
load shows in them, so run this on a quiet machine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BASE_DIR, postgres_available, redis_available

BENCH = BASE_DIR / "bench"
DATABASES = ["sqlite", "postgres"] if postgres_available() else ["sqlite"]

SUITES: dict[str, list[tuple[str, list[str]]]] = {
    # Pages first: they compare the request rates of processes sharing the machine's two cores,
    # which other work moves far more than one process's latency. Run after the import and checks
    # benches (minutes of full CPU, 750 MB of new PostgreSQL data), the uncached story page once
    # measured 23% of hello and its in-process CPU 1.56 ms; a minute later, alone, 29% and 1.20 ms.
    "pages": [
        (
            f"story page vs hello view, {db} (warm page cache >= 90% of hello, cold >= 50%)",
            ["pages.py", "--database", db],
        )
        for db in DATABASES
    ]
    + (
        [
            (
                "story page vs hello view, postgres with the Redis cache, as deployed (warm >= 90%, cold >= 50%; "
                "and publish -> readers)",
                ["pages.py", "--database", "postgres", "--cache", "redis"],
            )
        ]
        if "postgres" in DATABASES and redis_available()
        else []
    ),
    "floor": [
        (
            "the floor under wrk: a bare Django view, the stock stack, the project's hello, the story page cached "
            "and cold; PostgreSQL and Redis (hello >= 0.90 of stock; cached >= 0.70 and cold >= 0.45 of bare)",
            ["floor.py"],
        )
    ],
    "instructions": [
        (
            "the floor's five targets in instructions per request under callgrind, in process: repeatable within "
            "about 1% where wrk's rates swing by a fifth",
            ["instructions.py"],
        )
    ],
    "middleware": [
        (
            "observability's cost per request, in-process CPU: hello, /healthz and the cached story page with the "
            "whole middleware and without metrics, route naming and the request log line",
            ["middleware.py"],
        )
    ],
    "api": [
        (
            f"read API vs a DRF hello view, {db} (story list of 50 >= 30% of hello, story detail >= 60%)",
            ["api.py", "--database", db],
        )
        for db in DATABASES
    ],
    "desk": [
        (
            f"the desk's story page, {db} (seed story <= 250 ms and 150 KiB; 320 paragraphs <= 2.5 s and 2 MiB)",
            ["desk.py", "--database", db],
        )
        for db in DATABASES
    ],
    "import": [
        (
            f"desk/1 import, {db} (1,000 then 10,000 stories; the second must not be slower per story)",
            ["import_desk.py", "--database", db],
        )
        for db in DATABASES
    ],
    "checks": [
        (
            f"checks, {db} (not_repeat median < 50 ms at 100,000 and within 3x of 1,000; five checks < 100 ms)",
            ["checks.py", "--database", db],
        )
        for db in DATABASES
    ],
    "supported": [
        (
            "paragraphs_supported: tuning sets, and the held-out set (accuracy >= 95%, false alarms <= 3%)",
            ["supported_eval.py"],
        )
    ],
    # Last: a minute of full load, which would move the others' numbers if it ran before them.
    "load": [
        (
            "load run: 60 s at 64 connections over pages, twins, listings, search and the API; production "
            "settings, PostgreSQL and Redis (0 errors, 0 responses of 500; LOAD_SECONDS for a quick run)",
            ["load.py"],
        )
    ],
}


def main(selected: list[str]) -> int:
    unknown = [name for name in selected if name not in SUITES]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(SUITES)}", file=sys.stderr)
        return 2
    if "postgres" not in DATABASES:
        print("PostgreSQL is not reachable on 127.0.0.1:5432: benchmarking SQLite only")
    failed = 0
    for name in selected or list(SUITES):
        for title, command in SUITES[name]:
            print(f"\n## {title}", flush=True)
            start = time.perf_counter()
            result = subprocess.run([sys.executable, str(BENCH / command[0]), *command[1:]], cwd=BASE_DIR, check=False)
            print(f"   ({time.perf_counter() - start:.0f} s)", flush=True)
            failed += result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
